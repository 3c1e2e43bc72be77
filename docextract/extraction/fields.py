"""One value per field: when the model gives two different amounts (or dates) the same label, decode
their labels jointly, with the invoice's own arithmetic as evidence.

Tagging words one by one, the model often labels every amount of a totals block ``subtotal`` (the
subtotal, the total and the amount due), or both dates of a header ``invoice_date``: each word's own
best tag, with no rule that an invoice has one total. Field by field, the output then kept the most
confident entity and demoted the others to ``alternatives``, so the total and the amount due were lost.

:func:`assign_one_value_labels` decodes the :data:`ONE_VALUE_LABELS` of one value type (amounts; dates)
together. Each printed occurrence is a candidate: one amount printed as the subtotal, the total and the amount
due (no tax) needs three labels, one per occurrence. Every way of giving each label at most one occurrence
(and each occurrence at most one label) is scored by

* the model's probability of each (occurrence, label) pair: the label's probability averaged over the
  occurrence's words, B/I/E/S summed (pairs under :data:`MIN_LABEL_PROBABILITY` are not allowed), plus
* :data:`CHECK_WEIGHT` for each check the assignment satisfies: line-item amounts sum to the subtotal,
  subtotal plus tax equals the total (the output's own validation checks), the due date is not before the
  invoice date; less :data:`FAILED_CHECK_WEIGHT` for each it contradicts.

The best-scoring assignment wins (ties: the model's own tags). It runs when two entities carry these labels;
otherwise the tags stand. The chosen entities are ``assigned``: each is its field, and other entities of its
label are alternatives, however confident. A relabelled entity's confidence is its probability for its new
label (honestly lower than an argmax tag's); an entity whose label stays keeps its confidence.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from typing import Mapping, Sequence

from docextract.document import Document, WordRef
from docextract.extraction.candidate_scorer import CandidateScorer, choose_fields
from docextract.extraction.entities import (
    Entity,
    TaggedWord,
    decode_entities,
    document_date_year,
    document_locale,
    join_digit_groups,
)
from docextract.extraction.key_values import (addresses_without_date_lines, complete_addresses, complete_dates,
                                              complete_ibans, complete_party_names, complete_payment_terms,
                                              key_value_entities)
from docextract.extraction.normalize import parse_date, parse_number
from docextract.extraction.totals_table import with_column_sums
from docextract.extraction.vendor_reading import vendor_reading_by_evidence

# Labels an invoice prints one value for, by value type. Not addresses or names: one address is often two
# entities (street; city), both rightly labelled alike.
ONE_VALUE_LABELS: dict[str, tuple[str, ...]] = {
    "amount": ("subtotal", "total_tax", "total", "amount_due"),
    "date": ("invoice_date", "due_date"),
}
# A label the model gives a value less than this (mean word probability) is never assigned to it. Set a
# priori, not tuned: a few percent is "the model sees it as possible", far above unrelated labels' ~0.1%.
MIN_LABEL_PROBABILITY = 0.02
# Occurrences tried per label, tagged with one of the kind's labels and left O: bounds the search (at most
# 7**4 assignments of the four amount labels).
MAX_CANDIDATES = 4
MAX_UNTAGGED = 2
# Occurrences of one printed value tried per label: a value the subtotal, total and amount due share needs
# one occurrence for each label, and only as many as the labels that may share it.
MAX_OCCURRENCES = 2
# A satisfied check outweighs any difference in label probabilities (each at most 1).
CHECK_WEIGHT = 1.0
# A contradicted check costs less than a confident label is worth: a total with shipping on top still keeps
# its subtotal, tax and total, while a label the model barely considered (probability < 0.5) is left empty
# rather than contradict the others.
FAILED_CHECK_WEIGHT = 0.5

# An untagged word is an amount candidate only with decimals: "393.17", "1.190,00", not a quantity or a year.
AMOUNT_WITH_DECIMALS = re.compile(r"\d[.,]\d{2}\b")

LabelProbabilities = Mapping[WordRef, Mapping[str, float]]  # word -> label (prefix-free) -> probability


def decode_document_entities(doc: Document, tagged: Sequence[TaggedWord],
                             scorer: CandidateScorer | None = None) -> list[Entity]:
    """Entities from the tags, amounts whole across digit-group spaces, and one-value labels decoded jointly
    where the tags carry label probabilities (what `run` and `evaluate` both read); then dates, IBANs, names and
    addresses cut short are completed, and of several readings of the vendor's name the one a company's name's
    evidence backs is chosen (:mod:`docextract.extraction.vendor_reading`); with a candidate ``scorer`` (the
    model's) the one-value fields it knows are chosen among the page's typed values
    (:mod:`docextract.extraction.candidate_scorer`); fields still empty are read from their keys
    (:mod:`docextract.extraction.key_values`); a totals table's column sums are their fields' values
    (:mod:`docextract.extraction.totals_table`)."""
    entities = join_digit_groups(doc, decode_entities(tagged), tagged)
    probabilities = {w.ref: w.label_probabilities for w in tagged if w.label_probabilities is not None}
    if not probabilities:
        return entities
    entities = assign_one_value_labels(doc, entities, probabilities)
    locale, year = document_locale(doc), document_date_year(doc)
    entities = complete_dates(doc, entities, locale, year)
    word_probability = {w.ref: w.probability for w in tagged}
    entities = complete_addresses(doc, complete_party_names(doc, complete_ibans(doc, entities), word_probability))
    entities = addresses_without_date_lines(doc, entities)
    entities = complete_payment_terms(doc, entities)
    entities = vendor_reading_by_evidence(doc, entities)
    if scorer is not None:
        entities = choose_fields(doc, entities, probabilities, scorer, locale, year)
    labels = sorted({label for p in probabilities.values() for label in p})
    entities = with_column_sums(doc, entities, labels, probabilities, locale, year)
    return key_value_entities(doc, entities, labels, probabilities, locale, year)


def assign_one_value_labels(doc: Document, entities: Sequence[Entity],
                            label_probabilities: LabelProbabilities) -> list[Entity]:
    """``entities`` with the labels of one-value fields decoded jointly (see the module docstring), in order.

    Each printed occurrence is a candidate of its own: a totals block prints one amount as the subtotal, the
    total and the amount due when no tax applies, and the same amount twice as the total and the amount due
    on most invoices. The chosen occurrences are marked ``assigned`` (they are the fields); the others keep
    their tags and become alternatives."""
    out = list(entities)
    competing = {}  # kind -> indices of the entities of its labels; the kinds' labels are disjoint
    for kind, labels in ONE_VALUE_LABELS.items():
        members = [i for i, entity in enumerate(out) if entity.label in labels]
        if len(members) >= 2:
            competing[kind] = members
    if not competing:
        return out  # the common case, and every document of other domains: nothing to parse
    locale, year = document_locale(doc), document_date_year(doc)
    line_amounts = [parse_number(e.text(doc), locale) for e in out if e.label == "line_item_amount"]
    line_sum = sum(a for a in line_amounts if a is not None) if line_amounts and None not in line_amounts else None
    tagged_count = len(out)
    for kind, members in competing.items():
        labels = ONE_VALUE_LABELS[kind]
        for entity in _untagged_candidates(doc, out, kind, labels, label_probabilities, locale, year):
            members.append(len(out))
            out.append(entity)
        probability = {(i, label): _mean_probability(out[i], label, label_probabilities)
                       for i in members for label in labels}
        printed = {i: "".join(out[i].text(doc).split()) for i in members}
        parsed = {i: _parse(kind, out[i].text(doc), locale, year) for i in members}

        def score(assignment: tuple[int | None, ...]) -> tuple[float, int]:
            chosen = {label: i for label, i in zip(labels, assignment) if i is not None}
            total = sum(probability[(i, label)] for label, i in chosen.items())
            values = {label: parsed[i] for label, i in chosen.items()}
            checks = CHECK_WEIGHT * _checks_met(kind, values, line_sum) - FAILED_CHECK_WEIGHT * _checks_failed(kind, values)
            agree = sum(out[i].label == label for label, i in chosen.items())
            return total + checks, agree

        options = [[None, *_likeliest(members, label, probability, printed, tagged_count)] for label in labels]
        best = max((a for a in itertools.product(*options) if _one_label_each(a)), key=score)
        for label, i in zip(labels, best):
            if i is None:
                continue
            confidence = out[i].confidence if out[i].label == label else _mean_probability(out[i], label, label_probabilities)
            out[i] = replace(out[i], label=label, confidence=confidence, assigned=True)
    return [*out[:tagged_count], *(e for e in out[tagged_count:] if e.assigned)]


def _untagged_candidates(doc: Document, entities: Sequence[Entity], kind: str, labels: Sequence[str],
                         label_probabilities: LabelProbabilities, locale: str, year: int | None) -> list[Entity]:
    """Words the model tagged O that read as a value of ``kind`` (an amount with decimals; a date) and that
    it deems possible for one of ``labels``: the tax of a totals block whose other amounts were tagged,
    left O, still makes subtotal + tax = total decide. Label ``O`` until the decoding gives them one."""
    taken = {w for e in entities for w in e.words}
    out = []
    for page_index, page in enumerate(doc.pages):
        for word_index, word in enumerate(page.words):
            ref = WordRef(page_index, word_index)
            if ref in taken or ref not in label_probabilities:
                continue
            if max(label_probabilities[ref].get(label, 0.0) for label in labels) < MIN_LABEL_PROBABILITY:
                continue
            if kind == "amount" and not AMOUNT_WITH_DECIMALS.search(word.text):
                continue
            if _parse(kind, word.text, locale, year) is not None:
                out.append(Entity("O", (ref,), 0.0))
    return out


def _likeliest(members: list[int], label: str, probability: dict, printed: dict[int, str], tagged_count: int) -> list[int]:
    """The occurrences a label may take, most probable first, none under the minimum: at most
    :data:`MAX_CANDIDATES` the model tagged and :data:`MAX_UNTAGGED` it left O (so that untagged amounts never
    crowd out tagged ones), and at most :data:`MAX_OCCURRENCES` of one printed value (so that one amount
    printed five times leaves room for the others)."""
    ranked = sorted((i for i in members if probability[(i, label)] >= MIN_LABEL_PROBABILITY),
                    key=lambda i: -probability[(i, label)])
    tagged, untagged, seen = [], [], Counter()
    for i in ranked:
        if seen[printed[i]] < MAX_OCCURRENCES:
            (tagged if i < tagged_count else untagged).append(i)
            seen[printed[i]] += 1
    return tagged[:MAX_CANDIDATES] + untagged[:MAX_UNTAGGED]


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


def _checks_failed(kind: str, chosen: dict) -> int:
    """How many checks the chosen values contradict: subtotal + tax printed but not the total, a tax as large
    as the subtotal or the total (no VAT rate reaches 100 %), a due date before the invoice date. Without
    this, any amount the model deems possible for a label (a gross total as the tax of a 0 % invoice) beats
    leaving the label empty."""
    if kind == "amount":
        subtotal, tax, total = chosen.get("subtotal"), chosen.get("total_tax"), chosen.get("total")
        sum_fails = None not in (subtotal, tax, total) and subtotal + tax != total
        tax_too_large = tax is not None and any(v is not None and v != 0 and abs(tax) >= abs(v) for v in (subtotal, total))
        return int(sum_fails) + int(tax_too_large)
    issued, due = chosen.get("invoice_date"), chosen.get("due_date")
    return int(issued is not None and due is not None and due < issued)
