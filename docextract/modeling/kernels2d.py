"""The long-range paper's fixed 2D attention kernels (Douzon et al. 2023 §3.2, docs/models.md §4.2).

Squircle ``cos(pi/2 dx/1000) cos(pi/2 dy/1000)`` and cross ``max(cos(pi/2 dx/1000), cos(pi/2 dy/1000))``
over box centres: 1 on the diagonal, in [0, 1], not learned, the same for all heads and layers.
Softmax attention takes them as ``log(max(B, 1e-5))`` added to the scores (the official code; the
paper's post-softmax product renormalised).
"""

from __future__ import annotations

import math

import torch

from docextract.modeling.geometry import GRID_SIZE, box_centres, pairwise_offsets

KERNEL_LOG_FLOOR = 1e-5  # official code: log(clamp(B, 1e-5))


def axis_cosine(offsets: torch.Tensor) -> torch.Tensor:
    """``cos(pi/2 * delta / 1000)`` for offsets on the 0..1000 grid (in [0, 1])."""
    return torch.cos(math.pi / 2 * offsets / GRID_SIZE)


def squircle_kernel(bbox: torch.Tensor) -> torch.Tensor:
    """Long-range paper eq. (squircle, code "circ"): (B,S,4) -> (B,S,S)."""
    cx, cy = box_centres(bbox)
    return axis_cosine(pairwise_offsets(cx)) * axis_cosine(pairwise_offsets(cy))


def cross_kernel(bbox: torch.Tensor) -> torch.Tensor:
    """Long-range paper eq. (cross): (B,S,4) -> (B,S,S)."""
    cx, cy = box_centres(bbox)
    return torch.maximum(axis_cosine(pairwise_offsets(cx)), axis_cosine(pairwise_offsets(cy)))


def log_kernel_bias(kernel: torch.Tensor) -> torch.Tensor:
    """Additive score bias of a multiplicative kernel: (B,S,S) -> (B,1,S,S)."""
    return torch.log(kernel.clamp(min=KERNEL_LOG_FLOOR)).unsqueeze(1)
