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
from docextract.modeling.model_folder import COMPUTE_KEY, read_setting
# onnx and onnx-int8 run the same graph in ONNX Runtime (docextract/modeling/onnx_runtime.py)
from docextract.modeling.onnx_runtime import ONNX_COMPUTES
from docextract.modeling.saved_config import SavedConfig

INDEX_FILE = "model.safetensors.index.json"
# COMPUTE_KEY: the arithmetic the model runs in at inference, chosen per model by an accuracy gate
# (benchmarks/arithmetic_gate.py) and written by `scripts/ship_model.py --compute`. Absent: float32.
FLOAT32, BFLOAT16, INT8_LINEAR = "float32", "bfloat16", "int8-linear"
TORCH_COMPUTES = (FLOAT32, BFLOAT16, INT8_LINEAR)
COMPUTES = (*TORCH_COMPUTES, *ONNX_COMPUTES)


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
        self.compute = FLOAT32  # what it runs in: set by use_compute

    def forward(self, input_ids, attention_mask=None, bbox=None, page_ids=None, position_ids=None,
                token_type_ids=None, **unused) -> TokenLogits:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.compute == BFLOAT16):
            hidden = self.layout.encode(input_ids, attention_mask, bbox, page_ids, position_ids, token_type_ids)
            logits = self.classifier(self.dropout(hidden))
        return TokenLogits(logits.float())  # (B, S, L)


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AVX512-BF16 or AMX): elsewhere it is emulated, and slower."""
    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):  # a torch build without oneDNN
        return False


def use_compute(model: RuntimeTokenClassifier, compute: str) -> RuntimeTokenClassifier:
    """The model set to run in ``compute``: ``bfloat16`` (matrix products in bfloat16 through autocast, where the CPU
    has it natively; float32 elsewhere), ``int8-linear`` (every linear layer but the classifier dynamically quantised
    to int8 with per-channel weights, torch.ao.quantization) or ``float32``. ``model.compute`` says what it got."""
    if compute not in TORCH_COMPUTES:
        raise ModelRefusedError(f"{COMPUTE_KEY}={compute!r} is not one of {', '.join(TORCH_COMPUTES)}")
    if compute == BFLOAT16 and not native_bfloat16():
        compute = FLOAT32
    if compute == INT8_LINEAR:
        import warnings

        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        # the LSPE position encoders stay float: their FFN runs once into a cached table (positions.py), whose
        # cache key reads the layer's weight tensor, which a quantised layer no longer has
        layers = {name: per_channel_dynamic_qconfig for name, module in model.named_modules()
                  if isinstance(module, nn.Linear) and name != "classifier" and ".lspe." not in name}
        with warnings.catch_warnings():  # torch.ao's notice that eager quantisation moves to torchao
            warnings.simplefilter("ignore")
            model = quantize_dynamic(model, layers, dtype=torch.qint8, inplace=True)
    model.compute = compute
    return model


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


def load_runtime_model(folder: Path, compute: str | None = None):
    """The model in ``folder`` (already passed ``check_loadable_folder``), in eval mode, fp32 weights, running in
    ``compute`` (default: what its config.json names, see :func:`use_compute`); ``onnx`` and ``onnx-int8`` give an
    :class:`~docextract.modeling.onnx_runtime.OnnxTokenClassifier` (the torch weights read only to build its graph).

    :class:`~docextract.modeling.saved_config.IncompleteConfig` when config.json was saved by a version that did
    not write every layout key (the caller loads such a folder through transformers); ModelRefusedError when the
    weights do not fit the configuration.
    """
    config = SavedConfig.from_folder(folder)
    compute = compute or read_setting(config, COMPUTE_KEY, FLOAT32)
    if compute not in COMPUTES:
        raise ModelRefusedError(f"{COMPUTE_KEY}={compute!r} is not one of {', '.join(COMPUTES)}", path=str(folder))
    if compute in ONNX_COMPUTES:
        from docextract.modeling.onnx_runtime import load_onnx_model

        return load_onnx_model(folder, config, compute, onnx_graph_builder(folder, config, compute))
    return use_compute(float32_torch_model(folder, config), compute)


def onnx_graph_builder(folder: Path, config: SavedConfig, compute: str):
    """``build(path)``: the ONNX graph of the folder's model for ``compute`` written at ``path`` (what
    :func:`docextract.modeling.onnx_runtime.load_onnx_model` calls when its cache lacks the graph)."""

    def build(path: Path) -> None:
        from docextract.modeling.onnx_export import export_graph

        export_graph(float32_torch_model(folder, config), path, compute)

    return build


def float32_torch_model(folder: Path, config: SavedConfig) -> RuntimeTokenClassifier:
    """The float32 torch modules with the folder's weights, in eval mode."""
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
