"""Picking each one-value field among its typed candidates, with a small model fitted per field.

:mod:`docextract.extraction.candidates` lists every identifier, date and amount a document prints and describes
each by its neighbourhood; a :class:`CandidateScorer` turns those numbers into the probability that a candidate is
a field's value (one logistic regression per field over standardised features, stored in the model's config.json
under :data:`SCORER_KEY`, fitted by :mod:`docextract.training.candidate_fit` on documents whose tags came from
models that never saw their producer). :func:`choose_fields` then decodes each kind's fields jointly, as
:mod:`docextract.extraction.fields` does with the tagger's probabilities: every way of giving each field at most one
candidate (and each printed value at most one field of its kind) is scored by the candidates' probabilities, plus
the invoice's arithmetic for amounts (subtotal + tax = total), minus a penalty for a due date before the issue date
(the right order earns nothing: most pairs of an invoice's dates are in it).

A field whose best candidate stays under :data:`MIN_PROBABILITY` keeps what the tagger decoded (of the tagger's
several readings of it, the one the scorer ranks highest). The chosen
candidates become the fields (``method: "candidates"``, assigned) with their probability as raw confidence; the
tagger's other entities of those labels stay as alternatives.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence

from docextract.document import Document, WordRef
from docextract.extraction.candidates import (
    CANDIDATE_KINDS,
    FEATURES,
    KEY_LABELS,
    Candidate,
    DocumentContext,
    before_a_discount,
    features,
    first_of_a_row_of_sums,
    generate,
    in_a_sentence,
    in_item_row,
    keyed_as,
    keyed_as_no_field,
    never_the_value,
    value_key,
    with_party_sides,
)
from docextract.extraction.entities import Entity
from docextract.extraction.field_keywords import key_tokens, names_the_buyers_order
from docextract.extraction.identifiers import check_tax_id, is_vat_number, registration_number, valid_in_scheme_of_key
from docextract.extraction.key_context import in_a_totals_strip, line_index, whole_key
from docextract.extraction.key_values import footer_company_name, keys_the_buyers_own_order
from docextract.modeling.model_folder import SCORER_KEY  # noqa: F401  (named here too: the candidate fit writes it)

# A candidate under this probability never becomes a field by the scorer: the tagger's reading stays.
MIN_PROBABILITY = 0.2
MAX_CANDIDATES = 4  # per field, the most probable; bounds the joint search (5**4 amount assignments)
DATE_OCCURRENCES = 2  # per field, the occurrences of one date that are options (see _decode_kind)
# An amount of the sum (subtotal + tax = total) the scorer is unsure of (under its minimum, over this) is an option
# only in an assignment whose sum holds: "Steuerbetrag 70,00" on a layout never seen, between 448,99 and 518,99;
# never a zero, with which any subtotal equal to a total holds (a receipt's "8.96" before its rounding to 8.95).
SUM_LABELS = ("subtotal", "total_tax", "total")
MIN_UNSURE_PROBABILITY = 0.01
MAX_UNSURE_CANDIDATES = 3
CHECK_WEIGHT = 0.5  # a satisfied arithmetic check, in probability units
FAILED_CHECK_WEIGHT = 0.5


@dataclass(frozen=True)
class FieldModel:
    """One field's logistic regression over standardised :data:`FEATURES`."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float

    def probability(self, row: Sequence[float]) -> float:
        z = self.intercept + sum(w * (x - m) / s for w, x, m, s in zip(self.weights, row, self.mean, self.scale))
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


@dataclass(frozen=True)
class CandidateScorer:
    features: tuple[str, ...]
    fields: Mapping[str, FieldModel]
    min_probability: float = MIN_PROBABILITY

    def to_config(self) -> dict[str, Any]:
        return {"features": list(self.features), "min_probability": self.min_probability,
                "fields": {label: {"mean": list(m.mean), "scale": list(m.scale), "weights": list(m.weights),
                                   "intercept": m.intercept} for label, m in sorted(self.fields.items())}}

    @staticmethod
    def from_config(value: Mapping[str, Any] | None) -> CandidateScorer | None:
        """The scorer a config.json stores; None when it stores none. A scorer fitted before some of this version's
        features existed reads them with weight 0 (it never used them: its choices stay what they were); one fitted
        on a feature this version no longer computes cannot be applied: ValueError."""
        if not value:
            return None
        stored = tuple(value["features"])
        if not set(stored) <= set(FEATURES):
            raise ValueError("it was fitted on other candidate features than this docextract computes; refit it")
        position = {name: i for i, name in enumerate(stored)}

        def in_order(values: Sequence[float], absent: float) -> tuple[float, ...]:
            return tuple(float(values[position[name]]) if name in position else absent for name in FEATURES)

        fields = {label: FieldModel(in_order(m["mean"], 0.0), in_order(m["scale"], 1.0), in_order(m["weights"], 0.0),
                                    float(m["intercept"]))
                  for label, m in value["fields"].items()}
        return CandidateScorer(FEATURES, fields, float(value.get("min_probability", MIN_PROBABILITY)))


