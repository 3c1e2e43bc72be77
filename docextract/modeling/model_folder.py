"""What a model folder says about itself: the ``docextract_*`` keys of its config.json, read and written here only.

Transformers keeps every key of config.json as an attribute of the model's config (and so does the runtime's
:class:`~docextract.modeling.saved_config.SavedConfig`), so the trainers, `calibrate` and `scripts/ship_model.py`
leave what a model needs to be run as it was trained in the folder itself. Every module reads a key through
:func:`read_setting` (or a typed reader below) and writes one through :func:`write_settings`, naming it by its
constant: a key is spelled once, here, with what it says and who writes it (:data:`MODEL_KEYS`).

Beside the keys: the window policy they set (:func:`model_window_size`, :func:`model_stride`,
:func:`model_cross_pages`) and the model's labels (:func:`model_tags`, :func:`model_labels`).

Nothing here imports torch or transformers: `run` and the extraction stage read it for free.
"""

from __future__ import annotations

from typing import Any, Mapping

# How the model was trained to read documents (finetune writes them; pretrain the window and the stride).
SCHEME_KEY = "docextract_scheme"
WINDOW_TOKENS_KEY = "docextract_window_tokens"
STRIDE_KEY = "docextract_stride"
CROSS_PAGES_KEY = "docextract_cross_pages"
# How far its confidences are to be trusted (`calibrate`, `calibrate --fields`, the candidate fit).
TEMPERATURE_KEY = "docextract_temperature"
FIELD_CALIBRATION_KEY = "docextract_field_calibration"
REVIEW_POLICY_KEY = "docextract_review_policy"
POLICY_DROPPED_KEY = "docextract_review_policy_dropped"
SCORER_KEY = "docextract_candidate_scorer"
# What it learned from, so that a later finetune replays it (finetune).
REPLAY_KEY = "docextract_replay"
# How its weights are stored and run (modeling/compact.py, scripts/ship_model.py --compute).
COMPACT_KEY = "docextract_compact"
COMPUTE_KEY = "docextract_compute"

MODEL_KEYS: dict[str, str] = {
    SCHEME_KEY: "the tagging scheme it was trained with, BIO or BIESO (finetune)",
    WINDOW_TOKENS_KEY: "word tokens per window it was trained with (finetune, pretrain)",
    STRIDE_KEY: "tokens of context consecutive windows shared in training (finetune, pretrain)",
    CROSS_PAGES_KEY: "whether its training windows spanned pages (finetune --cross-pages)",
    TEMPERATURE_KEY: "the softmax temperature fitted on held-out documents (calibrate)",
    FIELD_CALIBRATION_KEY: "raw field confidence -> probability the field is right (calibrate --fields)",
    REVIEW_POLICY_KEY: "per-field thresholds that reach the review precision (calibrate --fields)",
    POLICY_DROPPED_KEY: "a finetune dropped the review policy fitted for the weights it started from (finetune)",
    SCORER_KEY: "the scorer that picks one-value fields among the page's typed candidates (candidate fit)",
    REPLAY_KEY: "the synthetic recipe it was trained on, for a later finetune to replay (finetune)",
    COMPACT_KEY: "which tensors are stored int8 in a shipped folder (modeling/compact.py)",
    COMPUTE_KEY: "the arithmetic it runs in at inference: float32, bfloat16, int8-linear (ship_model.py --compute)",
}

# A calibration fitted for some weights says nothing of other weights: a finetune starts without these.
FITTED_KEYS = (TEMPERATURE_KEY, FIELD_CALIBRATION_KEY, REVIEW_POLICY_KEY)

SPECIAL_TOKENS = 2  # [CLS] and [SEP] around every window
DEFAULT_WINDOW_POSITIONS = 512  # a model that does not say reads windows of this many positions (or its smaller table)
DEFAULT_STRIDE = 128  # tokens of context shared by neighbouring windows, where the model does not say


def _config(model_or_config) -> Any:
    return getattr(model_or_config, "config", model_or_config)


def read_setting(model_or_config, key: str, default: Any = None) -> Any:
    """What a model (or its config, or config.json's dict) says under ``key`` (one of :data:`MODEL_KEYS`)."""
    if key not in MODEL_KEYS:
        raise KeyError(f"{key!r} is not a key a docextract model folder holds")
    config = _config(model_or_config)
    if isinstance(config, Mapping):
        return config.get(key, default)
    return getattr(config, key, default)


def write_settings(config, values: Mapping[str, Any]) -> None:
    """Set ``values`` (key -> value, keys of :data:`MODEL_KEYS`) on a model's config object or config.json dict."""
    unknown = set(values) - set(MODEL_KEYS)
    if unknown:
        raise KeyError(f"not keys a docextract model folder holds: {', '.join(sorted(unknown))}")
    for key, value in values.items():
        if isinstance(config, dict):
            config[key] = value
        else:
            setattr(config, key, value)


def model_scheme(model_or_config) -> str:
    """The tagging scheme the model was trained with (BIO where it does not say)."""
    return read_setting(model_or_config, SCHEME_KEY) or "BIO"


def model_window_size(model) -> int:
    """Word tokens per window the model handles: what it was trained with (``WINDOW_TOKENS_KEY``: 4094 for a
    long-range model trained on whole documents), never more than its position table minus [CLS]/[SEP]; a model
    that does not say reads 512 - 2 (or its smaller table)."""
    from docextract.modeling.saved_config import max_window_tokens

    config = _config(model)
    limit = max_window_tokens(config)
    trained = read_setting(config, WINDOW_TOKENS_KEY)
    if trained:
        return int(trained) if limit is None else min(int(trained), limit)
    return min(config.max_position_embeddings, DEFAULT_WINDOW_POSITIONS) - SPECIAL_TOKENS


def model_cross_pages(model) -> bool:
    """Whether the model was trained on windows that span pages (``finetune --cross-pages``)."""
    return bool(read_setting(model, CROSS_PAGES_KEY, False))


def model_stride(model, window_tokens: int) -> int:
    """The stride the model was trained with, kept below a quarter of the window size."""
    stride = read_setting(model, STRIDE_KEY)
    return min(DEFAULT_STRIDE if stride is None else int(stride), window_tokens // 4)


def model_tags(model_or_config) -> dict[int, str]:
    """The model's tags by output index (``id2label`` with int keys, whichever way the config was read)."""
    return {int(k): str(v) for k, v in _config(model_or_config).id2label.items()}


def model_labels(model_or_config) -> tuple[str, ...]:
    """The entity labels the model tags (its tags without their B-/I-/E-/S- prefix, ``O`` left out), sorted."""
    return tuple(sorted({tag.split("-", 1)[1] for tag in model_tags(model_or_config).values() if "-" in tag}))
