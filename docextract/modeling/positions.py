"""Absolute position encodings: learned tables, sinusoids, and LSPE (learnable sinusoidal) for 1D and 2D.

LSPE paper (Dai-style LayoutLM, AACL-IJCNLP 2022 Findings), docs/models.md §1: every position value p (a token
index, or a 0..1000 box coordinate) is encoded as ``PE_sine(p)``, ``FFN(PE_sine(p))`` (LSPE, eq. 2) or
``PE_sine(p) + FFN(PE_sine(p))`` (LSPE with skip connection, eq. 3); separate FFNs for 1D, x, y, w, h.
"""

from __future__ import annotations

import math

import torch
from torch import nn

SINUSOID_BASE = 10000.0  # Vaswani et al.; LSPE eq. 1
INFERENCE_TABLE_MIN_ROWS = 1024  # covers the 0..1000 grid and a 512-token window in one computation


def sinusoid(values: torch.Tensor, dim: int) -> torch.Tensor:
    """LSPE eq. 1 / docs/models.md §0.4: ``[sin(p/10000^(2k/D)), cos(p/10000^(2k/D))]`` interleaved; (...,) -> (..., dim) fp32."""
    half = torch.arange(0, dim, 2, device=values.device, dtype=torch.float32)  # (dim/2,)
    inv_freq = torch.exp(-math.log(SINUSOID_BASE) * half / dim)  # (dim/2,)
    angles = values.to(torch.float32).unsqueeze(-1) * inv_freq  # (..., dim/2)
    out = torch.stack((angles.sin(), angles.cos()), dim=-1)  # (..., dim/2, 2)
    return out.flatten(-2)[..., :dim]  # (..., dim)


class LspeEncoding(nn.Module):
    """LSPE eq. 2 ``W2 GELU(W1 PE_sine(p) + b1) + b2``; with ``skip`` eq. 3 adds ``PE_sine(p)`` back.

    The FFN runs on the distinct values present (at most 1001 coordinates, or S positions), not on
    every token, then is gathered per token (docs/models.md §1c): cost independent of the batch size, and
    gradients flow through the gather into the FFN.
    """

    def __init__(self, dim: int, ffn_dim: int, skip: bool):
        super().__init__()
        self.dim = dim
        self.skip = skip
        self.fc1 = nn.Linear(dim, ffn_dim)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(ffn_dim, dim)

    def table(self, distinct: torch.Tensor) -> torch.Tensor:  # (U,) int -> (U, dim)
        base = sinusoid(distinct, self.dim).to(self.fc1.weight.dtype)  # (U, dim)
        table = self.fc2(self.act(self.fc1(base)))  # (U, dim)
        return table + base if self.skip else table

    def forward(self, values: torch.Tensor) -> torch.Tensor:  # (...,) int -> (..., dim)
        if not self.training and not torch.is_grad_enabled():
            return self._inference_table(int(values.max()) + 1 if values.numel() else 1)[values]  # (..., dim)
        distinct, inverse = torch.unique(values, return_inverse=True)  # (U,), (...,)
        return self.table(distinct)[inverse]  # (..., dim)

    def _inference_table(self, size: int) -> torch.Tensor:
        """At inference the FFN output for positions 0..size-1 is computed once and reused: the FFN
        over ~1000 values per axis per forward was two thirds of a 1-layer model's time (profiled).

        The cache is keyed by the weights' version counters (bumped by every in-place change: optimizer
        steps, ``load_state_dict``, ``copy_``), so it survives the ``model.eval()`` that inference calls
        per document, and never outlives the weights it was computed from."""
        # (weights loaded under torch.inference_mode are inference tensors: no version counter, and read-only
        # outside it; they are known by identity)
        key = (self.fc1.weight.dtype, self.fc1.weight.device,
               *(id(p) if p.is_inference() else p._version for p in self.parameters()))
        cached = getattr(self, "_cached_table", None)
        if cached is None or cached.shape[0] < size or getattr(self, "_cached_key", None) != key:
            cached = self.table(torch.arange(max(size, INFERENCE_TABLE_MIN_ROWS), device=self.fc1.weight.device))
            self._cached_table, self._cached_key = cached, key
        return cached

    def _load_from_state_dict(self, *args, **kwargs):
        self._cached_table = None  # new tensors may have their own version counters
        return super()._load_from_state_dict(*args, **kwargs)


class PositionEncoder(nn.Module):
    """One position axis (1D index, x, y, w or h) encoded by ``kind`` in learned/sinusoidal/lspe/lspe_sc."""

    def __init__(self, kind: str, dim: int, table_size: int, ffn_dim: int):
        super().__init__()
        self.kind = kind
        self.dim = dim
        if kind == "learned":
            self.table = nn.Embedding(table_size, dim)
        elif kind in ("lspe", "lspe_sc"):
            self.lspe = LspeEncoding(dim, ffn_dim, skip=kind == "lspe_sc")
        elif kind != "sinusoidal":
            raise ValueError(f"no position encoder for kind {kind!r}")

    def forward(self, values: torch.Tensor) -> torch.Tensor:  # (...,) int -> (..., dim)
        if self.kind == "learned":
            return self.table(values)
        if self.kind == "sinusoidal":
            return sinusoid(values, self.dim)
        return self.lspe(values)


class Layout2DEmbedding(nn.Module):
    """LSPE eq. 4 / LayoutLM: ``X(x0) + Y(y0) + X(x1) + Y(y1) [+ H(y1-y0) + W(x1-x0)]``, one encoder per axis.

    One X encoder is shared by left and right and one Y by top and bottom (HF LayoutLM, docs/models.md §0.1).
    """

    def __init__(self, kind: str, dim: int, table_size: int, ffn_dim: int, with_size: bool):
        super().__init__()
        self.x = PositionEncoder(kind, dim, table_size, ffn_dim)
        self.y = PositionEncoder(kind, dim, table_size, ffn_dim)
        self.with_size = with_size
        if with_size:
            self.w = PositionEncoder(kind, dim, table_size, ffn_dim)
            self.h = PositionEncoder(kind, dim, table_size, ffn_dim)

    def forward(self, bbox: torch.Tensor) -> torch.Tensor:  # (B, S, 4) int -> (B, S, dim)
        x0, y0, x1, y1 = bbox.unbind(-1)  # each (B, S)
        out = self.x(x0) + self.y(y0) + self.x(x1) + self.y(y1)  # (B, S, dim)
        if self.with_size:
            out = out + self.w((x1 - x0).clamp(min=0)) + self.h((y1 - y0).clamp(min=0))
        return out