def document_context(doc: Document, entities: Sequence[Entity],
                     probabilities: Mapping[WordRef, Mapping[str, float]], locale: str, year: int | None
                     ) -> DocumentContext:
    index = line_index(doc)
    return DocumentContext(doc, index, probabilities, entities, with_party_sides(doc, generate(doc, index, locale, year)))


def choose_fields(doc: Document, entities: Sequence[Entity], probabilities: Mapping[WordRef, Mapping[str, float]],
                  scorer: CandidateScorer, locale: str, year: int | None) -> list[Entity]:
    """``entities`` with the scorer's fields (see the module docstring): for each label the scorer knows, the
    chosen candidate becomes the field and the tagger's entities of that label stay behind it."""
    context = document_context(doc, entities, probabilities, locale, year)
    chosen: dict[str, tuple[Candidate, float]] = {}
    for kind in ("identifier", "date", "amount"):
        labels = [label for label, k in CANDIDATE_KINDS.items() if k == kind and label in scorer.fields]
        if labels and context.candidates[kind]:
            chosen.update(_decode_kind(context, kind, labels, scorer))
    chosen = _the_buyers_own_order(context, scorer, _keyed_on_its_row(context, scorer, chosen, entities))
    chosen = _keyed_in_a_totals_strip(context, scorer, chosen)
    chosen = _the_sellers_registered_tax_id(context, scorer, chosen)
    chosen = _the_tax_id_on_the_sellers_legal_line(context, scorer, chosen)
    chosen = _the_tax_id_in_the_sellers_block(context, scorer, chosen)
    chosen = _a_tax_id_its_key_names(context, scorer, chosen)
    chosen = _the_issue_date_over_the_tax_point(context, scorer, chosen)
    chosen = _the_date_of_the_invoices_own_number(context, scorer, chosen)
    # a tagger's reading of a number the scorer left open, inside a number chosen for another field, is a piece of
    # that value ("0045" of the bill number "778 2213 0045", which a model on a scan tagged as the order number); a
    # date or an amount printed once may be two fields
    taken = {r for label, (candidate, _) in chosen.items() if candidate.kind == "identifier" for r in candidate.words}
    out = [replace_unassigned(e) if e.label in chosen else e for e in entities
           if e.label in chosen or CANDIDATE_KINDS.get(e.label) != "identifier" or not set(e.words) & taken]
    for label, (candidate, probability) in chosen.items():
        out.append(Entity(label, candidate.words, probability, "candidates", assigned=True))
    for label in scorer.fields:
        if label not in chosen:
            out = _tagger_choice_ranked(context, scorer, label, out)
    return out


# The fields whose value printed after its own key on its row wins over a value the scorer chose without a key.
KEYED_ON_ITS_ROW = ("invoice_date", "due_date", "amount_due", "invoice_number")
# A header over a column of values names them all: only a key of more than a plain "Date" names the invoice's date
# from above ("Factuurdatum" over "19-08-2024"; not a treatments table's "Datum" over its dates)
PLAIN_DATE_KEYS = frozenset({"date", "datum", "data", "fecha", "dato", "pvm", "paivamaara"})


def _keyed_on_row_or_in_header(context: DocumentContext, words: tuple[WordRef, ...], label: str) -> bool:
    left, above = context.keys(words)
    if left is not None and label in left.labels:
        return True
    if above is None or label not in above.labels:
        return False
    tokens = [t for r in above.words for t in key_tokens(context.doc.word(r).text)]
    return not set(tokens) <= PLAIN_DATE_KEYS or _in_a_key_grid(context, above.words, words)


# Keys of a document's own numbers and dates beside a plain "Date" in a grid's header row ("Date | Échéance | Code
# client | Bon de commande"), which a line-item table's header does not hold
GRID_KEY_LABELS = frozenset({"invoice_number", "due_date", "purchase_order", "other_number"})


def _in_a_key_grid(context: DocumentContext, header: tuple[WordRef, ...], words: tuple[WordRef, ...]) -> bool:
    """Whether a plain "Date" over a value heads a column of a grid of keys over one row of values (an ERP's
    "Date | Échéance | Code client | Bon de commande" over "14/10/2024 | 13/11/2024 | ..."), not a table's column of
    dates: another cell of its header row keys a document's number or due date, and no value stands right under the
    value in its column."""
    doc, index = context.doc, context.index
    header_line, value_line = index.line(header[0]), index.line(words[0])
    if header_line is None or value_line is None:
        return False
    p = header[0].page_index
    row = [line for line in doc.pages[p].lines if line is not header_line
           and line.box.vertical_overlap(header_line.box) > 0.5 * header_line.box.height]
    if not any((hit := whole_key(doc, [WordRef(p, w) for w in line.word_indices], KEY_LABELS)) is not None
               and hit.labels & GRID_KEY_LABELS for line in row):
        return False
    height = max(value_line.box.height, 1e-6)
    return not any(0 <= line.box.top - value_line.box.bottom <= height
                   and abs(line.box.x0 - value_line.box.x0) <= height
                   and any(ch.isdigit() for ch in doc.word(WordRef(p, line.word_indices[0])).text)
                   for line in doc.pages[p].lines)


