"""The layout encoder's layers as plain torch modules: embeddings, attention, feed-forward, and the forward pass.

Module and parameter names follow HF ``BertModel`` (``embeddings.word_embeddings``,
``encoder.layer.N.attention.self.query``, ...), so MiniLM's checkpoint loads by name and, with every
layout part switched off, the encoder computes exactly what MiniLM computes. Nothing here imports
``transformers``: the training classes (:mod:`docextract.modeling.encoder`, ``heads``) wrap these parts in
``PreTrainedModel``, and the inference runtime (:mod:`docextract.modeling.runtime`) in a plain ``nn.Module``,
so `docextract run` computes exactly what `finetune` trained without loading transformers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from torch import nn

from docextract.errors import InputError
from docextract.modeling.attention import ATTENTION_CLASSES, AttentionInputs
from docextract.modeling.cosformer import reweight_features
from docextract.modeling.gaussian import GaussianPolarBias
from docextract.modeling.geometry import GRID_SIZE
from docextract.modeling.kernels2d import cross_kernel, log_kernel_bias, squircle_kernel
from docextract.modeling.polar import PolarShawTables
from docextract.modeling.positions import Layout2DEmbedding, PositionEncoder

if TYPE_CHECKING:  # the annotation only: the config class needs transformers, which `run` never imports
    from docextract.modeling.config import LayoutConfig


def activation(name: str) -> nn.Module:
    """The feed-forward activation by its HF config name. ``gelu`` (MiniLM's, and every shipped model's) is
    exact erf GELU, what HF's ``ACT2FN["gelu"]`` computes; other names come from transformers itself."""
    if name == "gelu":
        return nn.GELU()
    if name == "relu":
        return nn.ReLU()
    from transformers.activations import ACT2FN  # an exotic activation: only a config that asks for one pays

    return ACT2FN[name]


class SequenceTooLongError(InputError):
    """A sequence is longer than a learned position table (or Linformer projection) of the model."""

    default_code = "RESOURCE_LIMIT"


class LayoutEmbeddings(nn.Module):
    """``LN(word + pos_1d + token_type + layout_2d + page)`` (LayoutLM §2.2, LSPE eq. 4, long-range §3.1)."""

    def __init__(self, config: LayoutConfig):
        super().__init__()
        dim = config.hidden_size
        self.word_embeddings = nn.Embedding(config.vocab_size, dim, padding_idx=config.pad_token_id)
        self.position_1d = config.position_1d
        # A long-range model made from a windowed one (presets.long_range_from) reads each local block with the
        # positions the windowed model was trained on: position p as p mod the block's length.
        self.position_1d_period = int(getattr(config, "position_1d_period", 0) or 0)
        if config.position_1d == "learned":
            self.position_embeddings = nn.Embedding(config.max_position_embeddings, dim)  # MiniLM's name
        elif config.position_1d != "none":
            self.position_encoder = PositionEncoder(config.position_1d, dim, 0, config.lspe_ffn_dim)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, dim)
        if config.position_2d != "none":
            self.layout_2d = Layout2DEmbedding(
                config.position_2d, dim, config.max_2d_position_embeddings, config.lspe_ffn_dim, config.position_2d_size
            )
        if config.page_embeddings:
            self.page_embeddings = nn.Embedding(config.max_pages, dim)
        self.LayerNorm = nn.LayerNorm(dim, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def position_1d_embedding(self, position_ids: torch.Tensor) -> torch.Tensor:  # (B, S) -> (B, S, D)
        if self.position_1d_period:
            position_ids = position_ids % self.position_1d_period
        if self.position_1d == "learned":
            size = self.position_embeddings.num_embeddings
            if int(position_ids.max()) >= size:
                raise SequenceTooLongError(
                    f"position {int(position_ids.max())} is beyond this model's {size} learned positions; "
                    "split the document into shorter windows"
                )
            return self.position_embeddings(position_ids)
        return self.position_encoder(position_ids).to(self.word_embeddings.weight.dtype)

    def forward(self, input_ids, bbox, position_ids, token_type_ids, page_ids, position_mask) -> torch.Tensor:
        embeddings = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)  # (B, S, D)
        if self.position_1d != "none":
            positions = self.position_1d_embedding(position_ids)  # (B, S, D)
            if position_mask is not None:  # 1-LOP: hide the 1D position of the masked tokens (zero vector)
                positions = positions * (~position_mask.bool()).unsqueeze(-1).to(positions.dtype)
            embeddings = embeddings + positions
        if hasattr(self, "layout_2d"):
            embeddings = embeddings + self.layout_2d(bbox).to(embeddings.dtype)
        if hasattr(self, "page_embeddings"):
            if int(page_ids.max()) >= self.page_embeddings.num_embeddings:
                raise SequenceTooLongError(f"page index {int(page_ids.max())} is beyond this model's page table")
            embeddings = embeddings + self.page_embeddings(page_ids)
        return self.dropout(self.LayerNorm(embeddings))


