"""LAGaBi: layout attention with Gaussian biases (Zhu et al., EMNLP 2023 Findings), docs/models.md §3.

Each head has a 2D Gaussian kernel over the polar coordinates (rho, theta) of key j around query i;
``bias = alpha (g - 1)`` in [-alpha, 0] is added to the attention scores (paper eq. 3-5). Four
parameters per head, shared by all layers; the official code's choices are the defaults.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from docextract.modeling.geometry import GRID_SIZE, pairwise_offsets

LAGABI_ALPHA = 4.0  # paper §4.4: tuned on CORD val
GAUSSIAN_EPS = 1e-14  # official code, inside the variance
SIGMA_INIT_MIN = 0.05  # docs/models.md §3b (our choice): keep sigma away from 0 at init
MU_INIT_MAX = 0.01  # intended init (commented out in the code): mu ~ U(0, 0.01), sigma ~ U(0, 1)


def lagabi_points(bbox: torch.Tensor, corner: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The point each box is placed at, scaled to [0, 1]: bottom-left (code) or top-left (paper). (B,S,4) -> 2x(B,S)."""
    box = bbox.to(torch.float32) / GRID_SIZE
    return box[..., 0], (box[..., 3] if corner == "bottom_left" else box[..., 1])


def polar_coordinates(x: torch.Tensor, y: torch.Tensor, theta_scheme: str) -> tuple[torch.Tensor, torch.Tensor]:
    """``rho = |(dx, dy)|`` and theta of key j around query i: (B,S) -> two (B,S,S).

    ``atan2_dx_dy`` (code): ``atan2(dx, dy)`` in (-pi, pi], 0 = straight below; ``atan_dy_dx`` (paper
    eq. 2): ``arctan(dy/dx)`` in [-pi/2, pi/2], 0 = same row (0 for coincident points).
    """
    dx, dy = pairwise_offsets(x), pairwise_offsets(y)  # (B, S, S)
    rho = torch.hypot(dx, dy)
    if theta_scheme == "atan2_dx_dy":
        theta = torch.atan2(dx, dy)
    else:
        theta = torch.where(dx == 0, torch.sign(dy) * (math.pi / 2), torch.atan(dy / dx.where(dx != 0, 1.0)))
    return rho, theta


def circular_difference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Official code: ``min(|a-b|, |2pi - |a-b||)``, so pi-eps and -pi+eps are close."""
    diff = (a - b).abs()
    return torch.minimum(diff, (2 * math.pi - diff).abs())


def gaussian_polar_bias(
    rho: torch.Tensor, theta: torch.Tensor, mu_rho: torch.Tensor, mu_theta: torch.Tensor,
    sigma_rho: torch.Tensor, sigma_theta: torch.Tensor, alpha: float = LAGABI_ALPHA,
) -> torch.Tensor:
    """LAGaBi eq. 4-5 (diagonal Sigma, as the code): ``alpha (g - 1)`` with
    ``g = exp(-(rho-mu_rho)^2 / 2 sigma_rho^2) exp(-delta(theta, mu_theta)^2 / 2 sigma_theta^2)``.

    rho, theta (B,S,S); parameters (H,). Returns (B,H,S,S) in [-alpha, 0].
    """
    per_head = lambda p: p.view(1, -1, 1, 1)  # noqa: E731  (H,) -> (1, H, 1, 1)
    rho, theta = rho.unsqueeze(1), theta.unsqueeze(1)  # (B, 1, S, S)
    radial = (rho - per_head(mu_rho)) ** 2 / (2 * (per_head(sigma_rho) ** 2 + GAUSSIAN_EPS))
    angular = circular_difference(theta, per_head(mu_theta)) ** 2 / (2 * (per_head(sigma_theta) ** 2 + GAUSSIAN_EPS))
    return alpha * (torch.exp(-(radial + angular)) - 1)  # (B, H, S, S)


class GaussianPolarBias(nn.Module):
    """The 4 x H LAGaBi parameters, shared by all layers; computes the (B,H,S,S) bias once per forward."""

    def __init__(self, num_heads: int, alpha: float, corner: str, theta_scheme: str):
        super().__init__()
        self.alpha = alpha
        self.corner = corner
        self.theta_scheme = theta_scheme
        self.mu_rho = nn.Parameter(torch.empty(num_heads))
        self.mu_theta = nn.Parameter(torch.empty(num_heads))
        self.sigma_rho = nn.Parameter(torch.empty(num_heads))
        self.sigma_theta = nn.Parameter(torch.empty(num_heads))

    def forward(self, bbox: torch.Tensor) -> torch.Tensor:  # (B, S, 4) -> (B, H, S, S)
        x, y = lagabi_points(bbox, self.corner)
        rho, theta = polar_coordinates(x, y, self.theta_scheme)
        return gaussian_polar_bias(rho, theta, self.mu_rho, self.mu_theta, self.sigma_rho, self.sigma_theta, self.alpha)
