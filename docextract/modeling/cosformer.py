"""cosFormer linear attention with cos re-weighting and the separable 2D biases (long-range paper §3.3, docs/models.md §4.4).

Weights are ``phi(q_i).phi(k_j) * B_ij`` normalised over j, with ``phi = ReLU``, no 1/sqrt(d), and a
re-weighting kernel ``B_ij = sum_f w_if w_jf`` that is a sum of separable products, so it can be folded
into the features: ``q~_i = phi(q_i) (x) w_i`` and ``o_i = q~_i (sum_j k~_j v_j^T) / max(q~_i . sum_j k~_j, 1e-4)``
costs O(S d^2) instead of O(S^2 d). :func:`cosformer_attention_reference` is the quadratic twin.

Re-weightings (``w_i`` per token, zero on pads):
* ``cos1d``: ``a_i = pi/2 * i / M`` with i the 0-based index among the sample's real tokens and M their
  count (the official code, per sample); ``w = [cos a, sin a]`` so ``B_ij = cos(a_i - a_j)``.
* ``squircle``: ``cos(alpha_i - alpha_j) cos(beta_i - beta_j)`` with ``alpha = pi/2 cx/1000``,
  ``beta = pi/2 cy/1000``: 4 blocks ``[ca cb, ca sb, sa cb, sa sb]``.
* ``cross_sum`` [A]: ``(cos(alpha_i - alpha_j) + cos(beta_i - beta_j)) / 2``, 4 blocks.
* ``cross_select`` (official code): two attentions, x-only and y-only; per output feature the one of
  larger magnitude.
* ``none``: plain ReLU linear attention.
"""

from __future__ import annotations

import math

import torch

from docextract.modeling.geometry import GRID_SIZE, box_centres

COSFORMER_DENOMINATOR_FLOOR = 1e-4  # official long-range code's clamp


def cos1d_weights(attention_mask: torch.Tensor) -> torch.Tensor:
    """1D cos re-weighting features: (B, S) mask -> (B, S, 2), zero on pads."""
    mask = attention_mask.to(torch.float32)  # (B, S)
    index = mask.cumsum(-1) - 1  # (B, S): 0-based index among real tokens
    count = mask.sum(-1, keepdim=True).clamp(min=1)  # (B, 1): M per sample
    angle = math.pi / 2 * index / count  # (B, S)
    return torch.stack((angle.cos(), angle.sin()), -1) * mask.unsqueeze(-1)  # (B, S, 2)


def _axis_angles(bbox: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    cx, cy = box_centres(bbox)  # (B, S)
    return math.pi / 2 * cx / GRID_SIZE, math.pi / 2 * cy / GRID_SIZE


def squircle_weights(bbox: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """(B, S, 4) -> (B, S, 4) features whose products sum to ``cos(da) cos(db)``."""
    alpha, beta = _axis_angles(bbox)
    ca, sa, cb, sb = alpha.cos(), alpha.sin(), beta.cos(), beta.sin()
    weights = torch.stack((ca * cb, ca * sb, sa * cb, sa * sb), -1)  # (B, S, 4)
    return weights * attention_mask.to(weights.dtype).unsqueeze(-1)


def cross_sum_weights(bbox: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """(B, S, 4) features whose products sum to ``(cos(da) + cos(db)) / 2``."""
    alpha, beta = _axis_angles(bbox)
    weights = torch.stack((alpha.cos(), alpha.sin(), beta.cos(), beta.sin()), -1) / math.sqrt(2)  # (B, S, 4)
    return weights * attention_mask.to(weights.dtype).unsqueeze(-1)


def axis_weights(bbox: torch.Tensor, attention_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Two (B, S, 2) feature sets for the x-only and y-only attentions of ``cross_select``."""
    alpha, beta = _axis_angles(bbox)
    mask = attention_mask.to(torch.float32).unsqueeze(-1)
    return (torch.stack((alpha.cos(), alpha.sin()), -1) * mask, torch.stack((beta.cos(), beta.sin()), -1) * mask)


def reweight_features(kind: str, bbox: torch.Tensor, attention_mask: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """The feature sets of one re-weighting: one (B, S, F) tensor, or two for ``cross_select``."""
    if kind == "cos1d":
        return (cos1d_weights(attention_mask),)
    if kind == "squircle":
        return (squircle_weights(bbox, attention_mask),)
    if kind == "cross_sum":
        return (cross_sum_weights(bbox, attention_mask),)
    if kind == "cross_select":
        return axis_weights(bbox, attention_mask)
    return (attention_mask.to(torch.float32).unsqueeze(-1),)  # "none": (B, S, 1)


def cosformer_attention(phi_q: torch.Tensor, phi_k: torch.Tensor, value: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """Linear-time normalised attention with a separable re-weighting, in fp32.

    phi_q, phi_k, value (B,H,S,d) (phi already applied); weights (B,S,F), zero on pad tokens. -> (B,H,S,d).
    """
    dtype = value.dtype
    phi_q, phi_k, value, weights = phi_q.float(), phi_k.float(), value.float(), weights.float()
    batch, heads, size, dim = phi_q.shape
    w = weights.unsqueeze(1).unsqueeze(-1)  # (B, 1, S, F, 1)
    q_feat = (phi_q.unsqueeze(-2) * w).reshape(batch, heads, size, -1)  # (B, H, S, F*d)
    k_feat = (phi_k.unsqueeze(-2) * w).reshape(batch, heads, size, -1)  # (B, H, S, F*d)
    state = k_feat.transpose(-1, -2) @ value  # (B, H, F*d, d)
    key_sum = k_feat.sum(dim=2)  # (B, H, F*d)
    numerator = q_feat @ state  # (B, H, S, d)
    denominator = (q_feat * key_sum.unsqueeze(2)).sum(-1, keepdim=True)  # (B, H, S, 1)
    return (numerator / denominator.clamp(min=COSFORMER_DENOMINATOR_FLOOR)).to(dtype)


def cosformer_attention_reference(phi_q: torch.Tensor, phi_k: torch.Tensor, value: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """The quadratic twin of :func:`cosformer_attention`: ``A = (phi_q phi_k^T) * (w w^T)``, row-normalised."""
    kernel = (weights @ weights.transpose(-1, -2)).unsqueeze(1)  # (B, 1, S, S); zero rows/columns on pads
    scores = (phi_q @ phi_k.transpose(-1, -2)) * kernel  # (B, H, S, S)
    rowsum = scores.sum(-1, keepdim=True).clamp(min=COSFORMER_DENOMINATOR_FLOOR)  # (B, H, S, 1)
    return (scores / rowsum) @ value  # (B, H, S, d)


def select_by_magnitude(first: torch.Tensor, second: torch.Tensor) -> torch.Tensor:
    """Official ``cross`` combination: element-wise, whichever output has the larger absolute value."""
    return torch.where(first.abs() > second.abs(), first, second)
