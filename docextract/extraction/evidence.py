"""What the document itself says about a field's value, as numbers a confidence model combines.

The model's token probabilities say how sure it was of each word's tag; they rank right values above wrong
ones only loosely. The document offers more evidence, and :func:`field_evidence` reads it for every field of
a `run` output:

* ``raw_logit``: the model's own confidence (its words' mean tag probability), as a logit;
* ``unnormalised``: a date, amount, number, currency or IBAN field whose value does not normalise;
* ``odd_shape``: the value does not look like its kind (an amount printed like a date, "02/17/26"; a date
  that is a time of day, "18:02", or a lone year; an invoice number without a digit; a name without a
  letter, with an HTML entity left in it ("&amp;"), or a party name that is only its legal form ("GmbH"));
* ``key_own`` / ``key_other``: a key word of this field ("Rechnungsnummer", "Facture N°", "Invoice #",
  "Montant TTC", ...; :mod:`docextract.extraction.field_keywords`) ends the text left of the value on its
  row or stands just above it; or a key word of another field does (a due date's "Fällig" before a value
  labelled invoice_date);
* ``recurs``: the value is printed again elsewhere in the document (an amount compared by its digits);
* ``check_pass`` / ``check_fail``: the invoice's arithmetic that involves this field (line items sum to the
  subtotal, subtotal + tax = total, the amount due is not above the total) holds / fails;
* ``tax_rate``: tax / subtotal is a VAT rate some country charges (for the subtotal, tax and total);
* ``dates_agree``: +1 when the due date falls on or after the invoice date and within a year of it, -1 when
  it falls before (for both dates), 0 when one is missing;
* ``valid``: +1 / -1 for an identifier whose checksum holds / fails (the field's ``valid`` flag), else 0;
* ``rival_gap``: the model's confidence in this value minus its confidence in the best other value it gave
  the same label (1 without a rival);
* ``ocr_doubt``: 1 - the mean OCR confidence of the value's words (0 for a text layer);
* ``kind_date``, ``kind_amount``, ``kind_id``, ``kind_address``: what kind of value it is (names and other
  strings are the baseline), and ``words_log``: log of the value's word count;
* ``key_whole_own`` / ``key_whole_other``: a *whole* key (:mod:`docextract.extraction.key_context`: not the "Date"
  of "Delivery Date") of this field, or of another field instead, left of the value on its row or over it;
* ``tagger_agrees``: +1 when the tagger read this value for the field (its own entity, or one of the same text),
  -1 when it read the field elsewhere as something else, 0 when it read nothing for it;
* ``other_party``: a party's name or address is also the other party's (one of the two is wrong);
* ``by_candidates`` / ``by_rule`` / ``by_block``: the value was chosen by the candidate scorer, read from a key by
  the rule, or a party's name or address read from its block under a heading naming the side
  (:mod:`docextract.extraction.party_blocks`);
* ``letter_spaced``: a name or address printed (or read by OCR) in single letters ("R E Francois"), a shape that
  names rarely have;
* ``keyed_rival``: another value on the page stands right after a whole key of this field ("USt.-Id.-Nr." of the
  seller and of the buyer; "vom" after a stylesheet's version and after the invoice number): the choice between
  them is the layout's to make, and a layout never seen makes it a guess.

Every feature is a plain function of the document's words and layout, the decoded entities and the output's
fields and checks, so `run` computes exactly what a fit on labelled documents saw
(:mod:`docextract.evaluation.confidence_fit`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable, Mapping, Sequence

from docextract.document import Box, Document, WordRef
from docextract.extraction.entities import FIELD_TYPES, Entity
from docextract.extraction.field_keywords import LEGAL_FORMS, closing_keys, key_tokens
from docextract.extraction.key_context import LineIndex, key_above, key_left

FEATURES = (
    "raw_logit", "unnormalised", "odd_shape", "key_own", "key_other", "recurs", "check_pass", "check_fail",
    "tax_rate", "dates_agree", "valid", "rival_gap", "ocr_doubt",
    "kind_date", "kind_amount", "kind_id", "kind_address", "words_log",
    "key_whole_own", "key_whole_other", "tagger_agrees", "by_candidates", "by_rule", "letter_spaced",
    "keyed_rival", "by_block", "other_party",
)
# Types whose value must normalise to be usable: a date, an amount, a number, an ISO currency, an IBAN.
NORMALISED_TYPES = frozenset({"date", "amount", "number", "currency_code", "iban"})
IDENTIFIER_LABELS = frozenset({"invoice_number", "purchase_order", "vendor_tax_id", "iban"})
PARTY_NAME_LABELS = frozenset({"vendor_name", "customer_name", "company"})
CONFIDENCE_EPSILON = 1e-4  # confidences are clamped to [eps, 1 - eps] before a logit
CONTEXT_WORDS = 8  # words left of a value that can hold its key word
KEYED_VALUE_GAP_OF_HEIGHT = 6.0  # a key farther left than this many text heights is a column header's, not this value's
ABOVE_LINES_OF_HEIGHT = 3.0  # a key word above a value stands within this many value heights
MAX_DUE_DAYS = 366  # a due date more than a year after the invoice date is suspicious
RECURRENCE_MIN_CHARACTERS = 3  # shorter values ("1", "EUR") recur by chance
# Standard and reduced VAT / sales-tax rates in percent (EU, UK, CH, NO, AU, CA, ...): a tax amount that is one of
# these shares of the subtotal is most likely the tax of that subtotal.
VAT_RATES = (0, 2.1, 2.5, 2.6, 3, 3.8, 4, 5, 5.5, 6, 7, 7.7, 8, 8.1, 9, 10, 12, 13, 13.5, 14, 15, 16, 17, 18, 19,
             20, 21, 22, 23, 24, 25, 25.5, 27)
TAX_RATE_TOLERANCE = 0.06  # percentage points: rounding of the printed tax
# The checks of :mod:`docextract.extraction.checks` that involve each field.
CHECKS_OF_FIELD = {
    "subtotal": ("line_items_sum_equals_subtotal", "subtotal_plus_tax_equals_total"),
    "total_tax": ("subtotal_plus_tax_equals_total",),
    "total": ("subtotal_plus_tax_equals_total",),
}
# a currency beside an amount: a code, a sign, a dollar with its country's letters ("HK$", "NZ$") or the real's "R$", the
# ringgit's, the crowns', the złoty's, the rand's ("R 2 800,00") and the rupee's ("Rs.1,19,454.00")
_CURRENCY_SHAPE = r"(?:[A-Z]{3}|[€$£¥₹]|[A-Z]{1,3}\$|CHF|Fr\.?|RM|kr\.?|zł|Kč|Rs\.?|R|Ft|lei|лв\.?)"
_AMOUNT_SHAPE = re.compile(
    rf"[(\-−+]?\s*{_CURRENCY_SHAPE}?\s*[(\-−+]?\s*\d[\d.,'\s\u00a0\u202f]*\d?\s*-?\)?\s*{_CURRENCY_SHAPE}?\s*-?\)?",
    re.IGNORECASE)
_TIME_SHAPE = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)?")
_DATE_SHAPE = re.compile(r"\d{1,4}\s*[./-]\s*\d{1,2}\s*[./-]\s*\d{2,4}")


def logit(confidence: float) -> float:
    c = min(max(float(confidence), CONFIDENCE_EPSILON), 1.0 - CONFIDENCE_EPSILON)
    return math.log(c / (1.0 - c))


def is_unnormalised(field: Mapping[str, Any]) -> bool:
    """A field of a type that must normalise (date, amount, number, currency, IBAN) whose value did not."""
    return field.get("type") in NORMALISED_TYPES and field.get("normalized") is None


class DocumentIndex(LineIndex):
    """What evidence needs of a document, built once: each word's line (:class:`LineIndex`), and the words in
    reading order."""

    def __init__(self, doc: Document):
        super().__init__(doc)
        self.order = doc.ordered_words()
        self._recurrence_keys: dict[str, list[str]] = {}
        self._starts: dict[str, dict[str, list[int]]] = {}
        self._keyed: dict[str, list[tuple[WordRef, str]]] | None = None

    def keyed_values(self) -> dict[str, list[tuple[WordRef, str]]]:
        """Per field, the words with a digit that stand right after a whole key of it on their line, with their
        comparison text (computed once)."""
        if self._keyed is None:
            self._keyed = {}
            for p, page in enumerate(self.doc.pages):
                for line in page.lines:
                    for w in line.word_indices[1:]:
                        text = page.words[w].text
                        if not any(ch.isdigit() for ch in text):
                            continue
                        hit = key_left(self, (WordRef(p, w),))
                        if hit is None or hit.distance > KEYED_VALUE_GAP_OF_HEIGHT * page.words[w].box.height:
                            continue
                        for label in hit.labels:
                            self._keyed.setdefault(label, []).append((WordRef(p, w), _compact(text)))
        return self._keyed

    def keys(self, kind: str) -> list[str]:
        """Every word's comparison key (:func:`recurrence_key`) in reading order, computed once per kind."""
        if kind not in self._recurrence_keys:
            self._recurrence_keys[kind] = [recurrence_key(self.doc.word(r).text, kind) for r in self.order]
        return self._recurrence_keys[kind]

    def starts(self, kind: str) -> dict[str, list[int]]:
        """Per first character, the reading-order positions of the words whose comparison key starts with it: where
        a printing of a value can start (computed once per kind)."""
        if kind not in self._starts:
            self._starts[kind] = {}
            for i, key in enumerate(self.keys(kind)):
                if key:
                    self._starts[kind].setdefault(key[0], []).append(i)
        return self._starts[kind]


