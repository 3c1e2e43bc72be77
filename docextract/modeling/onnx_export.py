"""Building the ONNX graph of a model: traced from the torch runtime, checked against it, int8 if asked.

Only :func:`docextract.modeling.onnx_runtime.load_onnx_model` calls this, once per model and library versions (the
graph is cached); it is the one part of an ONNX Runtime model that needs torch and the ``onnx`` package.
"""

from __future__ import annotations

import logging
import os
import tempfile
import warnings
from pathlib import Path

import numpy
import torch

from docextract.modeling.onnx_runtime import INPUT_NAMES, ONNX_INT8, OPSET, session_for


def export_graph(model, path: Path, compute: str) -> None:
    """Trace the torch runtime ``model`` to ONNX at ``path`` (written whole or not at all), int8 for ``onnx-int8``.

    Traced without gradients, as inference runs: the LSPE encoders then read their position tables, which the
    trace stores as constants covering every position the model has (the dummy window holds the largest)."""
    config = model.config
    wrapper = _LogitsOnly(model).eval()
    # A padded two-window batch with the largest 1D position and box value: the trace takes the general path
    size = 8
    ids = torch.full((2, size), min(1000, config.vocab_size - 1), dtype=torch.long)
    mask = torch.ones(2, size, dtype=torch.long)
    mask[1, size // 2:] = 0
    boxes = torch.tensor([[0, 0, 1000, 1000]] * size).expand(2, size, 4).contiguous()
    positions = torch.arange(size).expand(2, size).contiguous()
    positions[0, -1] = max(int(getattr(config, "max_position_embeddings", size) or size) - 1, size - 1)
    zeros = torch.zeros(2, size, dtype=torch.long)
    inputs = (ids, mask, boxes, zeros, positions, zeros)
    dynamic = {name: {0: "batch", 1: "tokens"} for name in (*INPUT_NAMES, "logits")}
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".export-") as work:
        traced = Path(work) / "float32.onnx"
        _register_hypot()
        with torch.no_grad(), warnings.catch_warnings():
            # the tracer's notices: the input checks (box range, table size) become constants, as intended
            warnings.simplefilter("ignore")
            torch.onnx.export(wrapper, inputs, str(traced),
                              input_names=list(INPUT_NAMES), output_names=["logits"], dynamic_axes=dynamic,
                              opset_version=OPSET, dynamo=False)
        _check_graph(traced, wrapper, inputs)
        if compute == ONNX_INT8:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            quantised = Path(work) / "int8.onnx"
            logging.getLogger().setLevel(max(logging.getLogger().level, logging.ERROR))  # "consider pre-processing"
            # Weights in 7 bits (reduce_range): a CPU without VNNI (AVX2 only, e.g. AMD Zen 3) multiplies uint8
            # activations by int8 weights with VPMADDUBSW, whose pairwise int16 sums saturate at full-range weights,
            # so the same graph tagged words differently there than on a VNNI CPU (a vendor page's name or amount
            # flipped: tests/test_vendor_pages.py failed on such a machine). 7-bit weights cannot saturate, so every
            # CPU computes the same integers (README "Stop 64": as fast, closer to float32 than 8 bits on AVX2).
            quantize_dynamic(str(traced), str(quantised), weight_type=QuantType.QInt8, per_channel=True,
                             reduce_range=True)
            traced = quantised
        optimised = Path(work) / "optimised.onnx"
        _optimise(traced, optimised)
        os.replace(optimised, path)  # same folder: atomic, a reader never opens half a graph


def _optimise(graph: Path, out: Path) -> None:
    """ONNX Runtime's graph optimisations (fused attention, GELU, layer norm...) applied once and saved, so that a
    process opens the graph without optimising it (``session_for``: 15 ms instead of 150-250 ms of every start).
    The extended level, not "all": its layout changes can depend on the CPU, and a cache folder may be shared."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(out)
    options.log_severity_level = 3
    onnxruntime.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])


def _check_graph(graph: Path, wrapper, inputs: tuple) -> None:
    """The traced graph must give the torch model's logits on the traced batch: an operator the exporter writes
    differently (or a branch the trace froze) is refused here, never found in a user's fields."""
    with torch.no_grad():
        want = wrapper(*inputs).numpy()
    session = session_for(graph)
    names = [i.name for i in session.get_inputs()]
    feed = {name: value.numpy() for name, value in zip(INPUT_NAMES, inputs) if name in names}
    (got,) = session.run(["logits"], feed)
    if got.shape != want.shape:
        raise ValueError(f"the exported graph gives logits of shape {got.shape}, the torch model {want.shape}")
    if not numpy.allclose(got, want, atol=1e-3, rtol=1e-3):  # NaN is never close
        raise ValueError("the exported graph does not give the torch model's logits "
                         f"(largest difference {numpy.abs(got - want).max()})")


def _register_hypot() -> None:
    """``torch.hypot`` (the polar and Gaussian biases' distances) has no ONNX export: sqrt(x*x + y*y) in the graph."""
    from torch.onnx import register_custom_op_symbolic

    def hypot(g, x, y):
        return g.op("Sqrt", g.op("Add", g.op("Mul", x, x), g.op("Mul", y, y)))

    register_custom_op_symbolic("aten::hypot", hypot, OPSET)


class _LogitsOnly(torch.nn.Module):
    """``RuntimeTokenClassifier`` with positional inputs and a tensor out: what torch.onnx.export traces."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, bbox, page_ids, position_ids, token_type_ids):
        return self.model(input_ids=input_ids, attention_mask=attention_mask, bbox=bbox, page_ids=page_ids,
                          position_ids=position_ids, token_type_ids=token_type_ids).logits
