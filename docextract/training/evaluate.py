"""Measuring a token-classification model on labelled documents.

Entity-level precision/recall/F1 with seqeval (micro and per label; strict IOBES mode for BIESO),
over word-level tags in the pipeline's own reading order, and, for key-value data (SROIE,
Kleister), document-level field F1: the best entity per label against the expected values.
Robustness modes change the test documents' reading order (global or neighbour block shuffles) or
drop 1D positions, to measure how much a model leans on the order it is given.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from seqeval.metrics import classification_report, f1_score, precision_score, recall_score
from seqeval.scheme import IOBES

from docextract.data.augment import global_block_shuffle, neighbour_block_swap
from docextract.data.labelled import LabelledDocument
from docextract.data.tagging import document_tags
from docextract.entities import decode_entities
from docextract.inference import tag_words
from docextract.layout import analyze_layout

ROBUSTNESS_MODES = ("none", "global-shuffle", "neighbour-swap", "drop-1d")


@dataclass(frozen=True)
class EvalSettings:
    scheme: str = "BIO"
    max_tokens: int = 510
    stride: int = 128
    robustness: str = "none"
    seed: int = 0  # for the shuffles


def prepare_for_model(ldoc: LabelledDocument) -> LabelledDocument:
    """The document with the pipeline's own lines, blocks and reading order (labels stay on their words)."""
    if ldoc.document.pages and all(p.has_layout for p in ldoc.document.pages):
        return ldoc
    return ldoc.with_document(analyze_layout(ldoc.document))


def perturb(ldoc: LabelledDocument, mode: str, seed: int) -> LabelledDocument:
    if mode == "global-shuffle":
        return ldoc.with_document(global_block_shuffle(ldoc.document, seed))
    if mode == "neighbour-swap":
        return ldoc.with_document(neighbour_block_swap(ldoc.document, seed))
    return ldoc


def normalize_field(text: str) -> str:
    """Case-, accent-width- and whitespace-insensitive comparison form of a field value."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"\s+", " ", text).strip(" .,:;")


def evaluate_model(model, tokenizer, documents: Sequence[LabelledDocument], settings: EvalSettings,
                   on_document: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The metrics report (JSON-able) of ``model`` on ``documents``."""
    from docextract.pipeline import document_windows

    gold_sequences, predicted_sequences = [], []
    field_counts: dict[str, Counter] = {}
    for i, ldoc in enumerate(documents):
        ldoc = perturb(prepare_for_model(ldoc), settings.robustness, settings.seed + i)
        windows = document_windows(ldoc.document, tokenizer, max_tokens=settings.max_tokens, stride=settings.stride)
        tagged = tag_words(model, tokenizer, ldoc.document, windows, drop_1d=settings.robustness == "drop-1d")
        gold_sequences.append(document_tags(ldoc, settings.scheme))
        predicted_sequences.append([t.tag for t in tagged])
        if ldoc.fields:
            _count_fields(field_counts, ldoc, tagged)
        if on_document:
            on_document(i + 1)
    report = _entity_report(gold_sequences, predicted_sequences, settings.scheme)
    report["documents"] = len(documents)
    report["robustness"] = settings.robustness
    if field_counts:
        report["fields"] = _field_report(field_counts)
    return report


def _entity_report(gold: list[list[str]], predicted: list[list[str]], scheme: str) -> dict[str, Any]:
    kwargs = {"mode": "strict", "scheme": IOBES} if scheme == "BIESO" else {}
    per_label = classification_report(gold, predicted, output_dict=True, zero_division=0, **kwargs)
    return {
        "precision": float(precision_score(gold, predicted, zero_division=0, **kwargs)),
        "recall": float(recall_score(gold, predicted, zero_division=0, **kwargs)),
        "f1": float(f1_score(gold, predicted, zero_division=0, **kwargs)),
        "per_label": {
            label: {"precision": float(v["precision"]), "recall": float(v["recall"]), "f1": float(v["f1-score"]),
                    "support": int(v["support"])}
            for label, v in per_label.items() if not label.endswith(" avg")
        },
    }


def _count_fields(counts: dict[str, Counter], ldoc: LabelledDocument, tagged) -> None:
    """Document-level field matching: the most confident entity per label vs the expected values."""
    best: dict[str, tuple[float, str]] = {}
    for entity in decode_entities(tagged):
        text = " ".join(ldoc.document.word(r).text for r in entity.words)
        if entity.label not in best or entity.confidence > best[entity.label][0]:
            best[entity.label] = (entity.confidence, text)
    for key, expected_values in ldoc.fields.items():
        expected = {normalize_field(v) for v in expected_values if v.strip()}
        counter = counts.setdefault(key, Counter())
        predicted = normalize_field(best[key][1]) if key in best else None
        if predicted is not None and predicted in expected:
            counter["tp"] += 1
            counter["fn"] += len(expected) - 1
        else:
            counter["fn"] += len(expected)
            counter["fp"] += predicted is not None


def _prf(c: Counter) -> dict[str, float]:
    precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 0.0
    recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def _field_report(counts: dict[str, Counter]) -> dict[str, Any]:
    total = sum(counts.values(), Counter())
    return {"micro": _prf(total), "per_key": {k: {**_prf(c), "support": c["tp"] + c["fn"]} for k, c in sorted(counts.items())}}