def field_evidence(index: DocumentIndex, label: str, field: Mapping[str, Any], candidates: Sequence[Entity],
                   fields: Mapping[str, Mapping[str, Any]], checks: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """The :data:`FEATURES` of one output field. ``candidates``: every entity the model gave ``label``, the
    field's own first (most confident); ``fields``: the document's fields; ``checks``: its validation checks."""
    doc = index.doc
    entity = candidates[0]
    kind = field.get("type") or FIELD_TYPES.get(label, "string")
    own_key, other_key = key_words(index, entity, label)
    words = entity.words
    ocr = [doc.word(r).confidence for r in words if doc.word(r).confidence is not None]
    return {
        "raw_logit": logit(entity.confidence),
        "unnormalised": float(is_unnormalised(field)),
        "odd_shape": float(odd_shape(label, kind, str(field.get("value", "")))),
        "key_own": float(own_key),
        "key_other": float(other_key),
        "recurs": float(recurs(index, entity, kind)),
        **check_evidence(label, fields, checks),
        "tax_rate": float(label in CHECKS_OF_FIELD and tax_rate_plausible(fields)),
        "dates_agree": float(dates_agree(fields)) if label in ("invoice_date", "due_date") else 0.0,
        "valid": {True: 1.0, False: -1.0}.get(field.get("valid"), 0.0),
        "rival_gap": rival_gap(doc, candidates),
        "ocr_doubt": 1.0 - sum(ocr) / len(ocr) if ocr else 0.0,
        "kind_date": float(kind == "date"),
        "kind_amount": float(kind == "amount"),
        "kind_id": float(label in IDENTIFIER_LABELS or kind in ("iban", "vat_id")),
        "kind_address": float(kind == "address"),
        "words_log": math.log(len(words)),
        **whole_key_evidence(index, entity, label),
        "tagger_agrees": tagger_agrees(doc, candidates),
        "by_candidates": float(entity.method == "candidates"),
        "by_rule": float(entity.method == "rule"),
        "letter_spaced": float(kind in ("string", "address") and letter_spaced(str(field.get("value", "")))),
        "keyed_rival": keyed_rival(index, entity, label),
        "by_block": float(entity.method == "block"),
        "other_party": other_party(label, field, fields),
    }


OTHER_PARTY = {"vendor_name": "customer_name", "customer_name": "vendor_name",
               "vendor_address": "billing_address", "billing_address": "vendor_address"}


def other_party(label: str, field: Mapping[str, Any], fields: Mapping[str, Mapping[str, Any]]) -> float:
    """1 when a party's name or address is the other party's too (the seller's name given as the buyer's): one of
    the two is wrong."""
    other = fields.get(OTHER_PARTY.get(label, ""))
    if other is None:
        return 0.0
    mine, theirs = _compact(str(field.get("value", ""))), _compact(str(other.get("value", "")))
    return float(bool(mine) and (mine in theirs or theirs in mine))


def _compact(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def keyed_rival(index: DocumentIndex, entity: Entity, label: str) -> float:
    """1 when a value other than this one stands right after a whole key of ``label`` (:meth:`keyed_values`)."""
    keyed = index.keyed_values().get(label, [])
    if not keyed:
        return 0.0
    own_words = set(entity.words)
    value = _compact(entity.text(index.doc))
    return float(any(ref not in own_words and text not in value and value not in text for ref, text in keyed))


def whole_key_evidence(index: LineIndex, entity: Entity, label: str) -> dict[str, float]:
    """``key_whole_own`` / ``key_whole_other``: the whole key left of the value or over it names this field, or
    only other fields."""
    hits = [hit for hit in (key_left(index, entity.words), key_above(index, entity.words)) if hit is not None]
    own = any(label in hit.labels for hit in hits)
    return {"key_whole_own": float(own), "key_whole_other": float(bool(hits) and not own)}


def tagger_agrees(doc: Document, candidates: Sequence[Entity]) -> float:
    """+1 the tagger's own entities of the label include the field's value, -1 they hold only other values, 0 none."""
    value = "".join(candidates[0].text(doc).split()).casefold()
    tagged = ["".join(e.text(doc).split()).casefold() for e in candidates if e.method == "model"]
    if not tagged:
        return 0.0
    return 1.0 if value in tagged else -1.0


def letter_spaced(text: str) -> bool:
    """Two single letters in a row: "R E Francois Communication EURL" (OCR of a letter-spaced name)."""
    words = text.split()
    return any(len(a) == 1 == len(b) and a.isalpha() and b.isalpha() for a, b in zip(words, words[1:]))


NAME_JOINERS = frozenset({"and", "und", "et", "en", "y", "e", "&"})  # words that join two names, never end one


def odd_shape(label: str, kind: str, text: str) -> bool:
    """The printed value does not look like its kind: an amount with letters or printed like a date, a date
    without two parts or that is a time, an identifier without a digit, a name or address without a letter
    (or with an HTML entity), a party name that is only a legal form."""
    text = unicodedata.normalize("NFKC", text).strip()
    if not text:
        return True
    if kind == "amount":
        return bool(_DATE_SHAPE.search(text)) or not _AMOUNT_SHAPE.fullmatch(text)
    if kind == "date":  # a time of day ("18:02") or a lone year ("2022") is no date, though a lenient parser
        # fills in today's day and month; a month name counts as a group ("März 2024")
        numbers = re.findall(r"\d+", text)
        groups = len(numbers) + bool(re.search(r"[^\W\d_]{3,}", text))
        # a month and its year without a day ("maart 2024", "March 2024") names a billing month, not a day
        return groups < 2 or len(numbers) == 1 and len(numbers[0]) == 4 or bool(_TIME_SHAPE.fullmatch(text))
    if label in IDENTIFIER_LABELS or kind in ("iban", "vat_id"):
        return not any(ch.isdigit() for ch in text)
    if kind in ("string", "address"):
        if not any(ch.isalpha() for ch in text) or "&amp;" in text or "&#" in text:
            return True
        # a party name that is only a legal form ("GmbH"), or that ends in a joiner ("Nettoyage industriel et" of a
        # tagline): the model cut the name off
        return label in PARTY_NAME_LABELS and (set(key_tokens(text)) <= LEGAL_FORMS
                                               or text.split()[-1].lower() in NAME_JOINERS)
    return False


def key_words(index: DocumentIndex, entity: Entity, label: str) -> tuple[bool, bool]:
    """(a key word of ``label`` closes the text before the value, a key word of another field does instead).
    "Before": the words left of the value on its line, or the words of the nearest line above that stand over it."""
    own = other = False
    for context in _contexts(index, entity):
        labels, _ = closing_keys(context)
        if label in labels:
            own = True
        elif labels:
            other = True
    return own, other and not own


def _contexts(index: DocumentIndex, entity: Entity) -> Iterable[list[str]]:
    """The tokens left of the value on its row (its own line's words before it, else the nearest line segment to
    its left on the same row: layout splits "Gesamtbetrag ....... 1.190,00" into two lines), and the tokens of
    the words standing over it on the nearest line above."""
    doc, first = index.doc, entity.words[0]
    if first not in index.line_of:
        return
    page = doc.pages[first.page_index]
    line_index, position = index.line_of[first]
    own_words = set(entity.words)
    line = page.lines[line_index]
    value_box = Box.enclosing([doc.word(r).box for r in entity.words
                               if r.page_index == first.page_index and index.line_of.get(r, (None,))[0] == line_index])
    left = [w for w in line.word_indices[:position] if WordRef(first.page_index, w) not in own_words]
    if not left:
        row = [other for other in page.lines if other is not line and other.box.x1 <= value_box.x0 + 1
               and other.box.vertical_overlap(value_box) > 0.5 * min(other.box.height, value_box.height)]
        if row:
            left = list(max(row, key=lambda other: other.box.x1).word_indices)
    if left:
        yield [t for w in left[-CONTEXT_WORDS:] for t in key_tokens(page.words[w].text)]
    above = None
    for candidate in page.lines:
        if candidate is line or candidate.box.bottom > value_box.top + 0.3 * value_box.height:
            continue
        if value_box.top - candidate.box.bottom > ABOVE_LINES_OF_HEIGHT * max(value_box.height, 1e-6):
            continue
        if candidate.box.horizontal_overlap(value_box) <= 0:
            continue
        if above is None or candidate.box.bottom > above.box.bottom:
            above = candidate
    if above is not None:
        over = [w for w in above.word_indices if page.words[w].box.horizontal_overlap(value_box) > 0]
        if over:
            yield [t for w in over for t in key_tokens(page.words[w].text)]


def recurrence_key(text: str, kind: str) -> str:
    """The form two printings of one value share: an amount's digits ("1.190,00 €" and "1190.00" agree),
    otherwise its letters and digits, case-folded."""
    text = unicodedata.normalize("NFKC", text)
    if kind == "amount":
        return "".join(ch for ch in text if ch.isdigit())
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def recurs(index: DocumentIndex, entity: Entity, kind: str) -> bool:
    """Whether the value is printed again, outside its own words, as a run of words whose keys join to its key."""
    keys = index.keys(kind)
    value = "".join(recurrence_key(index.doc.word(r).text, kind) for r in entity.words)
    if len(value) < RECURRENCE_MIN_CHARACTERS:
        return False
    own = set(entity.words)
    span = len(entity.words) + (2 if kind == "amount" else 0)  # "1 190,00 €" may be split differently elsewhere
    for start in index.starts(kind).get(value[0], ()):  # a printing starts with the value's first character
        if index.order[start] in own:
            continue
        joined = ""
        for offset in range(span):
            i = start + offset
            if i >= len(keys) or index.order[i] in own:
                break
            joined += keys[i]
            if joined == value and keys[i]:
                return True
            if len(joined) >= len(value) or not value.startswith(joined):
                break
    return False


def check_evidence(label: str, fields: Mapping[str, Mapping[str, Any]], checks: Sequence[Mapping[str, Any]]
                   ) -> dict[str, float]:
    """``check_pass`` / ``check_fail``: whether the arithmetic involving ``label`` holds or fails."""
    status = {c.get("name"): c.get("status") for c in checks}
    results = [status.get(name) for name in CHECKS_OF_FIELD.get(label, ())]
    if label == "amount_due":
        due, total = _amount(fields.get("amount_due")), _amount(fields.get("total"))
        if due is not None and total is not None:
            results.append("pass" if due == total else ("fail" if due > total else None))
    return {"check_pass": float("pass" in results), "check_fail": float("fail" in results)}


def tax_rate_plausible(fields: Mapping[str, Mapping[str, Any]]) -> bool:
    """tax / subtotal (or tax / (total - tax) without a subtotal) is within rounding of a VAT rate."""
    tax, subtotal, total = (_amount(fields.get(k)) for k in ("total_tax", "subtotal", "total"))
    if tax is None:
        return False
    base = subtotal if subtotal is not None else (total - tax if total is not None else None)
    if base is None or base <= 0:
        return False
    rate = float(tax / base * 100)
    return any(abs(rate - r) <= TAX_RATE_TOLERANCE for r in VAT_RATES)


def dates_agree(fields: Mapping[str, Mapping[str, Any]]) -> int:
    """+1 the due date is on or after the invoice date and within a year; -1 it is before; 0 one is missing."""
    issued, due = _date(fields.get("invoice_date")), _date(fields.get("due_date"))
    if issued is None or due is None:
        return 0
    if due < issued:
        return -1
    return 1 if (due - issued).days <= MAX_DUE_DAYS else 0


def rival_gap(doc: Document, candidates: Sequence[Entity]) -> float:
    """The best candidate's confidence minus the best confidence of a candidate with a different value."""
    best = candidates[0]
    text = "".join(best.text(doc).split())
    rivals = [c.confidence for c in candidates[1:] if "".join(c.text(doc).split()) != text]
    return best.confidence - max(rivals) if rivals else 1.0


def _amount(field: Mapping[str, Any] | None) -> Decimal | None:
    normalized = (field or {}).get("normalized")
    if not isinstance(normalized, dict):
        return None
    try:
        return Decimal(normalized["amount"])
    except (InvalidOperation, KeyError, TypeError):
        return None


def _date(field: Mapping[str, Any] | None) -> date | None:
    normalized = (field or {}).get("normalized")
    try:
        return date.fromisoformat(normalized) if isinstance(normalized, str) else None
    except ValueError:
        return None
