"""Box geometry shared by the relative layout biases: centres, validity, pairwise offsets.

Boxes are ``(x0, y0, x1, y1)`` integers on the per-page 0..1000 grid, y pointing down (docs/models.md §0.1).
"""

from __future__ import annotations

import torch

GRID_SIZE = 1000  # box coordinates run 0..1000 on every page


def box_centres(bbox: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Centre x and y of each box: (B, S, 4) -> two (B, S) fp32."""
    box = bbox.to(torch.float32)
    return (box[..., 0] + box[..., 2]) / 2, (box[..., 1] + box[..., 3]) / 2


def valid_boxes(bbox: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """DocPolarBERT §2a: a box is invalid when it is a point (``x0==x1 and y0==y1``: [CLS], [SEP], pads)
    or the token is padding. (B, S, 4), (B, S) -> (B, S) bool."""
    is_point = (bbox[..., 0] == bbox[..., 2]) & (bbox[..., 1] == bbox[..., 3])  # (B, S)
    return ~is_point & attention_mask.bool()


def pairwise_offsets(values: torch.Tensor) -> torch.Tensor:
    """``value_j - value_i`` for query i and key j: (B, S) -> (B, S, S)."""
    return values.unsqueeze(1) - values.unsqueeze(2)
