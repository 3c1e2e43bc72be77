"""The model run by ONNX Runtime: the same graph as the torch runtime, exported once, optionally int8.

A model folder whose config.json says ``docextract_compute: onnx`` (float32) or ``onnx-int8`` runs here. Its
torch modules (:mod:`docextract.modeling.runtime`) are traced to ONNX once (``torch.onnx.export``), for
``onnx-int8`` with ONNX Runtime's dynamic int8 quantisation of the weights per output channel
(``quantize_dynamic(per_channel=True, reduce_range=True)``: 7-bit weights, which no CPU's int8 kernel saturates, so
every CPU computes the same; torch's per-tensor-activation int8 lost 3 points of fields on the default model;
benchmarks/arithmetic_gate.py decides per model). The graph is derived data, never shipped: it is written
atomically to ``cache_dir()/onnx/<key>.onnx``, the key a hash of the weights, config.json, the compute and the
library versions, so a retrained model or a new torch builds its own, and later processes only open the file
(no torch weights are read then).

Measured on a 2-core CPU with VNNI (stop 44): the default model's windows 1.9x faster in ONNX Runtime float32 than
in torch with the same logits (max difference 3e-5), 3.1x in int8; the int8 graph kept the fields on the
leave-one-producer-out yardstick (69.1% against 69.2%). On a 2-core AMD EPYC without VNNI (AVX2; stop 64,
benchmarks/results/onnx_runtime_s64_avx2.json) int8 is 1.4-1.6x torch float32.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import numpy

from docextract.errors import MissingDependencyError, ModelRefusedError

ONNX_FLOAT32, ONNX_INT8 = "onnx", "onnx-int8"  # docextract_compute values (modeling/runtime.py lists them all)
ONNX_COMPUTES = (ONNX_FLOAT32, ONNX_INT8)

CACHE_ENV = "DOCEXTRACT_CACHE"  # where derived files (the ONNX graphs) go; default ~/.cache/docextract
# The graph's inputs, in the order the traced wrapper takes them; the exporter drops those a model never reads
# (page_ids without page embeddings), so a session is fed only the names it declares.
INPUT_NAMES = ("input_ids", "attention_mask", "bbox", "page_ids", "position_ids", "token_type_ids")
OPSET = 17
# How the cached graph is stored (onnx_export._optimise) and, for int8, quantised (7-bit weights): part of its key
GRAPH_FORM = "optimised-extended int8-weights-7bit"


def cache_dir() -> Path:
    """``$DOCEXTRACT_CACHE``, else ``$XDG_CACHE_HOME/docextract``, else ``~/.cache/docextract``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "docextract"


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def graph_path(folder: Path, compute: str) -> Path:
    """Where the ONNX graph of the model in ``folder`` for ``compute`` is cached: one file per weights, config,
    compute and library versions (the tracer and the quantiser change what they write between releases).

    The weights are known by path, size and modification time (hashing 45 MB would cost every process start
    ~0.1 s); config.json by its content."""
    digest = hashlib.sha256((folder / "config.json").read_bytes())
    for weights in sorted(folder.glob("*.safetensors")):
        stat = weights.stat()
        digest.update(f"{weights.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    digest.update(f"{compute} torch {_version('torch')} onnxruntime {_version('onnxruntime')} "
                  f"onnx {_version('onnx')} opset {OPSET} {GRAPH_FORM}".encode())
    return cache_dir() / "onnx" / f"{digest.hexdigest()[:24]}.onnx"


@dataclass(frozen=True)
class OnnxLogits:
    """``logits`` (B, S, num_tags) as a torch tensor, like the torch runtime's ``TokenLogits``."""

    logits: Any


