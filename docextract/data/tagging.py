"""Word-level tags for token classification, and a model window encoded as sub-word tokens.

Conventions (docs/models.md §0.5): BIO (B-X first word of an entity, I-X the rest, O outside) or
BIESO (B begin, I inside, E end, S single-word entity, O). Tags follow the document's reading order
(``Document.ordered_words()``), so the same labelled file serves either scheme and any reading order.
The label of a word goes on its **first sub-token only**; every other sub-token, the special tokens and
the window's context words (outside its core) get :data:`IGNORE_INDEX`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from docextract.data.labelled import OUTSIDE, LabelledDocument
from docextract.document import Window
from docextract.modeling.batching import IGNORE_INDEX, SPECIAL_WORD_INDEX, encode_words

SCHEMES = ("BIO", "BIESO")


@dataclass(frozen=True)
class Span:
    """An entity as a run of words in reading order: positions ``start`` (inclusive) to ``end`` (exclusive)."""

    label: str
    start: int
    end: int


def _check_scheme(scheme: str) -> str:
    if scheme not in SCHEMES:
        raise ValueError(f"unknown tagging scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")
    return scheme


def labels_for(label_set: Sequence[str], scheme: str = "BIO") -> list[str]:
    """The tag list a classifier predicts: ``O`` first, then each label's prefixes in label-set order."""
    prefixes = "BI" if _check_scheme(scheme) == "BIO" else "BIES"
    return [OUTSIDE] + [f"{p}-{label}" for label in label_set if label != OUTSIDE for p in prefixes]


def entity_spans(doc: LabelledDocument) -> list[Span]:
    """The document's entities in reading order.

    Consecutive words with the same label and the same entity id form one span (an entity id that is
    absent groups consecutive words with the same label). An entity whose words are not contiguous in
    reading order becomes several spans: a tag sequence cannot say otherwise.
    """
    spans: list[Span] = []
    key: tuple[str, int | None] | None = None
    for position, ref in enumerate(doc.document.ordered_words()):
        label = doc.label(ref)
        current = (label, doc.entity(ref)) if label != OUTSIDE else None
        if current is not None and current == key:
            spans[-1] = Span(label, spans[-1].start, position + 1)
        elif current is not None:
            spans.append(Span(label, position, position + 1))
        key = current
    return spans


def tags_from_spans(length: int, spans: Sequence[Span], scheme: str = "BIO") -> list[str]:
    """One tag per reading-order position."""
    _check_scheme(scheme)
    tags = [OUTSIDE] * length
    for span in spans:
        size = span.end - span.start
        if scheme == "BIESO" and size == 1:
            tags[span.start] = f"S-{span.label}"
            continue
        tags[span.start] = f"B-{span.label}"
        for position in range(span.start + 1, span.end):
            tags[position] = f"I-{span.label}"
        if scheme == "BIESO":
            tags[span.end - 1] = f"E-{span.label}"
    return tags


def document_tags(doc: LabelledDocument, scheme: str = "BIO") -> list[str]:
    """The tag of every word of ``doc`` in reading order."""
    return tags_from_spans(doc.document.word_count, entity_spans(doc), scheme)


def spans_from_tags(tags: Sequence[str]) -> list[Span]:
    """Entity spans from BIO or BIESO tags, by seqeval's ``get_entities`` (conlleval rules): the decoder the
    evaluation's entity F1 counts with, so a labelled file's tags mean the same entities to both.

    A chunk ends before B/S/O, after E/S, or when the label changes; an I or E tag that does not continue
    an open chunk of its label starts a new one. Valid tag sequences round-trip exactly.
    """
    from seqeval.metrics.sequence_labeling import get_entities  # imports scikit-learn: only where used

    return [Span(label, start, end + 1) for label, start, end in get_entities(list(tags))]


def encode_window(doc: LabelledDocument, window: Window, tokenizer: Any, label_ids: Mapping[str, int],
                  scheme: str | None = None) -> dict[str, list]:
    """:func:`encode_words` plus ``labels``: the word's tag id on its first sub-token when the word is in
    the window's core, :data:`IGNORE_INDEX` elsewhere. ``scheme`` defaults to BIESO when ``label_ids``
    has S- tags, else BIO.
    """
    scheme = scheme or ("BIESO" if any(tag.startswith("S-") for tag in label_ids) else "BIO")
    position_of = {ref: position for position, ref in enumerate(doc.document.ordered_words())}
    tags = document_tags(doc, scheme)
    core_end = len(window.words) if window.core_end < 0 else window.core_end
    out = encode_words(doc.document, window, tokenizer)
    labels = []
    previous = SPECIAL_WORD_INDEX
    for index in out["word_index"]:
        first_sub_token = index != SPECIAL_WORD_INDEX and index != previous
        in_core = window.core_start <= index < core_end
        labels.append(label_ids[tags[position_of[window.words[index]]]] if first_sub_token and in_core else IGNORE_INDEX)
        previous = index
    out["labels"] = labels
    return out
