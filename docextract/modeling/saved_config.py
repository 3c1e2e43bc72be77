"""A saved model's config.json as plain attributes, and the rules of the layout knobs, without transformers.

`docextract run` reads a model folder's config.json here (:class:`SavedConfig`) instead of through
transformers' ``PretrainedConfig``, whose import alone costs about a second. The allowed values of every
switch and the derived sizes live here once; :class:`docextract.modeling.config.LayoutConfig` (what training
builds and saves) checks its values with the same :func:`check_layout_values`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

POSITION_KINDS = ("learned", "sinusoidal", "lspe", "lspe_sc", "none")
LAYOUT_BIASES = ("none", "polar", "gaussian", "squircle", "cross")
ATTENTION_KINDS = ("softmax", "cosformer", "linformer", "local_cosformer")
COSFORMER_REWEIGHTS = ("cos1d", "squircle", "cross_select", "cross_sum", "none")
POLAR_DISTANCE_SCHEMES = ("quantile", "t5")
POLAR_REL1D = ("off", "frozen", "trainable")
LAGABI_CORNERS = ("bottom_left", "top_left")
LAGABI_THETAS = ("atan2_dx_dy", "atan_dy_dx")

ALLOWED_VALUES = {
    "position_1d": POSITION_KINDS,
    "position_2d": POSITION_KINDS,
    "layout_bias": LAYOUT_BIASES,
    "attention": ATTENTION_KINDS,
    "cosformer_reweight": COSFORMER_REWEIGHTS,
    "polar_distance": POLAR_DISTANCE_SCHEMES,
    "polar_rel1d": POLAR_REL1D,
    "lagabi_corner": LAGABI_CORNERS,
    "lagabi_theta": LAGABI_THETAS,
    "position_extension": ("tile",),
}

# The keys the layout modules read to build a token-classification model. LayoutConfig writes every one of
# them into config.json (they are not PretrainedConfig's own); a folder that lacks one was saved by another
# version and is loaded through transformers instead, which fills in LayoutConfig's defaults.
ARCHITECTURE_KEYS = (
    "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "hidden_act",
    "hidden_dropout_prob", "attention_probs_dropout_prob", "max_position_embeddings", "type_vocab_size",
    "layer_norm_eps", "pad_token_id", "position_1d", "position_2d", "position_2d_size", "max_2d_position_embeddings",
    "lspe_ffn_dim", "layout_bias", "polar_distance", "polar_distance_bins", "polar_t5_max_distance", "polar_rel1d",
    "polar_rel1d_buckets", "polar_rel1d_max_distance", "lagabi_alpha", "lagabi_corner", "lagabi_theta", "attention",
    "cosformer_reweight", "linformer_k", "page_embeddings", "max_pages", "classifier_dropout", "id2label",
)

SPECIAL_TOKENS = 2  # [CLS] and [SEP] around every window


class IncompleteConfig(ValueError):
    """config.json lacks keys the runtime needs (saved by an older version): load it through transformers."""


def check_layout_values(values: Mapping[str, Any]) -> None:
    """ValueError for a switch outside its allowed values or a combination the family does not have."""
    for name, allowed in ALLOWED_VALUES.items():
        if name in values and values[name] not in allowed:
            raise ValueError(f"{name}={values[name]!r} is not one of {allowed}")
    hidden, heads = values.get("hidden_size"), values.get("num_attention_heads")
    if hidden is not None and heads and hidden % heads:
        raise ValueError(f"hidden_size {hidden} is not a multiple of num_attention_heads {heads}")
    attention, bias = values.get("attention", "softmax"), values.get("layout_bias", "none")
    if attention != "softmax" and bias != "none":
        # A pairwise (S x S) bias cannot act on Linformer's compressed keys (long-range paper §3.3),
        # and cosFormer takes its 2D bias through cosformer_reweight instead.
        raise ValueError(f"layout_bias={bias!r} needs attention='softmax' (got {attention!r})")


def uses_layout(config) -> bool:
    """Whether boxes are read at all (absolute 2D, relative bias, or a 2D cosFormer re-weighting)."""
    return (
        config.position_2d != "none"
        or config.layout_bias != "none"
        or (config.attention in ("cosformer", "local_cosformer")
            and config.cosformer_reweight in ("squircle", "cross_select", "cross_sum"))
    )


def position_table_size(config) -> int | None:
    """Tokens a model can take in one sequence, or None when nothing in it has a fixed length.

    A learned 1D table and Linformer's E/F projections have ``max_position_embeddings`` rows; sinusoidal
    and LSPE positions (and no 1D positions) extrapolate to any length.
    """
    if getattr(config, "position_1d", "learned") == "learned" or getattr(config, "attention", "softmax") == "linformer":
        return int(config.max_position_embeddings)
    return None


def max_window_tokens(config) -> int | None:
    """The most word tokens one window may hold: the position table minus [CLS]/[SEP] (None: no limit)."""
    size = position_table_size(config)
    return None if size is None else size - SPECIAL_TOKENS


class SavedConfig:
    """Every key of a model's config.json as an attribute (``docextract_*`` keys included, so ``getattr(config,
    key, None)`` reads them as it does on a ``LayoutConfig``); ``id2label`` with int keys as transformers gives it."""

    def __init__(self, values: Mapping[str, Any]):
        missing = [key for key in ARCHITECTURE_KEYS if key not in values]
        if missing:
            raise IncompleteConfig(f"config.json lacks {', '.join(missing)}")
        check_layout_values(values)
        self.__dict__.update(values)
        self.id2label = {int(k): str(v) for k, v in values["id2label"].items()}
        self.label2id = {str(k): int(v) for k, v in values.get("label2id", {}).items()} or {
            v: k for k, v in self.id2label.items()}

    @classmethod
    def from_folder(cls, folder: Path) -> SavedConfig:
        return cls(json.loads((Path(folder) / "config.json").read_text(encoding="utf-8")))

    @property
    def num_labels(self) -> int:
        return len(self.id2label)

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads

    @property
    def uses_layout(self) -> bool:
        return uses_layout(self)
