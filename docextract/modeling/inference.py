"""Model predictions for every word of a document, merged back from its windows.

Each window is encoded exactly as in training (:func:`docextract.modeling.batching.encode_words`); a
word's prediction is the tag distribution at its first sub-token, taken from the one window whose
core holds the word, so overlapping context never counts a word twice. A calibrated model's config carries a softmax
temperature (``docextract_temperature``, fitted by `docextract calibrate`); probabilities use it.

A model run by ONNX Runtime (``docextract_compute: onnx-int8``, :mod:`docextract.modeling.onnx_runtime`) is fed numpy
arrays and :func:`tag_words` stays in numpy: `run` then never imports torch (a second of every process start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy

from docextract.document import Document, TaggedWord, Window, WordRef
from docextract.modeling.batching import SPECIAL_WORD_INDEX, collate, encode_words, pad_arrays
from docextract.modeling.model_folder import TEMPERATURE_KEY, model_tags, read_setting
from docextract.vocabulary import split_tag

if TYPE_CHECKING:
    import torch

INFERENCE_BATCH_SIZE = 8  # windows per forward pass, at most
# Padded tokens per forward pass, at most (8 windows of 512): a long-range model's 4096- or 16384-token
# window goes through alone, so activation memory stays that of one window (linear in its length for
# cosFormer and Linformer: no S x S tensor), not batch_size times it.
INFERENCE_TOKENS_PER_BATCH = 8 * 512


def token_budget_batches(lengths: Sequence[int], batch_size: int = INFERENCE_BATCH_SIZE,
                         token_budget: int = INFERENCE_TOKENS_PER_BATCH) -> list[range]:
    """Consecutive runs of windows (by index) whose padded size, count x longest, stays within
    ``token_budget``; at most ``batch_size`` windows each, and always at least one."""
    batches: list[range] = []
    start, longest = 0, 0
    for index, length in enumerate(lengths):
        grown = max(longest, length)
        if index > start and (index - start >= batch_size or (index - start + 1) * grown > token_budget):
            batches.append(range(start, index))
            start, grown = index, length
        longest = grown
    if start < len(lengths):
        batches.append(range(start, len(lengths)))
    return batches


def model_temperature(model) -> float:
    """The softmax temperature fitted by `docextract calibrate` (``TEMPERATURE_KEY`` of its folder); 1.0 when absent."""
    value = read_setting(model, TEMPERATURE_KEY)
    return 1.0 if value is None else float(value)


def _first_token_rows(tokenizer: Any, doc: Document, windows: Sequence[Window], forward: Callable,
                      batch_size: int) -> dict[WordRef, Any]:
    """``forward(encoded windows)`` -> per-token rows ``(B, S, ...)`` (a tensor or an array), taken at each core
    word's first sub-token."""
    encoded = [encode_words(doc, window, tokenizer) for window in windows]
    rows: dict[WordRef, Any] = {}
    for run in token_budget_batches([len(e["input_ids"]) for e in encoded], batch_size):
        chunk = encoded[run.start:run.stop]
        values = forward(chunk)
        for row, (enc, window) in enumerate(zip(chunk, windows[run.start:run.stop])):
            core_end = len(window.words) if window.core_end < 0 else window.core_end
            previous = SPECIAL_WORD_INDEX
            for position, index in enumerate(enc["word_index"]):
                if index != SPECIAL_WORD_INDEX and index != previous and window.core_start <= index < core_end:
                    rows[window.words[index]] = values[row, position]
                previous = index
    return rows


def _torch_forward(model, transform: Callable, drop_1d: bool) -> Callable:
    """Encoded windows -> ``transform(logits)`` (B, S, num_tags) as a CPU tensor, through ``model(**batch)``."""
    import torch

    from docextract.modeling.devices import model_device

    model.eval()
    device = model_device(model)  # the CPU unless `--device` put the model on a GPU

    def forward(chunk: Sequence[dict[str, list]]) -> torch.Tensor:
        batch = collate(chunk)
        batch.pop("labels", None)
        if drop_1d:
            batch["position_ids"] = torch.zeros_like(batch["input_ids"])
        if device.type != "cpu":
            batch = {k: v.to(device) for k, v in batch.items()}
        with torch.inference_mode():
            return transform(model(**batch).logits.float()).cpu()

    return forward


def _array_forward(model, temperature: float, drop_1d: bool) -> Callable:
    """Encoded windows -> tag probabilities (B, S, num_tags) float32 arrays, through an ONNX Runtime model."""

    def forward(chunk: Sequence[dict[str, list]]) -> numpy.ndarray:
        batch = pad_arrays(chunk)
        batch.pop("labels", None)
        if drop_1d:
            batch["position_ids"] = numpy.zeros_like(batch["input_ids"])
        logits = model.logits_array(batch)
        return softmax(logits if temperature == 1.0 else logits / temperature)

    return forward


