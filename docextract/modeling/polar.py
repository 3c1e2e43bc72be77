"""DocPolarBERT relative polar attention (Uthayasooriyar et al. 2025), docs/models.md §2 and §0.2-0.3.

The key of each (query i, key j) pair gets two learned vectors added, one for the distance bucket
and one for the angle bucket of key j seen from query i (Shaw et al.'s key term, paper §3.1):
``s_ij = q_i.(k_j + E_dist[bd_ij] + E_ang[ba_ij] (+ E_1d[b1_ij])) / sqrt(d)``. The tables are shared by
all heads and layers. Buckets are computed once per forward; the term itself as one matmul of the
queries with the small table and a gather (:func:`shaw_bias`), never as a (B, S, S, d) tensor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from docextract.modeling.geometry import box_centres, pairwise_offsets, valid_boxes

# Angle buckets (official code; the paper only says "8 buckets"), docs/models.md §2a.
ANGLE_SELF = 0
ANGLE_RIGHT = 1  # same row, key to the right
ANGLE_ABOVE = 2  # same column, key above
ANGLE_LEFT = 3
ANGLE_BELOW = 4
ANGLE_FIRST_SECTOR = 5  # 5..12: eight 45-degree sectors counter-clockwise from east
ANGLE_SECTOR_DEGREES = 45.0
ANGLE_PAD = 13  # invalid pair: a fixed zero vector
ANGLE_BUCKETS = 14


def t5_relative_bucket(
    relative: torch.Tensor, num_buckets: int, max_distance: int, bidirectional: bool = True
) -> torch.Tensor:
    """T5 / LayoutLMv3 log buckets of an integer offset (docs/models.md §0.2), int64, same shape as ``relative``.

    ``bidirectional=False`` is the one-sided variant for non-negative distances (docs/models.md §0.2 caveat):
    the whole range of buckets is spent on ``relative >= 0``.
    """
    if bidirectional:
        half = num_buckets // 2
        offset = (relative > 0).long() * half  # a key after the query uses the upper half
        n = relative.abs()
    else:
        half = num_buckets
        offset = torch.zeros_like(relative, dtype=torch.long)
        n = relative.clamp(min=0)
    exact = half // 2
    n_float = n.to(torch.float32).clamp(min=exact)  # the log branch only applies for n >= exact
    log_bucket = exact + (torch.log(n_float / exact) / math.log(max_distance / exact) * (half - exact)).long()
    log_bucket = log_bucket.clamp(max=half - 1)
    return offset + torch.where(n < exact, n.long(), log_bucket)


def polar_angle_buckets(bbox: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """DocPolarBERT angle bucket of every pair (docs/models.md §2a, official code's 14 classes): (B,S,4),(B,S) -> (B,S,S) uint8.

    ``phi = (360 - atan2(dy, dx)) mod 360`` in degrees with y up (0 = key to the right, 90 = above);
    overlapping box projections give the same-row/same-column classes 1-4 (later rules win), the
    rest fall in eight 45-degree sectors 5..12; the diagonal is 0 and invalid pairs 13.
    """
    cx, cy = box_centres(bbox)  # (B, S)
    dx, dy = pairwise_offsets(cx), pairwise_offsets(cy)  # (B, S, S)
    phi = torch.remainder(360.0 - torch.rad2deg(torch.atan2(dy, dx)), 360.0)  # (B, S, S)
    buckets = (ANGLE_FIRST_SECTOR + torch.floor(phi / ANGLE_SECTOR_DEGREES)).clamp(max=ANGLE_PAD - 1).long()
    x0, y0, x1, y1 = bbox.unbind(-1)  # (B, S)
    same_column = (x0.unsqueeze(2) <= x1.unsqueeze(1)) & (x0.unsqueeze(1) <= x1.unsqueeze(2))  # (B, S, S)
    same_row = (y0.unsqueeze(2) <= y1.unsqueeze(1)) & (y0.unsqueeze(1) <= y1.unsqueeze(2))  # (B, S, S)
    # torch.where chains, not boolean-index assignment: the latter is ~10x slower on (S, S) masks
    buckets = torch.where(same_row & ((phi < 90) | (phi > 270)), ANGLE_RIGHT, buckets)
    buckets = torch.where(same_row & (phi > 90) & (phi < 270), ANGLE_LEFT, buckets)
    buckets = torch.where(same_column & (phi < 180), ANGLE_ABOVE, buckets)
    buckets = torch.where(same_column & (phi > 180), ANGLE_BELOW, buckets)
    size = bbox.shape[1]
    diagonal = torch.eye(size, dtype=torch.bool, device=bbox.device)  # (S, S)
    buckets = torch.where(diagonal, ANGLE_SELF, buckets)
    pair_valid = valid.unsqueeze(2) & valid.unsqueeze(1)  # (B, S, S)
    buckets = torch.where(pair_valid, buckets, ANGLE_PAD)
    return buckets.to(torch.uint8)


def centre_distances(bbox: torch.Tensor) -> torch.Tensor:
    """Euclidean distance between box centres on the 0..1000 grid: (B, S, 4) -> (B, S, S) fp32."""
    cx, cy = box_centres(bbox)
    return torch.hypot(pairwise_offsets(cx), pairwise_offsets(cy))


def sorted_quantiles(sorted_values: torch.Tensor, fractions: torch.Tensor) -> torch.Tensor:
    """Quantiles with linear interpolation (as ``torch.quantile``) of an already sorted 1D tensor.

    ``torch.quantile`` refuses more than 2**24 elements (S > 4096); sorting once has no such limit.
    """
    position = fractions * (sorted_values.numel() - 1)  # (Q,)
    lower = position.floor().long()
    upper = position.ceil().long()
    weight = position - lower
    return sorted_values[lower] * (1 - weight) + sorted_values[upper] * weight


def symmetric_quantiles(distances: torch.Tensor, valid: torch.Tensor, fractions: torch.Tensor) -> torch.Tensor | None:
    """The quantiles of ``distances[valid][:, valid]`` (every ordered pair, the diagonal's zeros included) from a
    sort of the upper triangle only: the matrix is symmetric with a zero diagonal, so its sorted values are the
    ``V`` zeros of the diagonal, then each upper-triangle value twice. The values at the quantile positions are
    the very same floats, so the result equals :func:`sorted_quantiles` of the whole sorted set, for half the
    sort. (S, S) fp32, (S,) bool, (Q,) -> (Q,), or None without a valid token."""
    index = valid.nonzero().squeeze(1)  # (V,)
    count = index.numel()
    if count == 0:
        return None
    sub = distances.index_select(0, index).index_select(1, index)  # (V, V)
    upper = sub.masked_select(torch.ones(count, count, dtype=torch.bool, device=sub.device).triu(1)).sort().values
    position = fractions * (count * count - 1)  # (Q,)
    lower, higher = position.floor().long(), position.ceil().long()
    weight = position - lower

    def value_at(k: torch.Tensor) -> torch.Tensor:  # the k-th (0-based) of the whole sorted set
        if upper.numel() == 0:  # one valid token: its diagonal zero only
            return torch.zeros(k.shape, dtype=sub.dtype, device=sub.device)
        # k <= V*V - 1, so (k - V) // 2 <= V*(V-1)/2 - 1: always inside the upper triangle
        return torch.where(k < count, torch.zeros((), dtype=sub.dtype), upper[(k - count).clamp(min=0) // 2])

    return value_at(lower) * (1 - weight) + value_at(higher) * weight


def distance_quantile_buckets(distances: torch.Tensor, pair_valid: torch.Tensor, bins: int,
                              valid: torch.Tensor | None = None) -> torch.Tensor:
    """DocPolarBERT §4.3: distance buckets from the quantiles of **each document's own** valid pairs.

    bucket 0 is ``rho <= q0`` (the minimum), k is ``q_{k-1} < rho <= q_k``; invalid pairs get ``bins + 1``
    (a zero vector). The official code pools the whole batch, so a document's buckets depend on its
    batch mates (docs/models.md §2e, point 2); here they never do. (B,S,S) fp32, (B,S,S) bool -> (B,S,S) uint8.
    ``valid`` (B,S), when ``pair_valid`` is its outer product (as the model's is), takes the quantiles from half the
    sort (:func:`symmetric_quantiles`; the same buckets).
    """
    fractions = torch.linspace(0, 1, bins + 1, device=distances.device)  # (bins+1,)
    buckets = torch.full(distances.shape, bins + 1, dtype=torch.uint8, device=distances.device)
    for doc in range(distances.shape[0]):  # per document: its quantiles are its own
        if valid is not None:
            bounds = symmetric_quantiles(distances[doc], valid[doc], fractions)
            if bounds is None:
                continue
        else:
            values = distances[doc][pair_valid[doc]]  # (n_valid,)
            if values.numel() == 0:
                continue
            bounds = sorted_quantiles(values.sort().values, fractions)  # (bins+1,)
        doc_buckets = torch.searchsorted(bounds, distances[doc].contiguous(), side="left").clamp(max=bins)  # (S, S)
        buckets[doc] = torch.where(pair_valid[doc], doc_buckets, bins + 1).to(torch.uint8)
    return buckets


def distance_t5_buckets(distances: torch.Tensor, pair_valid: torch.Tensor, bins: int, max_distance: int) -> torch.Tensor:
    """The "LayoutLMv2/v3 bucketing" ablation (DocPolarBERT Table 8): one-sided T5 log buckets of the rounded
    distance (docs/models.md §0.2 caveat); invalid pairs get ``bins + 1``. (B,S,S) -> (B,S,S) uint8."""
    buckets = t5_relative_bucket(distances.round().long(), bins, max_distance, bidirectional=False)
    return torch.where(pair_valid, buckets, bins + 1).to(torch.uint8)


@dataclass(frozen=True)
class PolarIndices:
    """Bucket indices of every pair, int64, broadcast over heads: ``pair`` (B, 1, S, S) is
    ``distance_bucket * ANGLE_BUCKETS + angle_bucket``; ``rel1d`` (1, 1, S, S) the 1D T5 bucket, or None."""

    pair: torch.Tensor
    rel1d: torch.Tensor | None = None
    masked_pair: torch.Tensor | None = None  # ``pair`` with every padded key at index Kd*Ka (see shaw_bias)


@dataclass(frozen=True)
class PolarTables:
    """The learned vectors with their zero padding rows: distance (bins+2, d), angle (14, d), rel1d (N, d) or None."""

    distance: torch.Tensor
    angle: torch.Tensor
    rel1d: torch.Tensor | None = None


def shaw_bias(scaled_query: torch.Tensor, tables: PolarTables, indices: PolarIndices,
              mask_value: float | None = None, mask_dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Shaw key term ``bias[b,h,i,j] = q_i . (E_dist[bd_ij] + E_ang[ba_ij] (+ E_1d[b1_ij]))`` (docs/models.md §0.3).

    Small matmuls of the queries with each table, the distance and angle scores combined into one
    (B,H,S,Kd*Ka) table so that a single gather serves both; O(B*H*S*K*d + B*H*S^2), never (B,S,S,d).
    ``scaled_query`` (B,H,S,d) is already divided by sqrt(d). Returns (B,H,S,S); with ``mask_value``, every padded
    key's entry is that value (the softmax's padding mask and the bias together), in ``mask_dtype`` or wider.
    """
    batch, heads, size, _ = scaled_query.shape
    per_distance = scaled_query @ tables.distance.t()  # (B, H, S, Kd)
    per_angle = scaled_query @ tables.angle.t()  # (B, H, S, Ka)
    per_pair = (per_distance.unsqueeze(-1) + per_angle.unsqueeze(-2)).flatten(-2)  # (B, H, S, Kd*Ka)
    pair = indices.pair
    fold = mask_value is not None and per_pair.dtype == mask_dtype
    if fold:
        # padded keys gather ``mask_value`` from one more column: the padding mask comes with the bias in one pass
        # instead of one more (B, H, S, S) addition. A padded pair's bias is a zero vector's product, so
        # ``mask + bias`` was ``mask`` exactly; the result is the same.
        per_pair = torch.cat((per_pair, per_pair.new_full((batch, heads, size, 1), mask_value)), -1)
        pair = indices.masked_pair
    bias = per_pair.gather(-1, pair.expand(batch, heads, size, size))  # (B, H, S, S)
    if indices.rel1d is not None:
        per_offset = scaled_query @ tables.rel1d.t()  # (B, H, S, N)
        bias = bias + per_offset.gather(-1, indices.rel1d.expand(batch, heads, size, size))
    if mask_value is not None and not fold:  # a half-precision bias (autocast): the fp32 mask added as before
        padded = indices.masked_pair[:, :, :1, :] == per_pair.shape[-1]  # (B, 1, 1, S)
        bias = torch.zeros(padded.shape, dtype=mask_dtype).masked_fill(padded, mask_value) + bias
    return bias


def shaw_bias_reference(scaled_query: torch.Tensor, tables: PolarTables, indices: PolarIndices) -> torch.Tensor:
    """The slow twin of :func:`shaw_bias`: materialises ``R_ij`` (B,S,S,d) and contracts it, like the official code."""
    pair = indices.pair[:, 0]  # (B, S, S)
    relative = tables.distance[pair // ANGLE_BUCKETS] + tables.angle[pair % ANGLE_BUCKETS]  # (B, S, S, d)
    if indices.rel1d is not None:
        relative = relative + tables.rel1d[indices.rel1d[:, 0]]
    return torch.einsum("bhid,bijd->bhij", scaled_query, relative)


class PolarShawTables(nn.Module):
    """DocPolarBERT's learned tables (shared by heads and layers) and the per-forward bucket computation."""

    def __init__(self, head_dim: int, distance_scheme: str, distance_bins: int, t5_max_distance: int,
                 rel1d: str, rel1d_buckets: int, rel1d_max_distance: int):
        super().__init__()
        self.distance_scheme = distance_scheme
        self.distance_bins = distance_bins
        self.t5_max_distance = t5_max_distance
        self.rel1d = rel1d
        self.rel1d_buckets = rel1d_buckets
        self.rel1d_max_distance = rel1d_max_distance
        # learned rows only; the padding rows (distance bins+1, angle 13) are zeros added in tables()
        self.distance_table = nn.Parameter(torch.empty(distance_bins + 1, head_dim))
        self.angle_table = nn.Parameter(torch.empty(ANGLE_BUCKETS - 1, head_dim))
        if rel1d != "off":
            # "frozen" (the official code's table, never trained) asks for no gradient, so that neither the optimizer
            # nor data-parallel training waits for one
            self.rel1d_table = nn.Parameter(torch.empty(rel1d_buckets, head_dim), requires_grad=rel1d != "frozen")

    def tables(self) -> PolarTables:
        """Padding rows are constants appended here, so they stay zero and never train."""
        zero = self.distance_table.new_zeros(1, self.distance_table.shape[1])
        rel1d = None
        if self.rel1d != "off":
            # "frozen" reproduces the official code, which gathers this table under no_grad (docs/models.md §2e, point 3)
            rel1d = self.rel1d_table.detach() if self.rel1d == "frozen" else self.rel1d_table
        return PolarTables(torch.cat((self.distance_table, zero)), torch.cat((self.angle_table, zero)), rel1d)

    @torch.no_grad()
    def indices(self, bbox: torch.Tensor, attention_mask: torch.Tensor) -> PolarIndices:
        valid = valid_boxes(bbox, attention_mask)  # (B, S)
        pair_valid = valid.unsqueeze(2) & valid.unsqueeze(1)  # (B, S, S)
        distances = centre_distances(bbox)  # (B, S, S)
        if self.distance_scheme == "quantile":
            distance = distance_quantile_buckets(distances, pair_valid, self.distance_bins, valid)
        else:
            distance = distance_t5_buckets(distances, pair_valid, self.distance_bins, self.t5_max_distance)
        angle = polar_angle_buckets(bbox, valid)
        pair = (distance.long() * ANGLE_BUCKETS + angle.long()).unsqueeze(1)  # (B, 1, S, S)
        # padded keys point one past the last (distance, angle) pair: the column shaw_bias fills with the mask value
        padded_key = ~attention_mask.bool()[:, None, None, :]  # (B, 1, 1, S)
        masked = torch.where(padded_key, (self.distance_bins + 2) * ANGLE_BUCKETS, pair)
        rel1d = None
        if self.rel1d != "off":
            positions = torch.arange(bbox.shape[1], device=bbox.device)  # raw sequence indices (docs/models.md §2a)
            relative = positions.unsqueeze(0) - positions.unsqueeze(1)  # (S, S): j - i
            rel1d = t5_relative_bucket(relative, self.rel1d_buckets, self.rel1d_max_distance)[None, None]  # (1,1,S,S)
        return PolarIndices(pair, rel1d, masked)
