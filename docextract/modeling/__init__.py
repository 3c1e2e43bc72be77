"""The layout encoder family: LSPE-LayoutLM, DocPolarBERT, LayoutCosformer, LayoutLM, LAGaBi, LayoutLinformer.

One BERT-compatible encoder with pluggable positions, relative layout biases and attention kernels
(docs/models.md); each paper's model and ablation is a :class:`LayoutConfig`. Users pick
a named preset: ``from_preset("docpolarbert", num_labels=7)``.

The names below load on first use (PEP 562): they are transformers models, and importing transformers costs
about a second that `docextract run` does not pay (it reads models through :mod:`docextract.modeling.runtime`).
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "MODEL_TYPE": "docextract.modeling.loading",
    "LayoutConfig": "docextract.modeling.config",
    "LayoutEncoder": "docextract.modeling.encoder",
    "SequenceTooLongError": "docextract.modeling.layers",
    "LayoutForPretraining": "docextract.modeling.heads",
    "LayoutForTokenClassification": "docextract.modeling.heads",
    "LayoutPretrainingOutput": "docextract.modeling.heads",
    "PRESETS": "docextract.modeling.presets",
    "WeightTransfer": "docextract.modeling.presets",
    "from_preset": "docextract.modeling.presets",
    "load_minilm_weights": "docextract.modeling.presets",
    "preset_config": "docextract.modeling.presets",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value  # the next access is a plain lookup
    return value
