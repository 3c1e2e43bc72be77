"""Self-attention kernels of the family: softmax (SDPA, optional additive layout bias and Shaw term),
cosFormer (linear, re-weighted), local softmax blocks plus a global cosFormer term, and Linformer
(compressed keys/values). Parameter names follow HF BERT
(``query``/``key``/``value``), so MiniLM's weights load into every kernel."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from docextract.modeling.cosformer import cosformer_attention, select_by_magnitude
from docextract.modeling.polar import PolarIndices, PolarTables, shaw_bias


@dataclass(frozen=True)
class AttentionInputs:
    """What every layer needs, computed once per forward by the encoder."""

    attention_mask: torch.Tensor  # (B, S) 1 = real token
    additive_mask: torch.Tensor | None  # (B, 1|H, 1|S, S) float: padding (+ layout bias) for softmax
    polar_tables: PolarTables | None = None  # DocPolarBERT Shaw tables, shared by layers
    polar_indices: PolarIndices | None = None
    cos_weights: tuple[torch.Tensor, ...] = ()  # cosFormer re-weighting features, each (B, S, F)


class IdentityInitLinear(nn.Linear):
    """A square projection that starts as the identity, so a new module does not scramble pretrained paths [A]."""


def split_heads(x: torch.Tensor, heads: int) -> torch.Tensor:
    batch, size, _ = x.shape
    return x.view(batch, size, heads, -1).transpose(1, 2)  # (B, H, S, d)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    batch, heads, size, dim = x.shape
    return x.transpose(1, 2).reshape(batch, size, heads * dim)  # (B, S, D)


class QKVProjections(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.query = nn.Linear(config.hidden_size, config.hidden_size)
        self.key = nn.Linear(config.hidden_size, config.hidden_size)
        self.value = nn.Linear(config.hidden_size, config.hidden_size)

    def project(self, hidden: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return tuple(split_heads(layer(hidden), self.heads) for layer in (self.query, self.key, self.value))


class SoftmaxSelfAttention(QKVProjections):
    """``softmax(QK^T/sqrt(d) + bias + mask) V`` through PyTorch SDPA with a float mask.

    The mask carries padding plus any layer-independent layout bias (LAGaBi, squircle, cross); the
    DocPolarBERT Shaw term depends on this layer's queries, so it is added here (docs/models.md §0.3).
    """

    def __init__(self, config):
        super().__init__(config)
        self.dropout = config.attention_probs_dropout_prob

    def forward(self, hidden: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
        query, key, value = self.project(hidden)  # each (B, H, S, d)
        mask = inputs.additive_mask
        if inputs.polar_tables is not None:
            scaled_query = query * self.head_dim**-0.5
            # the bias with the padding mask folded in: what ``mask + shaw_bias(...)`` gives, one pass less
            mask = shaw_bias(scaled_query, inputs.polar_tables, inputs.polar_indices,
                             mask_value=torch.finfo(mask.dtype).min, mask_dtype=mask.dtype)  # (B, H, S, S)
        context = F.scaled_dot_product_attention(
            query, key, value, attn_mask=mask, dropout_p=self.dropout if self.training else 0.0
        )  # (B, H, S, d)
        return merge_heads(context)


def cosformer_context(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
    """cosFormer over the whole sequence: ReLU features, pad keys zeroed, each re-weighting's linear attention
    (``cross_select``: the larger-magnitude of its two). (B, H, S, d) each -> (B, H, S, d)."""
    key_mask = inputs.attention_mask.to(query.dtype)[:, None, :, None]  # (B, 1, S, 1)
    phi_q, phi_k = F.relu(query), F.relu(key) * key_mask
    outputs = [cosformer_attention(phi_q, phi_k, value, weights) for weights in inputs.cos_weights]
    return outputs[0] if len(outputs) == 1 else select_by_magnitude(*outputs)


class CosformerSelfAttention(QKVProjections):
    """LayoutCosformer attention (docs/models.md §4.4): ReLU features, pad keys zeroed, re-weighted linear attention,
    then the extra ``w_o`` projection of the official code (before BERT's own output projection)."""

    def __init__(self, config):
        super().__init__(config)
        self.w_o = IdentityInitLinear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, hidden: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
        context = cosformer_context(*self.project(hidden), inputs)  # (B, H, S, d)
        return self.dropout(self.w_o(merge_heads(context)))


class LinformerSelfAttention(QKVProjections):
    """LayoutLinformer attention (docs/models.md §4.3): keys and values compressed along the sequence by learned
    ``E, F`` (max_len x k, shared by heads), padded keys zeroed, then softmax over the k compressed keys."""

    def __init__(self, config):
        super().__init__(config)
        self.max_length = config.max_position_embeddings
        self.proj_k = nn.Parameter(torch.empty(config.max_position_embeddings, config.linformer_k))
        self.proj_v = nn.Parameter(torch.empty(config.max_position_embeddings, config.linformer_k))
        self.dropout = config.attention_probs_dropout_prob

    def forward(self, hidden: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
        query, key, value = self.project(hidden)  # each (B, H, S, d)
        size = hidden.shape[1]
        key_mask = inputs.attention_mask.to(query.dtype)[:, None, :, None]  # (B, 1, S, 1)
        key_c = torch.einsum("sk,bhsd->bhkd", self.proj_k[:size], key * key_mask)  # (B, H, k, d)
        value_c = torch.einsum("sk,bhsd->bhkd", self.proj_v[:size], value * key_mask)  # (B, H, k, d)
        context = F.scaled_dot_product_attention(query, key_c, value_c, dropout_p=self.dropout if self.training else 0.0)
        return merge_heads(context)  # (B, S, D)


LOCAL_BLOCKS_PER_CALL = 4  # blocks of block_local_attention computed together (12 heads: 50 MB of scores in float32)


def block_local_attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, attention_mask: torch.Tensor,
                          window: int) -> torch.Tensor:
    """Softmax attention inside consecutive blocks of ``window`` tokens (the last one padded): O(S * window).

    query, key, value (B, H, S, d); attention_mask (B, S) 1 = real token. -> (B, H, S, d)."""
    batch, heads, size, dim = query.shape
    pad = (-size) % window
    if pad:
        query, key, value = (F.pad(t, (0, 0, 0, pad)) for t in (query, key, value))
        attention_mask = F.pad(attention_mask, (0, pad))
    blocks = (size + pad) // window
    q, k, v = (t.reshape(batch, heads, blocks, window, dim) for t in (query, key, value))  # (B, H, N, W, d)
    keep = attention_mask.bool().reshape(batch, 1, blocks, 1, window)  # (B, 1, N, 1, W)
    mask = torch.zeros(keep.shape, dtype=query.dtype, device=query.device).masked_fill(~keep, torch.finfo(query.dtype).min)
    # A few blocks per call: SDPA with a mask holds every block's W x W scores at once (a 22-page contract's 27
    # blocks: 340 MB a layer in float32, past a batch worker's memory cap); blocks are independent, so the
    # result is the same
    context = torch.cat([F.scaled_dot_product_attention(q[:, :, n:n + LOCAL_BLOCKS_PER_CALL], k[:, :, n:n + LOCAL_BLOCKS_PER_CALL],
                                                        v[:, :, n:n + LOCAL_BLOCKS_PER_CALL],
                                                        attn_mask=mask[:, :, n:n + LOCAL_BLOCKS_PER_CALL])
                         for n in range(0, blocks, LOCAL_BLOCKS_PER_CALL)], dim=2)  # (B, H, N, W, d)
    return context.reshape(batch, heads, blocks * window, dim)[:, :, :size]


LOCAL_WINDOW = 512  # MiniLM's window: with the tiled 1D table, every block sees MiniLM's positions 0..511
GLOBAL_GATE_GAIN = 20.0  # the gate's effective step: Adam moves a parameter by about the rate per step, so at a
                         # finetuning rate (1e-4) an un-scaled gate would stay below 0.05 for a whole short run


class LocalCosformerSelfAttention(QKVProjections):
    """Softmax inside blocks of ``local_window`` tokens plus a gated global cosFormer term over the whole sequence.

    The gate (one per head) starts at 0, so the model starts as exactly MiniLM reading 512-token blocks (what the
    windowed models read, minus the [CLS]/[SEP] of each window); training opens the global term, which carries
    context across blocks in linear time. The cosFormer path reuses the block's query/key/value projections."""

    def __init__(self, config):
        super().__init__(config)
        self.window = int(getattr(config, "local_window", LOCAL_WINDOW) or LOCAL_WINDOW)
        self.global_gate = nn.Parameter(torch.zeros(config.num_attention_heads))

    def forward(self, hidden: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
        query, key, value = self.project(hidden)  # each (B, H, S, d)
        local = block_local_attention(query, key, value, inputs.attention_mask, self.window)
        global_ = cosformer_context(query, key, value, inputs)  # (B, H, S, d)
        gate = (GLOBAL_GATE_GAIN * self.global_gate).to(local.dtype).view(1, -1, 1, 1)
        return merge_heads(local + gate * global_)


ATTENTION_CLASSES = {"softmax": SoftmaxSelfAttention, "cosformer": CosformerSelfAttention, "linformer": LinformerSelfAttention,
                     "local_cosformer": LocalCosformerSelfAttention}