def softmax(logits: numpy.ndarray) -> numpy.ndarray:
    """Softmax over the last axis, float32."""
    shifted = numpy.exp(logits - logits.max(-1, keepdims=True))
    return (shifted / shifted.sum(-1, keepdims=True)).astype(numpy.float32, copy=False)


def word_logits(model, tokenizer: Any, doc: Document, windows: Sequence[Window],
                batch_size: int = INFERENCE_BATCH_SIZE, drop_1d: bool = False) -> dict[WordRef, torch.Tensor]:
    """For each word in some window's core: the raw tag logits at its first sub-token, ``(num_tags,)``."""
    forward = _torch_forward(model, lambda logits: logits, drop_1d)
    return _first_token_rows(tokenizer, doc, windows, forward, batch_size)


def word_probabilities(model, tokenizer: Any, doc: Document, windows: Sequence[Window],
                       batch_size: int = INFERENCE_BATCH_SIZE, drop_1d: bool = False,
                       temperature: float | None = None) -> dict[WordRef, Any]:
    """For each word in some window's core: the softmax over tags at its first sub-token, ``(num_tags,)`` (a tensor
    from a torch model, a float32 array from an ONNX Runtime one).

    ``temperature`` divides the logits before the softmax (default: the model's own, 1.0 for an
    uncalibrated model, which leaves the probabilities exactly as they were). ``drop_1d`` gives every
    token position 0 (the LSPE paper's "no 1D position" robustness test).
    """
    t = model_temperature(model) if temperature is None else float(temperature)
    if hasattr(model, "logits_array"):
        forward = _array_forward(model, t, drop_1d)
    elif t == 1.0:  # bit-identical to the uncalibrated softmax
        forward = _torch_forward(model, lambda logits: logits.softmax(-1), drop_1d)
    else:
        forward = _torch_forward(model, lambda logits: (logits / t).softmax(-1), drop_1d)
    return _first_token_rows(tokenizer, doc, windows, forward, batch_size)


def tag_words(model, tokenizer: Any, doc: Document, windows: Sequence[Window], drop_1d: bool = False,
              temperature: float | None = None) -> list[TaggedWord]:
    """Every word of ``doc`` in reading order with its most likely tag and that tag's probability
    (at the model's calibrated temperature unless ``temperature`` is given)."""
    probabilities = word_probabilities(model, tokenizer, doc, windows, drop_1d=drop_1d, temperature=temperature)
    # a word in no window core cannot happen with make_windows; be safe anyway: it is O
    refs = [ref for ref in doc.ordered_words() if ref in probabilities]
    tagged = dict(zip(refs, tagged_words(refs, numpy.stack([numpy.asarray(probabilities[r]) for r in refs]),
                                         model_tags(model)) if refs else []))
    return [tagged.get(ref) or TaggedWord(ref, "O", 0.0) for ref in doc.ordered_words()]


def tagged_words(refs: Sequence[WordRef], probabilities, id2label: dict) -> list[TaggedWord]:
    """``probabilities`` (W, num_tags), an array or a tensor -> each word's most likely tag, its probability, and the
    probability of every label (B/I/E/S summed) that one-value fields are decoded from
    (:mod:`docextract.extraction.fields`)."""
    probabilities = numpy.asarray(probabilities, dtype=numpy.float32)
    labels, tag_to_label = _label_index(id2label)
    best = probabilities.argmax(-1)  # (W,): the first of equal maxima, as torch's max gives it
    best_probability = probabilities[numpy.arange(len(best)), best]
    per_label = (probabilities @ tag_to_label).tolist()  # (W, num_labels)
    return [TaggedWord(ref, id2label[int(b)], float(p), dict(zip(labels, row)))
            for ref, b, p, row in zip(refs, best, best_probability, per_label)]


def _label_index(id2label: dict) -> tuple[list[str], numpy.ndarray]:
    """The entity labels (no prefix, no O) and the (num_tags, num_labels) 0/1 matrix that sums a tag
    distribution into a label distribution."""
    tags = [id2label[i] for i in range(len(id2label))]
    labels = sorted({label for tag in tags if (label := split_tag(tag)[1]) is not None})
    matrix = numpy.zeros((len(tags), len(labels)), dtype=numpy.float32)
    for i, tag in enumerate(tags):
        label = split_tag(tag)[1]
        if label is not None:
            matrix[i, labels.index(label)] = 1.0
    return labels, matrix
