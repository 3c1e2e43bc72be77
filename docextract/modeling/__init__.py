"""The layout encoder family: LSPE-LayoutLM, DocPolarBERT, LayoutCosformer, LayoutLM, LAGaBi, LayoutLinformer.

One BERT-compatible encoder with pluggable positions, relative layout biases and attention kernels
(/work/shared/docs/model-spec.md); each paper's model and ablation is a :class:`LayoutConfig`. Users pick
a named preset: ``from_preset("docpolarbert", num_labels=7)``.
"""

from transformers import AutoConfig, AutoModel, AutoModelForPreTraining, AutoModelForTokenClassification

from docextract.modeling.config import MODEL_TYPE, LayoutConfig
from docextract.modeling.encoder import LayoutEncoder, SequenceTooLongError
from docextract.modeling.heads import LayoutForPretraining, LayoutForTokenClassification, LayoutPretrainingOutput
from docextract.modeling.presets import PRESETS, WeightTransfer, from_preset, load_minilm_weights, preset_config

AutoConfig.register(MODEL_TYPE, LayoutConfig, exist_ok=True)
AutoModel.register(LayoutConfig, LayoutEncoder, exist_ok=True)
AutoModelForTokenClassification.register(LayoutConfig, LayoutForTokenClassification, exist_ok=True)
AutoModelForPreTraining.register(LayoutConfig, LayoutForPretraining, exist_ok=True)

__all__ = [
    "MODEL_TYPE", "PRESETS", "LayoutConfig", "LayoutEncoder", "LayoutForPretraining", "LayoutForTokenClassification",
    "LayoutPretrainingOutput", "SequenceTooLongError", "WeightTransfer", "from_preset", "load_minilm_weights",
    "preset_config",
]