class OnnxTokenClassifier:
    """An ONNX Runtime session with what `run` asks of a model: ``.config``, ``.compute``, and the logits of a batch
    of numpy arrays (:meth:`logits_array`, torch never imported); called like the torch runtime
    (``model(**batch).logits`` on torch tensors) for the evaluation and calibration code."""

    def __init__(self, config, session, compute: str, graph: Path):
        self.config = config
        self.session = session
        self.compute = compute
        self.graph = graph
        self._inputs = [i.name for i in session.get_inputs()]

    def logits_array(self, batch: Mapping[str, numpy.ndarray]) -> numpy.ndarray:
        """``batch``: (B, S) int arrays (``bbox`` (B, S, 4)) as :func:`docextract.modeling.batching.pad_arrays`
        gives them, ``input_ids`` at least -> logits (B, S, num_tags) float32. Inputs left out get BERT's
        defaults (all attended, position = token index, type and page 0, boxes at 0)."""
        input_ids = batch["input_ids"]
        size = input_ids.shape[1]
        feed = {}
        for name in self._inputs:
            value = batch.get(name)
            if value is None:
                if name == "position_ids":
                    value = numpy.broadcast_to(numpy.arange(size), input_ids.shape)  # BERT: padding included
                elif name == "bbox":
                    value = numpy.zeros((*input_ids.shape, 4), dtype=numpy.int64)
                else:
                    value = numpy.ones_like(input_ids) if name == "attention_mask" else numpy.zeros_like(input_ids)
            feed[name] = numpy.ascontiguousarray(value, dtype=numpy.int64)
        (logits,) = self.session.run(["logits"], feed)
        return logits

    def __call__(self, input_ids, attention_mask=None, bbox=None, page_ids=None, position_ids=None,
                 token_type_ids=None, **unused) -> OnnxLogits:
        import torch

        given = {"input_ids": input_ids, "attention_mask": attention_mask, "bbox": bbox, "page_ids": page_ids,
                 "position_ids": position_ids, "token_type_ids": token_type_ids}
        arrays = {name: value.cpu().numpy() for name, value in given.items() if value is not None}
        return OnnxLogits(torch.from_numpy(self.logits_array(arrays)))

    # what inference asks of a torch module
    def eval(self) -> "OnnxTokenClassifier":
        return self

    def parameters(self) -> Iterator:
        return iter(())


def session_for(graph: Path):
    """An ONNX Runtime CPU session on ``graph`` with the processors this process may use."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    # the batch engine shares the processors out between its workers through OMP_NUM_THREADS (batch/isolation.py);
    # ONNX Runtime's own pool ignores it, so it is passed on (0: ONNX Runtime's default, one per physical core)
    options.intra_op_num_threads = int(os.environ.get("OMP_NUM_THREADS") or 0)
    options.inter_op_num_threads = 1
    # the cached graph was optimised when it was built (onnx_export._optimise); optimising again is most of the
    # 150-250 ms a session took to open
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    # its pool's threads wait asleep, as torch's do under the CLI's OMP_WAIT_POLICY=PASSIVE: spinning threads on a
    # busy 2-core machine cost torch ten times its time; OMP_WAIT_POLICY=ACTIVE asks for spinning in both
    spin = os.environ.get("OMP_WAIT_POLICY", "").upper() == "ACTIVE"
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    options.log_severity_level = 3  # its notices about unused initialisers are not the user's business
    return onnxruntime.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def load_onnx_model(folder: Path, config, compute: str, build: Callable[[Path], None]) -> OnnxTokenClassifier:
    """The model in ``folder`` run by ONNX Runtime in ``compute``: the graph from the cache, or built there first by
    ``build(path)`` (:func:`docextract.modeling.runtime.onnx_graph_builder`: torch, called only then)."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError as error:
        raise MissingDependencyError(f"docextract_compute={compute} needs onnxruntime (pip install onnxruntime); "
                                     "or run with DOCEXTRACT_COMPUTE=float32") from error
    graph = graph_path(folder, compute)
    if graph.is_file():
        return OnnxTokenClassifier(config, session_for(graph), compute, graph)
    try:
        if _writable(graph.parent):
            build(graph)
        else:  # a read-only or odd cache location: the graph lives for this process only
            with tempfile.TemporaryDirectory(prefix="docextract-onnx-") as work:
                build(Path(work) / graph.name)
                return OnnxTokenClassifier(config, session_for(Path(work) / graph.name), compute, graph)
    except ImportError as error:  # onnx, needed by the exporter and the quantiser
        raise MissingDependencyError(f"building the ONNX graph of {folder} needs the onnx package "
                                     f"(pip install onnx): {error}") from error
    except (RuntimeError, ValueError, IndexError) as error:
        raise ModelRefusedError(f"this model cannot be exported to ONNX ({compute}): {error}",
                                path=str(folder)) from error
    return OnnxTokenClassifier(config, session_for(graph), compute, graph)
