"""One value per field: when the model gives two different amounts (or dates) the same label, decode
their labels jointly, with the invoice's own arithmetic as evidence.

Tagging words one by one, the model often labels every amount of a totals block ``subtotal`` (the
subtotal, the total and the amount due), or both dates of a header ``invoice_date``: each word's own
best tag, with no rule that an invoice has one total. Field by field, the output then kept the most
confident entity and demoted the others to ``alternatives``, so the total and the amount due were lost.

:func:`assign_one_value_labels` decodes the :data:`ONE_VALUE_LABELS` of one value type (amounts; dates)
together. Every way of giving each label at most one of the printed values (and each value at most one
label) is scored by

* the model's probability of each (value, label) pair: the label's probability averaged over the value's
  words, B/I/E/S summed (pairs under :data:`MIN_LABEL_PROBABILITY` are not allowed), plus
* :data:`CHECK_WEIGHT` for each check the assignment satisfies: line-item amounts sum to the subtotal,
  subtotal plus tax equals the total (the output's own validation checks), the due date is not before the
  invoice date.

The best-scoring assignment wins (ties: the model's own tags). It only runs when two different values
compete for these labels; otherwise the tags stand. A relabelled entity's confidence is its probability
for its new label (honestly lower than an argmax tag's); an entity whose label stays keeps its confidence.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from decimal import Decimal
from typing import Mapping, Sequence

from docextract.document import Document, WordRef
from docextract.extraction.entities import (
    Entity,
    TaggedWord,
    decode_entities,
    document_date_year,
    document_locale,
    join_digit_groups,
)
from docextract.extraction.key_values import complete_dates, key_value_entities
from docextract.extraction.normalize import parse_date, parse_number

# Labels an invoice prints one value for, by value type. Not addresses or names: one address is often two
# entities (street; city), both rightly labelled alike.
ONE_VALUE_LABELS: dict[str, tuple[str, ...]] = {
    "amount": ("subtotal", "total_tax", "total", "amount_due"),
    "date": ("invoice_date", "due_date"),
}
# A label the model gives a value less than this (mean word probability) is never assigned to it. Set a
# priori, not tuned: a few percent is "the model sees it as possible", far above unrelated labels' ~0.1%.
MIN_LABEL_PROBABILITY = 0.02
# Values tried per label: bounds the search (at most 5**4 assignments of the four amount labels).
MAX_CANDIDATES = 4
# A satisfied check outweighs any difference in label probabilities (each at most 1).
CHECK_WEIGHT = 1.0

LabelProbabilities = Mapping[WordRef, Mapping[str, float]]  # word -> label (prefix-free) -> probability


def decode_document_entities(doc: Document, tagged: Sequence[TaggedWord]) -> list[Entity]:
    """Entities from the tags, amounts whole across digit-group spaces, and one-value labels decoded jointly
    where the tags carry label probabilities (what `run` and `evaluate` both read); then dates cut short are
    completed and fields the model left empty are read from their keys (:mod:`docextract.extraction.key_values`)."""
    entities = join_digit_groups(doc, decode_entities(tagged), tagged)
    probabilities = {w.ref: w.label_probabilities for w in tagged if w.label_probabilities is not None}
    if not probabilities:
        return entities
    entities = assign_one_value_labels(doc, entities, probabilities)
    locale, year = document_locale(doc), document_date_year(doc)
    entities = complete_dates(doc, entities, locale, year)
    labels = sorted({label for p in probabilities.values() for label in p})
    return key_value_entities(doc, entities, labels, probabilities, locale, year)


def assign_one_value_labels(doc: Document, entities: Sequence[Entity],
                            label_probabilities: LabelProbabilities) -> list[Entity]:
    """``entities`` with the labels of one-value fields decoded jointly (see the module docstring), in order."""
    out = list(entities)
    competing = {}  # kind -> {printed value (spaces removed) -> its entities}; the kinds' labels are disjoint
    for kind, labels in ONE_VALUE_LABELS.items():
        members: dict[str, list[int]] = {}
        for i, entity in enumerate(out):
            if entity.label in labels:
                members.setdefault("".join(entity.text(doc).split()), []).append(i)
        if len(members) >= 2:
            competing[kind] = members
    if not competing:
        return out  # the common case, and every document of other domains: nothing to parse
    locale, year = document_locale(doc), document_date_year(doc)
    line_amounts = [parse_number(e.text(doc), locale) for e in out if e.label == "line_item_amount"]
    line_sum = sum(a for a in line_amounts if a is not None) if line_amounts and None not in line_amounts else None
    for kind, members in competing.items():
        labels = ONE_VALUE_LABELS[kind]
        values = list(members)
        probability = {(v, label): max(_mean_probability(out[i], label, label_probabilities) for i in members[v])
                       for v in values for label in labels}
        parsed = {v: _parse(kind, out[members[v][0]].text(doc), locale, year) for v in values}
        tagged_as = {(v, out[i].label) for v in values for i in members[v]}

        def score(assignment: tuple[str | None, ...]) -> tuple[float, int]:
            chosen = dict(zip(labels, assignment))
            total = sum(probability[(v, label)] for label, v in chosen.items() if v is not None)
            checks = _checks_met(kind, {label: parsed[v] for label, v in chosen.items() if v is not None}, line_sum)
            agree = sum((v, label) in tagged_as for label, v in chosen.items() if v is not None)
            return total + CHECK_WEIGHT * checks, agree

        options = [[None, *_likeliest(values, label, probability)] for label in labels]
        best = max((a for a in itertools.product(*options) if _one_label_each(a)), key=score)
        for label, v in zip(labels, best):
            if v is None:
                continue
            for i in members[v]:
                if out[i].label != label:
                    out[i] = replace(out[i], label=label, confidence=_mean_probability(out[i], label, label_probabilities))
    return out


def _likeliest(values: list[str], label: str, probability: dict) -> list[str]:
    """The values a label may take: at most :data:`MAX_CANDIDATES`, most probable first, none under the minimum."""
    allowed = [v for v in values if probability[(v, label)] >= MIN_LABEL_PROBABILITY]
    return sorted(allowed, key=lambda v: -probability[(v, label)])[:MAX_CANDIDATES]


def _mean_probability(entity: Entity, label: str, label_probabilities: LabelProbabilities) -> float:
    return sum(label_probabilities.get(w, {}).get(label, 0.0) for w in entity.words) / len(entity.words)


def _one_label_each(assignment: tuple[str | None, ...]) -> bool:
    chosen = [v for v in assignment if v is not None]
    return len(chosen) == len(set(chosen))


def _parse(kind: str, value: str, locale: str, year: int | None):
    return parse_number(value, locale) if kind == "amount" else parse_date(value, locale, year)


def _checks_met(kind: str, chosen: dict, line_sum: Decimal | None) -> int:
    """How many of the invoice's checks the chosen values satisfy (unparsable values satisfy none)."""
    if kind == "amount":
        subtotal, tax, total = chosen.get("subtotal"), chosen.get("total_tax"), chosen.get("total")
        met = line_sum is not None and subtotal is not None and subtotal == line_sum
        met_total = None not in (subtotal, tax, total) and subtotal + tax == total
        return int(met) + int(met_total)
    issued, due = chosen.get("invoice_date"), chosen.get("due_date")
    return int(issued is not None and due is not None and due >= issued)
