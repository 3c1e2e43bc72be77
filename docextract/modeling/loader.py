"""Loading a trained model to run: a model name or folder -> (model, tokenizer), once per process.

`run`, the Python API's ``Extractor``, `serve`'s and the batch's workers, `evaluate` and `calibrate` load every model
here. Light to import (no torch, no transformers at the top): the pipeline names :func:`load_model` as its default
loader without paying for torch until a model is loaded.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

COMPUTE_ENV = "DOCEXTRACT_COMPUTE"  # overrides the arithmetic a model's folder names (float32, bfloat16, int8-linear)


@functools.lru_cache(maxsize=2)
def load_model(name_or_path: str, device: str = "cpu"):
    """A trained token-classification model and its tokenizer, loaded once per process (safetensors only), on
    ``device`` (``--device``: a GPU that is not there fails before the model is read).

    Through the runtime (:mod:`docextract.modeling.runtime`: plain torch, the ``tokenizers`` library), so `run`
    never imports transformers; a folder whose config.json predates the runtime's keys goes through
    transformers, which fills in the defaults of that time. The model runs in the arithmetic its config.json
    names (``COMPUTE_KEY`` of :mod:`docextract.modeling.model_folder`) unless ``DOCEXTRACT_COMPUTE`` says otherwise
    (float32, bfloat16, int8-linear, onnx, onnx-int8). An ONNX Runtime model on the CPU is opened from its cached
    graph without importing torch (:func:`_load_onnx`).
    """
    from docextract.modeling.loading import check_loadable_folder
    from docextract.modeling.store import resolve_model
    from docextract.modeling.tokenizer import load_wordpiece

    folder = check_loadable_folder(resolve_model(name_or_path))
    tokenizer = load_wordpiece(str(folder) if (folder / "tokenizer.json").is_file() else None)
    compute = os.environ.get(COMPUTE_ENV) or None
    if device == "cpu":
        model = _load_onnx(folder, compute)
        if model is not None:  # ONNX Runtime from the cached graph: torch is not imported
            return model, tokenizer

    from docextract.modeling.devices import resolve_device
    from docextract.modeling.runtime import load_runtime_model
    from docextract.modeling.saved_config import IncompleteConfig

    where = resolve_device(device)
    try:
        model = load_runtime_model(folder, compute=compute)
    except IncompleteConfig:
        model = _load_with_transformers(folder)
    if where.type != "cpu":
        model.to(where)
    return model, tokenizer


def _load_onnx(folder: Path, compute: str | None):
    """The model run by ONNX Runtime when its compute (or ``DOCEXTRACT_COMPUTE``) says so; None otherwise."""
    from docextract.modeling.model_folder import COMPUTE_KEY
    from docextract.modeling.onnx_runtime import ONNX_COMPUTES, load_onnx_model
    from docextract.modeling.saved_config import IncompleteConfig, SavedConfig

    try:
        config = SavedConfig.from_folder(folder)
    except IncompleteConfig:
        return None
    compute = compute or getattr(config, COMPUTE_KEY, None)
    if compute not in ONNX_COMPUTES:
        return None

    def build(path: Path) -> None:  # only when the graph is not cached yet: torch
        from docextract.modeling.runtime import onnx_graph_builder

        onnx_graph_builder(folder, config, compute)(path)

    return load_onnx_model(folder, config, compute, build)


def _load_with_transformers(folder: Path):
    import torch
    from transformers.utils import logging as hf_logging

    from docextract.modeling import LayoutForTokenClassification
    from docextract.modeling.compact import is_compact, load_compact

    hf_logging.disable_progress_bar()  # our own progress goes to stderr; no tqdm bar per model load
    if is_compact(folder):  # shipped checkpoints: fp16 + int8 embeddings, run in fp32
        model = load_compact(folder, LayoutForTokenClassification)
    else:
        model = LayoutForTokenClassification.from_pretrained(str(folder), dtype=torch.float32)
    return model.eval()
