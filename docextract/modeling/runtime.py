"""The inference runtime: a saved token-classification model as a plain torch module, without transformers.

`docextract run` loads a model folder here: config.json through :class:`SavedConfig`, the safetensors weights
straight into the same layer modules training uses (:mod:`docextract.modeling.layers`, identical parameter
names), so the logits equal those of ``LayoutForTokenClassification`` bit for bit (tested) while the
process never imports transformers (about a second of start-up). Compact shipped checkpoints (fp16 with int8
lookup tables, :mod:`docextract.modeling.compact`) are widened to fp32 exactly as ``load_compact`` does.

The modules are built with torch's initialisers switched off (as transformers' ``no_init_weights`` does) and
take the loaded tensors as they are (``assign=True``): no random initialisation of 22M parameters only to
overwrite them (80 ms of a cold start; the meta device would avoid it too, but its first use imports
``torch._dynamo``, which costs more than it saves).
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from docextract.errors import ModelRefusedError
from docextract.modeling.layers import LayoutEncoderParts
from docextract.modeling.saved_config import SavedConfig

INDEX_FILE = "model.safetensors.index.json"


@dataclass(frozen=True)
class TokenLogits:
    """What the model returns: ``logits`` (B, S, num_tags), as transformers' ``TokenClassifierOutput`` names it."""

    logits: torch.Tensor


class RuntimeEncoder(nn.Module, LayoutEncoderParts):
    """The layout encoder's modules under their training names (``embeddings``, ``encoder``, ``polar``...)."""

    def __init__(self, config: SavedConfig):
        super().__init__()
        self.config = config
        self.build_parts(config)


class RuntimeTokenClassifier(nn.Module):
    """``LayoutForTokenClassification`` at inference: encoder, then ``Linear(hidden -> num_labels)`` per token."""

    def __init__(self, config: SavedConfig):
        super().__init__()
        self.config = config
        self.num_labels = config.num_labels
        self.layout = RuntimeEncoder(config)
        dropout = config.classifier_dropout if config.classifier_dropout is not None else config.hidden_dropout_prob
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, attention_mask=None, bbox=None, page_ids=None, position_ids=None,
                token_type_ids=None, **unused) -> TokenLogits:
        hidden = self.layout.encode(input_ids, attention_mask, bbox, page_ids, position_ids, token_type_ids)
        return TokenLogits(self.classifier(self.dropout(hidden)))  # (B, S, L)


# torch.nn.init functions the layers' reset_parameters call (nn.Linear, nn.Embedding, nn.LayerNorm)
INIT_FUNCTIONS = ("uniform_", "normal_", "kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_",
                  "trunc_normal_", "zeros_", "ones_", "constant_")


@contextlib.contextmanager
def _initialisers_off():
    """Parameters keep torch.empty's memory while the model is built; every one is then replaced by a loaded tensor."""
    saved = {name: getattr(nn.init, name) for name in INIT_FUNCTIONS}
    for name in INIT_FUNCTIONS:
        setattr(nn.init, name, lambda tensor, *args, **kwargs: tensor)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(nn.init, name, function)


def read_weights(folder: Path) -> dict[str, torch.Tensor]:
    """Every tensor of the folder's safetensors (one file or an index of shards) in fp32; a compact checkpoint's
    int8 rows times their scales (:func:`docextract.modeling.compact.widen`)."""
    from safetensors.torch import load_file

    from docextract.modeling.compact import is_compact, widen

    folder = Path(folder)
    if (folder / "model.safetensors").is_file():
        files = [folder / "model.safetensors"]
    else:
        index = json.loads((folder / INDEX_FILE).read_text(encoding="utf-8"))
        files = [folder / name for name in sorted(set(index["weight_map"].values()))]
    state: dict[str, torch.Tensor] = {}
    for file in files:
        state.update(load_file(str(file)))
    if is_compact(folder):
        return widen(state)
    return {name: tensor.to(torch.float32) if tensor.is_floating_point() else tensor for name, tensor in state.items()}


def load_runtime_model(folder: Path) -> RuntimeTokenClassifier:
    """The model in ``folder`` (already passed ``check_loadable_folder``), in eval mode, fp32.

    :class:`~docextract.modeling.saved_config.IncompleteConfig` when config.json was saved by a version that did
    not write every layout key (the caller loads such a folder through transformers); ModelRefusedError when the
    weights do not fit the configuration.
    """
    config = SavedConfig.from_folder(folder)
    state = read_weights(folder)
    with _initialisers_off():
        model = RuntimeTokenClassifier(config)
    expected = set(model.state_dict())
    missing, unexpected = sorted(expected - set(state)), sorted(set(state) - expected)
    if missing or unexpected:
        raise ModelRefusedError(f"the weights do not fit the model's config.json: missing {missing[:5]}, "
                                f"unexpected {unexpected[:5]}", path=str(folder))
    try:
        model.load_state_dict(state, strict=True, assign=True)
    except RuntimeError as error:  # a tensor whose shape the config does not give
        raise ModelRefusedError(f"the weights do not fit the model's config.json: {error}", path=str(folder)) from error
    return model.eval()
