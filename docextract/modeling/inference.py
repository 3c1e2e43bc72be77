"""Model predictions for every word of a document, merged back from its windows.

Each window is encoded exactly as in training (:func:`docextract.modeling.batching.encode_words`); a
word's prediction is the tag distribution at its first sub-token, taken from the one window whose
core holds the word, so overlapping context never counts a word twice. A calibrated model's config carries a softmax
temperature (``docextract_temperature``, fitted by `docextract calibrate`); probabilities use it.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import torch

from docextract.document import Document, TaggedWord, Window, WordRef
from docextract.modeling.batching import SPECIAL_WORD_INDEX, collate, encode_words
from docextract.modeling.model_folder import TEMPERATURE_KEY, model_tags, read_setting
from docextract.vocabulary import split_tag

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


def _first_token_rows(model, tokenizer: Any, doc: Document, windows: Sequence[Window], transform: Callable,
                      batch_size: int, drop_1d: bool) -> dict[WordRef, torch.Tensor]:
    """``transform(logits)`` ``(B, S, num_tags) -> (B, S, num_tags)`` taken at each core word's first sub-token."""
    encoded = [encode_words(doc, window, tokenizer) for window in windows]
    rows: dict[WordRef, torch.Tensor] = {}
    model.eval()
    device = next(model.parameters()).device  # the CPU unless `--device` put the model on a GPU
    with torch.inference_mode():
        for run in token_budget_batches([len(e["input_ids"]) for e in encoded], batch_size):
            chunk = encoded[run.start:run.stop]
            batch = collate(chunk)
            batch.pop("labels", None)
            if drop_1d:
                batch["position_ids"] = torch.zeros_like(batch["input_ids"])
            if device.type != "cpu":
                batch = {k: v.to(device) for k, v in batch.items()}
            values = transform(model(**batch).logits.float()).cpu()  # (B, S, num_tags)
            for row, (enc, window) in enumerate(zip(chunk, windows[run.start:run.stop])):
                core_end = len(window.words) if window.core_end < 0 else window.core_end
                previous = SPECIAL_WORD_INDEX
                for position, index in enumerate(enc["word_index"]):
                    if index != SPECIAL_WORD_INDEX and index != previous and window.core_start <= index < core_end:
                        rows[window.words[index]] = values[row, position]
                    previous = index
    return rows


def word_logits(model, tokenizer: Any, doc: Document, windows: Sequence[Window],
                batch_size: int = INFERENCE_BATCH_SIZE, drop_1d: bool = False) -> dict[WordRef, torch.Tensor]:
    """For each word in some window's core: the raw tag logits at its first sub-token, ``(num_tags,)``."""
    return _first_token_rows(model, tokenizer, doc, windows, lambda logits: logits, batch_size, drop_1d)


def word_probabilities(model, tokenizer: Any, doc: Document, windows: Sequence[Window],
                       batch_size: int = INFERENCE_BATCH_SIZE, drop_1d: bool = False,
                       temperature: float | None = None) -> dict[WordRef, torch.Tensor]:
    """For each word in some window's core: the softmax over tags at its first sub-token, ``(num_tags,)``.

    ``temperature`` divides the logits before the softmax (default: the model's own, 1.0 for an
    uncalibrated model, which leaves the probabilities exactly as they were). ``drop_1d`` gives every
    token position 0 (the LSPE paper's "no 1D position" robustness test).
    """
    t = model_temperature(model) if temperature is None else float(temperature)
    if t == 1.0:  # bit-identical to the uncalibrated softmax
        transform = lambda logits: logits.softmax(-1)  # noqa: E731
    else:
        transform = lambda logits: (logits / t).softmax(-1)  # noqa: E731
    return _first_token_rows(model, tokenizer, doc, windows, transform, batch_size, drop_1d)


def tag_words(model, tokenizer: Any, doc: Document, windows: Sequence[Window], drop_1d: bool = False,
              temperature: float | None = None) -> list[TaggedWord]:
    """Every word of ``doc`` in reading order with its most likely tag and that tag's probability
    (at the model's calibrated temperature unless ``temperature`` is given)."""
    probabilities = word_probabilities(model, tokenizer, doc, windows, drop_1d=drop_1d, temperature=temperature)
    # a word in no window core cannot happen with make_windows; be safe anyway: it is O
    refs = [ref for ref in doc.ordered_words() if ref in probabilities]
    tagged = dict(zip(refs, tagged_words(refs, torch.stack([probabilities[r] for r in refs]), model_tags(model))
                      if refs else []))
    return [tagged.get(ref) or TaggedWord(ref, "O", 0.0) for ref in doc.ordered_words()]


def tagged_words(refs: Sequence[WordRef], probabilities: torch.Tensor, id2label: dict) -> list[TaggedWord]:
    """``probabilities`` (W, num_tags) -> each word's most likely tag, its probability, and the probability
    of every label (B/I/E/S summed) that one-value fields are decoded from (:mod:`docextract.extraction.fields`)."""
    labels, tag_to_label = _label_index(id2label)
    best_probability, best = probabilities.max(-1)  # (W,), (W,)
    per_label = (probabilities.float() @ tag_to_label).tolist()  # (W, num_labels)
    return [TaggedWord(ref, id2label[int(b)], float(p), dict(zip(labels, row)))
            for ref, b, p, row in zip(refs, best, best_probability, per_label)]


def _label_index(id2label: dict) -> tuple[list[str], torch.Tensor]:
    """The entity labels (no prefix, no O) and the (num_tags, num_labels) 0/1 matrix that sums a tag
    distribution into a label distribution."""
    tags = [id2label[i] for i in range(len(id2label))]
    labels = sorted({label for tag in tags if (label := split_tag(tag)[1]) is not None})
    matrix = torch.zeros(len(tags), len(labels))
    for i, tag in enumerate(tags):
        label = split_tag(tag)[1]
        if label is not None:
            matrix[i, labels.index(label)] = 1.0
    return labels, matrix
