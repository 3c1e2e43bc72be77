"""Fitting the candidate scorer (:mod:`docextract.extraction.candidate_scorer`) on labelled documents.

Every typed candidate of a document (every identifier, date and amount it prints) becomes one row per field of
its kind: its features (:func:`docextract.extraction.candidates.features`) and whether its value is the field's
true value. One logistic regression per field is fitted on the rows, features standardised.

The tagger's probabilities are among the features, so the tags a row is computed from must come from a model that
did not train on the document's producer: a tagger is confident on layouts it learned, and a scorer fitted on
those tags would trust it where it should not (on the producers users bring). ``benchmarks/lopo.py`` fits on each
document's tags from the leave-one-producer-out fold model that held its producer out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Iterable, Mapping, Sequence

from docextract.document import Document
from docextract.extraction.candidate_scorer import MIN_PROBABILITY, CandidateScorer, FieldModel, document_context
from docextract.extraction.candidates import CANDIDATE_KINDS, FEATURES, Candidate, features
from docextract.extraction.entities import TaggedWord, document_date_year, document_locale
from docextract.extraction.fields import decode_document_entities
from docextract.extraction.normalize import identifier_text

# Inverse regularisation strength of each field's logistic regression. Rows are few (tens of documents per
# producer) and correlated within a document: a moderate prior keeps a feature that one producer's layout makes
# perfectly separating from taking an infinite weight.
REGULARISATION_C = 0.3
MIN_POSITIVES = 5  # a field with fewer true candidates in the data gets no model (the tagger decides it)


@dataclass(frozen=True)
class CandidateRow:
    document: str  # the document's id
    group: str  # what the folds keep together (the producer)
    label: str
    features: tuple[float, ...]
    right: bool


def is_true_value(candidate: Candidate, truths: Iterable[str]) -> bool:
    """Whether a candidate's value is one of a field's true values (normalised as `convert` writes them: ISO dates,
    decimal amounts, identifiers as printed). Amounts compare by absolute value (a credit note's signs vary)."""
    for truth in truths:
        if candidate.kind == "identifier":
            if identifier_text(truth).casefold() == candidate.value.casefold():
                return True
        elif candidate.kind == "date":
            if isinstance(candidate.value, date) and truth.strip() == candidate.value.isoformat():
                return True
        else:
            try:
                if abs(Decimal(truth)) == abs(candidate.value):
                    return True
            except (InvalidOperation, ValueError):
                continue
    return False


def candidate_rows(doc_id: str, group: str, doc: Document, tagged: Sequence[TaggedWord],
                   truth: Mapping[str, Sequence[str]]) -> list[CandidateRow]:
    """The rows of one document: for each field of the candidate kinds that the truth states, every candidate of
    its kind. (A field the document does not state gives no rows: whether it is absent or only not located on the
    page, the truth does not say.)"""
    probabilities = {w.ref: w.label_probabilities for w in tagged if w.label_probabilities is not None}
    entities = decode_document_entities(doc, tagged)
    context = document_context(doc, entities, probabilities, document_locale(doc), document_date_year(doc))
    rows = []
    for label, kind in CANDIDATE_KINDS.items():
        if not truth.get(label):
            continue
        for candidate in context.candidates[kind]:
            rows.append(CandidateRow(doc_id, group, label, tuple(features(context, candidate, label)),
                                     is_true_value(candidate, truth[label])))
    return rows


def fit_scorer(rows: Sequence[CandidateRow], c: float = REGULARISATION_C,
               min_probability: float = MIN_PROBABILITY) -> CandidateScorer:
    """One standardised logistic regression per field with at least :data:`MIN_POSITIVES` true candidates."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    fields = {}
    for label in CANDIDATE_KINDS:
        mine = [r for r in rows if r.label == label]
        if sum(r.right for r in mine) < MIN_POSITIVES or all(r.right for r in mine):
            continue
        x = np.array([r.features for r in mine], dtype=float)
        y = np.array([r.right for r in mine], dtype=int)
        mean = x.mean(axis=0)
        scale = x.std(axis=0)
        scale[scale < 1e-9] = 1.0
        regression = LogisticRegression(C=c, max_iter=2000).fit((x - mean) / scale, y)
        fields[label] = FieldModel(tuple(float(v) for v in mean), tuple(float(v) for v in scale),
                                   tuple(float(v) for v in regression.coef_[0]), float(regression.intercept_[0]))
    return CandidateScorer(FEATURES, fields, min_probability)