def _keyed_on_its_row(context: DocumentContext, scorer: CandidateScorer, chosen: dict[str, tuple[Candidate, float]],
                      entities: Sequence[Entity]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with each field of :data:`KEYED_ON_ITS_ROW` the one value printed after its key on its row, where
    the scorer chose a value without a key of it (an amount only where it ranks the keyed one above its minimum too;
    a due date never before the invoice's date): a French lawyer's "Bordeaux, le 14 juin 2024" (0.29) under a
    retainer's "Provision reçue le 11/03/2024" (0.36, the tagger's invoice date); a hotel's "Offener Saldo 0,00"
    after a card payment (0.84) under its VAT table's unkeyed sum 554,00 (0.87); a web shop's "Factuurdatum" over
    "19-08-2024" (0.69) under the order's date printed twice, in its payment line and a sentence (0.98); a VPS
    provider's "Date d'échéance" over "16/08/2024" under a domain's renewal "jusqu'au 04/08/2025". A key on the
    value's row, or a header over it that says more than "Date": a table's "Datum" column over its treatments' dates
    is no key of the invoice's date ("Notadatum 26-03-2024" stays). Not a date another field took. Where the scorer
    chose none, over the tagger's readings where none of them is keyed so."""
    out = dict(chosen)
    for label in KEYED_ON_ITS_ROW:
        if label not in scorer.fields:
            continue
        readings = [out[label][0].words] if label in out else [e.words for e in entities if e.label == label]
        if any(_keyed_on_row_or_in_header(context, words, label) for words in readings):
            continue
        kind = CANDIDATE_KINDS[label]
        taken = {c.words for other, (c, _) in out.items() if other != label} if kind == "date" else set()
        # (a date after its key needs no floor: a physiotherapist's "Handelsrechnung (380) Nr. R25-31 vom 03.10.2025"
        # stood under the scorer's minimum beside a treatment's "24.09.2025;" on a producer left out; an amount does,
        # but over readings inside running text: a telecom's "Importo da pagare" over "€ 292,62" at 0.09, under a
        # tag of the last bill's sum, "la fattura n. 8Z24041877 del 10/05/2024 di € 298,15 risulta pagata")
        # An invoice number after its key on its row needs none either: a ZUGFeRD 1 sample's "Rechnungsnummer 471102"
        # (0.17 from a fold scorer) under a tagger's reading of its sideways copyright line, "4102.V.e"
        in_sentences = bool(readings) and all(in_a_sentence(context.doc, words[0]) for words in readings)
        floor = 0.0 if kind in ("date", "identifier") or in_sentences else scorer.min_probability
        # never a due date before the invoice's date (a scan's "29.11.2006" for "29.11.2026" after its key), nor an
        # early payment's ("Zahlbar bis 11.07.2024 abzüglich 2 % Skonto (23,70 EUR), bis 31.07.2024 ohne Abzug")
        issued = out["invoice_date"][0].value if label == "due_date" and "invoice_date" in out else None
        keyed = _the_one_value(context, scorer, label, floor, lambda c: (
            _keyed_on_row_or_in_header(context, c.words, label) and c.words not in taken
            and (label != "due_date" or (issued is None or c.value >= issued) and not before_a_discount(context, c))))
        if keyed is None and label == "invoice_number":
            # (under a grid of the invoice's own keys, whatever the scorer ranks it: a water bill's "Rechnungs-Nr. |
            # Rechnungsdatum | Kunden-Nr. | Zahlbar bis" over "2024-20-07713" at 0.004, beside its meter's number)
            keyed = _the_one_value(context, scorer, label, 0.0, lambda c: (
                (above := context.keys(c.words)[1]) is not None and label in above.labels
                and context.keys(c.words)[0] is None and _in_a_key_grid(context, above.words, c.words)))
        if keyed is not None:
            out[label] = keyed
    return out


STRIP_LABELS = ("subtotal", "total_tax", "total")


def _keyed_in_a_totals_strip(context: DocumentContext, scorer: CandidateScorer,
                             chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with each of :data:`STRIP_LABELS` the one value under its own key in a strip of totals
    (:func:`~docextract.extraction.key_context.in_a_totals_strip`), where the scorer chose a value keyed neither so
    nor on its row (never where it chose none): a Spanish wholesaler's "Base imponible" over 624,52 beside "Importe
    bruto" over 637,27, the sum before its early-payment discount (0.64 against 0.12). A strip's header says which
    value is which, as a key on the value's row does."""
    out = dict(chosen)
    for label in STRIP_LABELS:
        # (only over a choice of the scorer's: a receipt's GST summary "Amount (RM) | GST (RM)" over its net, where the
        # scorer chose no total and the tagger's "ROUNDING RM 169.80" stays)
        if (label not in scorer.fields or label not in out
                or _keyed_on_row_or_in_header(context, out[label][0].words, label)):
            continue

        def in_the_strip(candidate: Candidate) -> bool:
            above = context.keys(candidate.words)[1]
            return (context.keys(candidate.words)[0] is None and above is not None and label in above.labels
                    and in_a_totals_strip(context.index, above.words, candidate.words))
        keyed = _the_one_value(context, scorer, label, 0.0, in_the_strip)
        if keyed is not None:
            out[label] = keyed
    return out


def _the_one_value(context: DocumentContext, scorer: CandidateScorer, label: str, floor: float,
                   wanted: Callable[[Candidate], bool]) -> tuple[Candidate, float] | None:
    """Of the candidates of ``label``'s kind that ``wanted`` takes, may be its value and that the scorer ranks at
    ``floor`` or above, the most probable with its probability, where they all print one value; None otherwise."""
    scored = [(c, p) for c in context.candidates[CANDIDATE_KINDS[label]] if wanted(c)
              and not never_the_value(context, c, label)
              and (p := scorer.fields[label].probability(features(context, c, label))) >= floor]
    return max(scored, key=lambda pair: pair[1]) if len({value_key(c) for c, _ in scored}) == 1 else None


def _the_buyers_own_order(context: DocumentContext, scorer: CandidateScorer,
                          chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with the order number keyed as the buyer's own ("Ihre Bestellnr. BR-EK-24-0918", 0.68) over one
    the scorer chose under a key that does not say whose ("Auftragsnr. VA-010447", 0.86: the seller's order
    confirmation, as Business Central prints both), whatever the scorer ranks it: the key says whose it is, where the
    scorer weighs only that both are keyed as orders (a Liechtenstein installer's "Ihre Bestellung AB-117 vom
    22.08.2024", 0.19, under its own "Auftrag A-24-0513", 0.42)."""
    if "purchase_order" not in chosen or "purchase_order" not in scorer.fields:
        return chosen

    def buyers(words: tuple[WordRef, ...]) -> bool:
        return any(hit is not None and "purchase_order" in hit.labels and names_the_buyers_order(
            [t for r in hit.words for t in key_tokens(context.doc.word(r).text)]) for hit in context.keys(words))

    if buyers(chosen["purchase_order"][0].words):
        return chosen
    own = _the_one_value(context, scorer, "purchase_order", 0.0, lambda c: buyers(c.words))
    if own is None and keys_the_buyers_own_order(context.doc):
        # (the buyer's reference in words, no candidate: "Jeres rekv. | Sag 2417 Ørbækvej" under a Danish
        # wholesaler's own "Ordrenr. | 1771904", accepted as the order at 0.76): the order the key does not name as
        # the buyer's is the seller's
        return {label: value for label, value in chosen.items() if label != "purchase_order"}
    return chosen if own is None else {**chosen, "purchase_order": own}


def _the_sellers_registered_tax_id(context: DocumentContext, scorer: CandidateScorer,
                                   chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with the seller's VAT number the one whose register number the page prints elsewhere (its legal
    line's "RCS Mâcon 836 504 175" or SIRET for "FR26836504175"), over a chosen one whose register number it does not
    print: the buyer's, under an ERP's grid header "N° TVA intracommunautaire" or after "N° TVA" in its key column,
    where no side names it (0.99 against the seller's 0.96). Only French and Belgian numbers carry their register's."""
    if "vendor_tax_id" not in chosen or "vendor_tax_id" not in scorer.fields:
        return chosen
    current = chosen["vendor_tax_id"][0]
    if registration_number(str(current.value)) is None or _registered_elsewhere(context.doc, current):
        return chosen
    registered = _the_one_value(context, scorer, "vendor_tax_id", scorer.min_probability, lambda c: (
        value_key(c) != value_key(current) and _registered_elsewhere(context.doc, c)))
    return chosen if registered is None else {**chosen, "vendor_tax_id": registered}


def _keyed_left_as(context: DocumentContext, candidate: Candidate, label: str) -> bool:
    """Whether the key on a candidate's row names ``label``."""
    left = context.keys(candidate.words)[0]
    return left is not None and label in left.labels


def _a_vat_number(context: DocumentContext, candidate: Candidate) -> bool:
    return is_vat_number(check_tax_id(" ".join(context.doc.word(r).text for r in candidate.words)))


def _the_tax_id_in_the_sellers_block(context: DocumentContext, scorer: CandidateScorer,
                                     chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with the seller's VAT number the one in the block a heading names the seller's ("Verkocht door",
    "Sold by", "Verkäufer"), whatever the scorer ranks it, over one chosen outside that block: a marketplace prints
    its own in its letterhead and issues the invoice in the seller's name, whose block holds the seller's (the
    letterhead's chosen at 0.97, the block's at 0.05)."""
    if "vendor_tax_id" not in chosen or "vendor_tax_id" not in scorer.fields:
        return chosen
    current = chosen["vendor_tax_id"][0]
    if current.party_side == "vendor_name":
        return chosen
    in_block = _the_one_value(context, scorer, "vendor_tax_id", 0.0, lambda c: (
        c.party_side == "vendor_name" and value_key(c) != value_key(current) and _a_vat_number(context, c)))
    return chosen if in_block is None else {**chosen, "vendor_tax_id": in_block}


def _a_tax_id_its_key_names(context: DocumentContext, scorer: CandidateScorer,
                            chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with the seller's tax id, where the scorer chose none, the one number outside the buyer's block after
    a key that names its scheme and valid in that scheme ("KRA PIN: P051678432K", "R.U.C. 20604815739": the scorer,
    fitted on VAT numbers, ranks such a number low, 0.14 and 0.06), at the scorer's probability (in review)."""
    if "vendor_tax_id" in chosen or "vendor_tax_id" not in scorer.fields:
        return chosen

    def named(c: Candidate) -> bool:  # (its key left of it on its row, or over it: a header row's "USPPI EIN")
        text = " ".join(context.doc.word(r).text for r in c.words)
        return c.party_side != "customer_name" and any(
            hit is not None and "vendor_tax_id" in hit.labels and valid_in_scheme_of_key(
                [t for r in hit.words for t in key_tokens(context.doc.word(r).text)], text) for hit in context.keys(c.words))

    found = _the_one_value(context, scorer, "vendor_tax_id", 0.0, named)
    return chosen if found is None else {**chosen, "vendor_tax_id": found}


def _the_tax_id_on_the_sellers_legal_line(context: DocumentContext, scorer: CandidateScorer,
                                          chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with the seller's tax id the one keyed on the footer's line that opens with a company's name
    (:func:`~docextract.extraction.key_values.footer_company_name`: "SUMINISTROS ELÉCTRICOS ALMENARA, S.A. – C.I.F.
    A50187426 – Inscrita en el Registro Mercantil ..."), over one chosen elsewhere: a Spanish header row's "N.I.F." over
    the buyer's number (0.27 against the footer's 0.001, which the scorer ranks low for its place). The issuer's
    legal line names its own registration."""
    if "vendor_tax_id" not in scorer.fields:
        return chosen
    name = footer_company_name(context.doc)
    if not name:
        return chosen
    line = context.index.line(name[0])
    current = chosen["vendor_tax_id"][0] if "vendor_tax_id" in chosen else None
    if current is None or context.index.line(current.words[0]) is line or _keyed_left_as(
            context, current, "vendor_tax_id"):
        return chosen  # (one keyed on its own row elsewhere: a French page's "N° TVA : FR..." over its SIRET's line)
    # (nor a registration number for a VAT number: SIRET on the legal line, the VAT number in an ERP's grid)
    vat = _a_vat_number(context, current)
    on_the_line = _the_one_value(context, scorer, "vendor_tax_id", 0.0, lambda c: (
        context.index.line(c.words[0]) is line and _keyed_left_as(context, c, "vendor_tax_id")
        and (not vat or _a_vat_number(context, c))))
    if on_the_line is None or value_key(on_the_line[0]) == value_key(current):
        return chosen  # (the same number printed again in the footer: the chosen place stays)
    return {**chosen, "vendor_tax_id": on_the_line}


TAX_POINT_WORDS = frozenset({"point"})  # "Tax point": the date of supply, the invoice's date where no other is printed


def _the_issue_date_over_the_tax_point(context: DocumentContext, scorer: CandidateScorer,
                                       chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with the invoice's date the one value after a key of the issue ("Date of issue 24/04/2024") where the
    scorer chose the date after "Tax point" or none keyed (01/05/2024, a lease's supply date that its due date and
    rental period print again): the tax point is the invoice's date only where no issue date is printed, and keys a
    second value beside it that :func:`_keyed_on_its_row` cannot choose between."""
    if "invoice_date" not in chosen or "invoice_date" not in scorer.fields:
        return chosen

    def key_words(words: tuple[WordRef, ...]) -> set[str] | None:
        left = context.keys(words)[0]
        if left is None or "invoice_date" not in left.labels:
            return None
        return {t for r in left.words for t in key_tokens(context.doc.word(r).text)}

    keyed = key_words(chosen["invoice_date"][0].words)
    if keyed is not None and not keyed & TAX_POINT_WORDS:
        return chosen
    issued = _the_one_value(context, scorer, "invoice_date", 0.0, lambda c: (
        (words := key_words(c.words)) is not None and not words & TAX_POINT_WORDS))
    return chosen if issued is None else {**chosen, "invoice_date": issued}


# A one-word key that dates the number printed before it ("Bill No. 117902 dated 03/08/24", "Rechnung 4711 vom
# 05.06.2025", "Facture 2024-118 du 04/09/2024"), as key_tokens gives it
DATING_WORDS = frozenset({"dated", "vom", "du", "del", "van", "dnia", "dne"})


def _the_date_of_the_invoices_own_number(context: DocumentContext, scorer: CandidateScorer,
                                         chosen: dict[str, tuple[Candidate, float]]) -> dict[str, tuple[Candidate, float]]:
    """``chosen`` with the invoice's date the one value after a key of its own on its row or over it, where the scorer
    chose a date that a word dates another number with: a law firm's bill keys "Bill Date | April 12, 2024" and
    lists an unpaid earlier one as "Bill No. 117902 dated 03/08/24" (accepted as the invoice's date, 0.84), while the
    invoice's number chosen is 118274. Never where the number before it is the invoice's own."""
    if "invoice_date" not in chosen or "invoice_number" not in chosen or "invoice_date" not in scorer.fields:
        return chosen
    doc, index = context.doc, context.index
    date_words = chosen["invoice_date"][0].words
    if not _dated_by_a_word(context, date_words):
        return chosen
    left = context.keys(date_words)[0]
    where = index.line_of.get(left.words[0])
    if where is None or where[1] == 0:
        return chosen
    line = doc.pages[left.words[0].page_index].lines[where[0]]
    before = WordRef(left.words[0].page_index, line.word_indices[where[1] - 1])
    if before in chosen["invoice_number"][0].words or not any(ch.isdigit() for ch in doc.word(before).text):
        return chosen
    own = _the_one_value(context, scorer, "invoice_date", 0.0, lambda c: (
        c.words != date_words and _keyed_on_row_or_in_header(context, c.words, "invoice_date")
        and not _dated_by_a_word(context, c.words)))
    return chosen if own is None else {**chosen, "invoice_date": own}


def _dated_by_a_word(context: DocumentContext, words: tuple[WordRef, ...]) -> bool:
    """Whether the key left of the date is one word of :data:`DATING_WORDS`."""
    left = context.keys(words)[0]
    if left is None or len(left.words) != 1:
        return False
    tokens = key_tokens(context.doc.word(left.words[0]).text)
    return len(tokens) == 1 and tokens[0] in DATING_WORDS


def _registered_elsewhere(doc: Document, candidate: Candidate) -> bool:
    """Whether a page prints a VAT number's register number on a line apart from the number itself (its digits in
    the line's digits, the number's own taken out)."""
    number = registration_number(str(candidate.value))
    if number is None:
        return False
    own_digits = "".join(ch for ch in str(candidate.value) if ch.isdigit())
    own = set(candidate.words)
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            digits = "".join(ch for w in line.word_indices if WordRef(p, w) not in own for ch in page.words[w].text
                             if ch.isdigit())
            if number in digits.replace(own_digits, ""):
                return True
    return False


def _tagger_choice_ranked(context: DocumentContext, scorer: CandidateScorer, label: str, entities: list[Entity]
                          ) -> list[Entity]:
    """Where every candidate of ``label`` stays under the scorer's minimum, the tagger's reading stays; of the
    tagger's several entities of the label, the one the scorer ranks highest is the field. A model on a layout never
    seen tags the dates beside "Beleg-Datum", "Leistungs-Datum" and "Bestell-Datum" alike, and its most confident
    is as often the delivery date as the issue date; the scorer's features (the key, the title line) tell them."""
    entities = _whole_keyed_numbers(context, label, _without_readings_of_no_date(context, label, entities))
    rivals = [e for e in entities if e.label == label]
    by_words = {c.words: c for c in context.candidates[CANDIDATE_KINDS[label]]}
    if not rivals:
        # no reading at all: the keyed number the scorer ranks highest, not the key rule's first in reading order
        # (a marketplace's "Pagina 1" under its title "Factuur" before "Factuurnummer" over "GW25-004187")
        keyed = _keyed_number_over_the_tagger(context, scorer, label, rivals, by_words, {})
        return entities if keyed is None else [*entities, keyed]
    # the candidate of each reading: its words, or an amount's with the currency printed apart ("EUR" of "EUR
    # 5'699.30", which the tagger leaves out)
    amount = CANDIDATE_KINDS[label] == "amount"
    of = {id(e): c for e in rivals if (c := by_words.get(e.words) or (next(
        (c for words, c in by_words.items() if set(e.words) < set(words)), None) if amount else None)) is not None}
    probability = {id(e): scorer.fields[label].probability(features(context, of[id(e)], label))
                   for e in rivals if id(e) in of and not never_the_value(context, of[id(e)], label)}
    never_any = amount and all(_never_any_amount_field(context, label, of[id(e)].words if id(e) in of else e.words)
                               or id(e) in of and first_of_a_row_of_sums(context, of[id(e)], label) for e in rivals)
    # (a reading of the tagger that is no candidate and not its choice counts for nothing: "42" of a street number
    # beside the buyer's "NIF: ESB46218731", which it read as the seller's at 0.98)
    weighed = [e for e in rivals if id(e) in of or e.assigned or _within_a_telephone(context, e.words)]
    if never_any or not amount and weighed and all(id(e) in of and id(e) not in probability
                                                   or _within_a_telephone(context, e.words) for e in weighed):
        # every reading of the tagger is never the value (a hotel bill's room number under "Kamer" as its number, its
        # "Netto 7 %" beside "Netto 19 %" as its subtotal, "Freight 18.00" under "Sales Tax 7.5% 25.65" as its tax):
        # none stays, and the key rules read the field where its key is printed ("Nota nr." over "48213"). Another
        # amount ruled out stays: a receipt's "ROUNDING RM 169.80" is its total, after a key that is mostly the
        # change's, and its "NET TOTAL RM18.30" after the rounding, whose key names a subtotal elsewhere. An amount
        # keyed as a charge, a discount or another currency's equivalent no field holds goes, whatever its score
        # ("Gegenwert EUR (Kurs 1.0651, informativ) EUR 5'699.30" under a Swiss invoice's total, read as due); so does
        # the first amount of a row of sums ("Sous-total | 865,00 | 120,00 | 985,00", read as the subtotal)
        return [e for e in entities if e.label != label]
    keyed = _keyed_number_over_the_tagger(context, scorer, label, rivals, by_words, probability)
    if keyed is not None:
        return [*(replace_unassigned(e) if e.label == label else e for e in entities), keyed]
    if not amount and not any(e.assigned for e in rivals) and any(id(e) in probability for e in rivals):
        # (none chosen: the most confident reading becomes the field, so a reading that is never the value goes where
        # another may be: the buyer's "TVA / VAT: FR17832417950" under "CLIENTE / BILL TO" (0.94) over the seller's
        # "NIF/VAT: ESB91734202" (0.44), which a model read so on a CPU with VNNI and accepted)
        ruled_out = {id(e) for e in rivals if id(e) in of and id(e) not in probability}
        return [e for e in entities if id(e) not in ruled_out]
    if len(rivals) < 2 or not any(e.assigned for e in rivals):
        return entities
    assigned = next(e for e in rivals if e.assigned)
    best = max((e for e in rivals if id(e) in probability), key=lambda e: probability[id(e)], default=None)
    if best is None or best is assigned:
        return entities
    # the tagger's reading stays unless a rival ranks higher or the reading is never the value (a delivery date):
    # a candidate left out of the probabilities above
    ruled_out = id(assigned) in of and id(assigned) not in probability
    if not ruled_out and (id(assigned) not in probability or probability[id(best)] <= probability[id(assigned)]):
        return entities
    return [replace(e, assigned=e is best) if e.label == label else e for e in entities]


def _without_readings_of_no_date(context: DocumentContext, label: str, entities: list[Entity]) -> list[Entity]:
    """``entities`` without the tagger's readings of a date field that share no word with any date the page prints:
    a Spanish wholesaler's invoice number "24/002318", which a model read as the due date at 0.04."""
    if CANDIDATE_KINDS[label] != "date":
        return entities
    dated = {r for c in context.candidates["date"] for r in c.words}
    return [e for e in entities if e.label != label or dated.intersection(e.words)]


# The numbers a page prints in digit groups after their key ("Invoice no." over "9021 4418 063")
GROUPED_NUMBER_LABELS = frozenset({"invoice_number", "purchase_order"})


def _whole_keyed_numbers(context: DocumentContext, label: str, entities: list[Entity]) -> list[Entity]:
    """``entities`` with each tagger's reading of ``label`` that is a piece of a number keyed as ``label`` read as
    that whole number: a water bill's "063" of "9021 4418 063" under "Invoice no."."""
    if label not in GROUPED_NUMBER_LABELS:
        return entities
    out = []
    for e in entities:
        whole = next((c for c in context.candidates["identifier"] if e.label == label and set(e.words) < set(c.words)
                      and keyed_as(context, c, label) and not never_the_value(context, c, label)), None)
        out.append(e if whole is None else replace(e, words=whole.words))
    return out


def _within_a_telephone(context: DocumentContext, words: tuple[WordRef, ...]) -> bool:
    """Whether a tagger's reading is part of a telephone number ("29 37 41 86" of "Tel. 030 29 37 41 86", which a
    model read as a Kleinunternehmer's tax id beside the Steuernummer in the footer)."""
    return any(c.telephone and set(words) <= set(c.words) for c in context.candidates["identifier"])


def _keyed_number_over_the_tagger(context: DocumentContext, scorer: CandidateScorer, label: str,
                                  rivals: Sequence[Entity], by_words: Mapping[tuple, Candidate],
                                  probability: Mapping[int, float]) -> Entity | None:
    """The invoice's number where no reading of the tagger (``rivals``, scored in ``probability``; none at all too) has
    its key: the value after that key that the scorer ranks above them all, though under the minimum too. A ZUGFeRD sample's
    "Rechnungsnummer 471102" over the tagger's "4102.V.e" (its rotated copyright line), which fold scorers rank
    0.19-0.20 against 0.14. Not the seller's tax id, which a page keys twice (the Steuernummer after its key
    outranked the VAT id on a layout never seen), nor an amount (a receipt's keyed "TOTAL" above the tagger's rounded
    total cost four SROIE totals)."""
    if label != "invoice_number" or any(keyed_as(context, by_words[e.words], label) for e in rivals
                                        if e.words in by_words):
        return None
    tagged = {e.words for e in rivals}
    keyed = [(scorer.fields[label].probability(features(context, c, label)), c) for c in by_words.values()
             if c.words not in tagged and keyed_as(context, c, label) and not never_the_value(context, c, label)]
    top = max(keyed, key=lambda scored: scored[0], default=None)
    if top is None or top[0] <= max(probability.values(), default=1.0 if rivals else 0.0):
        return None
    return Entity(label, top[1].words, top[0], "candidates", assigned=True)


def _never_any_amount_field(context: DocumentContext, label: str, words) -> bool:
    """Whether an amount is one rate's share beside another's, or keyed as a charge or discount no field holds."""
    return words in context.one_rate_amounts.get(label, ()) or keyed_as_no_field(context, words)


def replace_unassigned(entity: Entity) -> Entity:
    """A tagger entity of a label the scorer decided: an alternative behind the scorer's choice."""
    return entity if not entity.assigned else Entity(entity.label, entity.words, entity.confidence, entity.method)


def _decode_kind(context: DocumentContext, kind: str, labels: Sequence[str], scorer: CandidateScorer
                 ) -> dict[str, tuple[Candidate, float]]:
    candidates = context.candidates[kind]
    scores = {label: [0.0 if never_the_value(context, c, label) else scorer.fields[label].probability(features(context, c, label))
                      for c in candidates] for label in labels}
    options = []
    unsure: set[tuple[str, int]] = set()  # (label, candidate) under the minimum: an option only where the sum holds
    for label in labels:
        ranked = sorted(range(len(candidates)), key=lambda i: -scores[label][i])
        best, seen, below = [], {}, 0
        for i in ranked:
            sure = scores[label][i] >= scorer.min_probability
            if len(best) >= MAX_CANDIDATES or not sure and (
                    kind != "amount" or label not in SUM_LABELS or below >= MAX_UNSURE_CANDIDATES
                    or scores[label][i] < MIN_UNSURE_PROBABILITY):
                break
            if (label == "total_tax" and (not sure or candidates[i].value != 0)
                    and in_item_row(context.doc, candidates[i].words[0])):
                # an item's price is no tax: two items' prices add up to a total by chance (a bookshop's "30,00 €" and
                # "3,00 €" to "33,00 €", beside "enthaltene MwSt. 7 %: 2,16 €"; a photographer's 650,00 € and
                # 150,00 € to the 800,00 € of a page that charges no VAT, whose "Total HT" the scorer was sure of).
                # A zero the scorer is sure of may be the tax column of a tax-free invoice's only item row
                continue
            key = value_key(candidates[i])
            if key not in seen or kind == "date" and seen[key] < DATE_OCCURRENCES:
                # one printed value is one option per field (its first, most probable occurrence); a date two, since
                # the due date may be the invoice date printed twice, and each field then takes one of them
                best.append(i)
                seen[key] = seen.get(key, 0) + 1
                if not sure:
                    unsure.add((label, i))
                    below += 1
        options.append([None, *best])

    def utility(assignment: tuple[int | None, ...]) -> float:
        total = sum(scores[label][i] for label, i in zip(labels, assignment) if i is not None)
        chosen = {label: i for label, i in zip(labels, assignment) if i is not None}
        values = {label: candidates[i].value for label, i in chosen.items()}
        met = _checks_met(kind, values)
        if met and values.get("total_tax") == 0 and not keyed_as(context, candidates[chosen["total_tax"]], "total_tax"):
            # a zero tax makes any amount both subtotal and total: an unkeyed "0,00" ("Erhaltene Anzahlungen 0,00")
            # checks nothing, and had outweighed the printed 216,00 + 19,44 on layouts never seen; a receipt's
            # "GST 0.00" is keyed and still checks its total
            met = 0
        if any((label, i) in unsure for label, i in chosen.items()) and (not met or values.get("total_tax") == 0):
            return -math.inf  # a zero tax makes any subtotal equal to a total a sum: it proves nothing
        return total + CHECK_WEIGHT * met - FAILED_CHECK_WEIGHT * _checks_failed(kind, values)

    def distinct(assignment: tuple[int | None, ...]) -> bool:
        chosen = [i for i in assignment if i is not None]
        if kind == "amount":  # one printed amount may be subtotal, total and amount due (the checks judge the tax)
            return True
        if kind == "date":  # the due date may be the invoice date, printed twice
            return len(chosen) == len(set(chosen))
        return len({value_key(candidates[i]) for i in chosen}) == len(chosen)

    best = max((a for a in itertools.product(*options) if distinct(a)), key=utility)
    return {label: (candidates[i], scores[label][i]) for label, i in zip(labels, best) if i is not None}


def _checks_met(kind: str, values: Mapping[str, Any]) -> int:
    if kind == "amount":
        subtotal, tax, total = (values.get(k) for k in ("subtotal", "total_tax", "total"))
        if None in (subtotal, tax, total) or tax < 0 < min(subtotal, total):
            # (a deduction printed negative between two positive amounts is no tax: "Gross value 186,420.00 | Less
            # retention (9,321.00) | Net valuation 177,099.00" adds up only read backwards)
            return 0
        return int(abs(subtotal) + abs(tax) == abs(total))  # signs aside: a credit note prints some of them negative
    return 0  # dates: a due date on or after the issue date checks nothing (most pairs of an invoice's dates are)


def _checks_failed(kind: str, values: Mapping[str, Any]) -> int:
    if kind == "amount":
        subtotal, tax, total = (values.get(k) for k in ("subtotal", "total_tax", "total"))
        sum_fails = None not in (subtotal, tax, total) and abs(subtotal) + abs(tax) != abs(total)
        tax_too_large = tax is not None and any(v is not None and v != 0 and abs(tax) >= abs(v) for v in (subtotal, total))
        return int(sum_fails) + int(tax_too_large)
    if kind == "date":
        issued, due = values.get("invoice_date"), values.get("due_date")
        return int(issued is not None and due is not None and due < issued)
    return 0