class SelfOutput(nn.Module):
    """BERT's ``LN(dropout(dense(x)) + residual)``; used after attention (``attention.output``) and the FFN (``output``)."""

    def __init__(self, in_dim: int, config: LayoutConfig):
        super().__init__()
        self.dense = nn.Linear(in_dim, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, hidden: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.LayerNorm(self.dropout(self.dense(hidden)) + residual)


class Attention(nn.Module):
    def __init__(self, config: LayoutConfig):
        super().__init__()
        self.self = ATTENTION_CLASSES[config.attention](config)
        self.output = SelfOutput(config.hidden_size, config)

    def forward(self, hidden: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
        return self.output(self.self(hidden, inputs), hidden)


class Intermediate(nn.Module):
    def __init__(self, config: LayoutConfig):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.intermediate_size)
        self.act = activation(config.hidden_act)

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        return self.act(self.dense(hidden))


class Layer(nn.Module):
    def __init__(self, config: LayoutConfig):
        super().__init__()
        self.attention = Attention(config)
        self.intermediate = Intermediate(config)
        self.output = SelfOutput(config.intermediate_size, config)

    def forward(self, hidden: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
        attended = self.attention(hidden, inputs)  # (B, S, D)
        return self.output(self.intermediate(attended), attended)


class LayerStack(nn.Module):
    def __init__(self, config: LayoutConfig):
        super().__init__()
        self.layer = nn.ModuleList(Layer(config) for _ in range(config.num_hidden_layers))


class LayoutEncoderParts:
    """The encoder's modules and forward pass, shared by the HF ``LayoutEncoder`` and the inference runtime's
    plain module (mixed into an ``nn.Module`` that has ``self.config``)."""

    def build_parts(self, config) -> None:
        self.embeddings = LayoutEmbeddings(config)
        self.encoder = LayerStack(config)
        if config.layout_bias == "polar":
            self.polar = PolarShawTables(
                config.head_dim, config.polar_distance, config.polar_distance_bins, config.polar_t5_max_distance,
                config.polar_rel1d, config.polar_rel1d_buckets, config.polar_rel1d_max_distance,
            )
        elif config.layout_bias == "gaussian":
            self.gaussian = GaussianPolarBias(
                config.num_attention_heads, config.lagabi_alpha, config.lagabi_corner, config.lagabi_theta
            )

    def attention_inputs(self, bbox: torch.Tensor, attention_mask: torch.Tensor, dtype: torch.dtype) -> AttentionInputs:
        """Everything computed once per forward and shared by the layers (masks, biases, bucket indices)."""
        config = self.config
        if config.attention in ("cosformer", "local_cosformer"):
            return AttentionInputs(attention_mask, None, cos_weights=reweight_features(config.cosformer_reweight, bbox, attention_mask))
        if config.attention == "linformer":
            return AttentionInputs(attention_mask, None)
        additive = torch.zeros(attention_mask.shape, dtype=dtype, device=attention_mask.device)
        additive = additive.masked_fill(~attention_mask.bool(), torch.finfo(dtype).min)[:, None, None, :]  # (B,1,1,S)
        if config.layout_bias == "gaussian":
            additive = additive + self.gaussian(bbox).to(dtype)  # (B, H, S, S)
        elif config.layout_bias == "squircle":
            additive = additive + log_kernel_bias(squircle_kernel(bbox)).to(dtype)  # (B, 1, S, S)
        elif config.layout_bias == "cross":
            additive = additive + log_kernel_bias(cross_kernel(bbox)).to(dtype)
        if config.layout_bias == "polar":
            return AttentionInputs(attention_mask, additive, self.polar.tables(), self.polar.indices(bbox, attention_mask))
        return AttentionInputs(attention_mask, additive)

    def encode(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        bbox: torch.Tensor | None = None,
        page_ids: torch.Tensor | None = None,
        position_ids: torch.Tensor | None = None,
        token_type_ids: torch.Tensor | None = None,
        position_mask: torch.Tensor | None = None,
        layer_outputs: list[torch.Tensor] | None = None,
    ) -> torch.Tensor:
        """input_ids, attention_mask, page_ids, position_ids (B, S); bbox (B, S, 4) ints on the 0..1000 grid;
        position_mask (B, S) bool hides the 1D position of those tokens (1-LOP pre-training). -> (B, S, D).
        ``layer_outputs``, when given, receives every layer's output in order (distillation matches them)."""
        batch, size = input_ids.shape
        device = input_ids.device
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        if bbox is None:
            if self.config.uses_layout:
                raise ValueError(f"this model ({self.config.attention}, layout_bias={self.config.layout_bias}) needs bbox")
            bbox = torch.zeros(batch, size, 4, dtype=torch.long, device=device)
        elif int(bbox.min()) < 0 or int(bbox.max()) > GRID_SIZE:
            raise ValueError(f"bbox values must lie on the 0..{GRID_SIZE} grid, got {int(bbox.min())}..{int(bbox.max())}")
        if position_ids is None:
            position_ids = torch.arange(size, device=device).expand(batch, size)  # BERT: padding included
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        if page_ids is None:
            page_ids = torch.zeros_like(input_ids)
        if self.config.attention == "linformer" and size > self.config.max_position_embeddings:
            raise SequenceTooLongError(
                f"{size} tokens is beyond this Linformer's {self.config.max_position_embeddings}-token projections"
            )
        hidden = self.embeddings(input_ids, bbox, position_ids, token_type_ids, page_ids, position_mask)  # (B, S, D)
        inputs = self.attention_inputs(bbox, attention_mask, hidden.dtype)
        for layer in self.encoder.layer:
            hidden = self._run_layer(layer, hidden, inputs)
            if layer_outputs is not None:
                layer_outputs.append(hidden)
        return hidden

    def _run_layer(self, layer: nn.Module, hidden: torch.Tensor, inputs: AttentionInputs) -> torch.Tensor:
        """One layer; under gradient checkpointing (training only) its activations are recomputed in the backward
        pass instead of kept, so a 16k-token contract trains in the memory of about one layer's activations."""
        if getattr(self, "checkpoint_layers", False) and self.training and torch.is_grad_enabled():
            from torch.utils.checkpoint import checkpoint

            return checkpoint(layer, hidden, inputs, use_reentrant=False)
        return layer(hidden, inputs)
