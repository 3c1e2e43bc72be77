"""A totals table's sum row, read by its column headers.

German ERP invoices print their totals as a table: a header row of keys ("Warenwert | Nettobetrag | MwSt-Betrag |
Endbetrag"), a row per VAT rate, and a last row that adds them up ("-7,90 0,23 -7,67 -1,12 EUR -8,79"), with no key
on its own row. The header's keys sit over the first rate's amounts, so a key above the value names the wrong row;
the field's value is the column's sum (ZUGFeRD 1's sample invoices: subtotal, tax and total of every corrective
invoice missed by a fold model that never saw them, and the candidate scorer, fitted on other producers, took the
first rate's amounts under the keys).

:func:`column_sums`: for each amount that is the exact sum of two or more amounts stacked right over it, on lines
of values only, under a header cell that is a whole key of one amount field, and with no key on its own row, that
field gets it, where the header row keys two or more summed totals so (one summed column is a receipt's items). A
line-item table's rows hold descriptions, so its "Amount" column is never walked; a subtotal row printed under it
has its key on its row. Where two columns name one field ("Warenwert" and "Nettobetrag" both key
the subtotal) the rightmost wins: such a table reads left to right from the goods' value through the adjustments.
A VAT table of one rate has no sum row: its rate row's net, tax and gross amounts under their header keys are the
fields' where net + tax = gross (:func:`_one_rate_row_amounts`). :func:`with_column_sums` makes each such sum its
field's value, over the tagger's and the scorer's choice.
"""

from __future__ import annotations

from typing import Collection, Mapping, Sequence

from docextract.document import Document, WordRef
from docextract.extraction.candidate_scorer import replace_unassigned
from docextract.extraction.candidates import AMOUNT_KEY_LABELS, KEY_LABELS, Candidate, generate
from docextract.extraction.entities import LINE_ITEM_PREFIX, Entity
from docextract.extraction.field_keywords import key_tokens
from docextract.extraction.key_context import (LineIndex, cell_around, key_above, key_left, line_above, line_index,
                                              whole_key, words_left_on_row)
from docextract.extraction.key_values import mean_probability
from docextract.extraction.normalize import parse_number

PAYABLE = frozenset({"total", "amount_due"})  # one printed amount is both where nothing was paid before
MAX_RATE_ROWS = 8  # a sum's parts: one row per VAT rate (and a few adjustments)
MIN_TOTALS_IN_HEADER = 2  # distinct amount fields whose summed columns share the header row
HEADER_ROW_OF_HEIGHT = 0.5  # header keys whose middles are closer than this many key heights share a row
MAX_CODE_LETTERS = 3  # "EUR" in the VAT rate's column of the sum row: a currency code is part of a row of values
MAX_HEADER_KEY_WORDS = 4  # a crowded header line's key (_key_within), in words
NET_TAX_GROSS = frozenset({"subtotal", "total_tax", "total"})  # the keyed columns of a VAT table's rate row
MAX_ITEM_ROWS = 20  # the lines an item table's "Total" row stands under its header, at most


def column_sums(doc: Document, locale: str, year: int | None) -> dict[str, tuple[WordRef, ...]]:
    """The amount fields a totals table's sum row gives, with the sum's words."""
    index = line_index(doc)
    amounts = generate(doc, index, locale, year).get("amount", [])
    at_word = {c.words[0]: c for c in amounts}
    sums = []  # (label, the sum's candidate, the header key's box)
    for total in amounts:
        parts, header = _stacked_parts(index, at_word, total)
        if len(parts) < 2 or header is None or sum(p.value for p in parts) != total.value:
            continue
        named = header.labels & AMOUNT_KEY_LABELS
        if _heads_deductions(doc, header.words[0]):
            continue
        # (no key on the sum's row but the row's own "Gesamt" or "Total" in its first cell)
        if len(named) == 1 and (key_left(index, total.words, KEY_LABELS) is None or _in_total_row(index, total)):
            sums.append((next(iter(named)), total, doc.word(header.words[0])))
    sums += _total_row_amounts(index, amounts)
    sums += _one_rate_row_amounts(index, amounts)
    found: dict[str, tuple[float, tuple[WordRef, ...]]] = {}
    for label, total, key in sums:
        # a totals table's header names several totals; a receipt's "Amount" column over its items, summed on an
        # unkeyed line, is the subtotal at most (SROIE: 2 totals of 347 taken so, before this check)
        row = {other for other, sum_, other_key in sums if sum_.words[0].page_index == total.words[0].page_index
               and abs(other_key.box.center[1] - key.box.center[1]) < HEADER_ROW_OF_HEIGHT * key.box.height}
        if len(row) < MIN_TOTALS_IN_HEADER:
            continue
        x = doc.word(total.words[0]).box.x0
        if label not in found or x > found[label][0]:
            found[label] = (x, total.words)
    return {label: words for label, (_, words) in found.items()}


def with_column_sums(doc: Document, entities: Sequence[Entity], labels: Collection[str],
                     probabilities: Mapping[WordRef, Mapping[str, float]], locale: str, year: int | None) -> list[Entity]:
    """``entities`` with each totals-table sum (:func:`column_sums`) of the model's ``labels`` its field's value (``method: "rule"``, the
    tagger's mean probability of the label as its confidence); the label's other entities become its alternatives,
    and a line item's tag on the sum row goes. A sum another field holds stays that field's, but for the total and
    the amount due, which share one printed amount."""
    out = list(entities)
    sums = column_sums(doc, locale, year)
    for label, words in sums.items():
        # an owner that another column's sum displaces holds nothing: a scorer that took the table's total as
        # the subtotal ("-8,79" under "Endbetrag") loses the subtotal to "-7,67" under "Nettobetrag"
        # (nor does a tag another entity of its label was chosen over: an alternative, no field's value; nor the
        # currency a model read on the amount's glued sign, "€163.05")
        chosen = {e.label for e in out if e.assigned}
        owners = [e for e in out if set(e.words) & set(words) and e.label not in (label, "currency")
                  and not (e.label in sums and e.label in labels and set(sums[e.label]) != set(e.words))
                  and (e.assigned or e.label not in chosen)]
        items = [e for e in owners if e.label.startswith(LINE_ITEM_PREFIX) and set(e.words) <= set(words)]
        if label not in labels or any(e not in items and not {e.label, label} <= PAYABLE for e in owners):
            continue
        value = parse_number(" ".join(doc.word(r).text for r in words), locale)
        if any(e.label == label and e.assigned and parse_number(e.text(doc), locale) == value for e in out):
            continue  # the field holds the same amount already, printed elsewhere ("Grand Total Rs. 1,099.00")
        confidence = mean_probability(words, label, probabilities)
        out = [replace_unassigned(e) if e.label == label else e for e in out if e not in items]
        out.append(Entity(label, words, confidence, "rule", assigned=True))
    return out


def _total_row_amounts(index: LineIndex, amounts: Sequence[Candidate]):
    """(label, amount, header key's word) for each amount of an item table's "Total" row under a header cell that is a
    whole key of one amount field: an Indian GST invoice's "Total | 1 | 1,299.00 | -200.00 | 931.36 | 167.64 |
    1,099.00" under "Qty | Gross Amount | Discount | Taxable Value | IGST | Total" (its item rows between)."""
    doc = index.doc
    out = []
    for amount in amounts:
        left = key_left(index, amount.words, KEY_LABELS)
        if left is not None and left.labels != {"total_row"} or not _in_total_row(index, amount):
            continue  # (the sum row's own first cell is no key of the amount right after it: "Razem 2 000,00")
        header = _column_header(index, amount)
        named = header.labels & AMOUNT_KEY_LABELS if header is not None else set()
        if len(named) == 1:
            out.append((next(iter(named)), amount, doc.word(header.words[0])))
    return out


def _one_rate_row_amounts(index: LineIndex, amounts: Sequence[Candidate]):
    """(label, amount, header key's word) for the amounts of a VAT table of one rate: a row of values right under
    a header row whose cells key its net, tax and gross amounts ("MwSt.-Satz | Netto | MwSt. | Brutto" over "A 19 % |
    519,32 | 98,67 | 617,99"), where net + tax = gross and no row of values follows in its columns (a table of
    several rates ends in a sum row: :func:`column_sums`). A shop's prices include VAT: its items add up to the
    gross amount, which the scorer took for the subtotal too."""
    doc = index.doc
    keyed = []  # (label, amount, header key)
    for amount in amounts:
        header = key_above(index, amount.words, KEY_LABELS)
        named = header.labels & NET_TAX_GROSS if header is not None else set()
        if len(named) == 1:
            keyed.append((next(iter(named)), amount, header))
    lines_over_values: set[int] | None = None  # the lines some amount stands under, found once a row adds up
    out = []
    for label, amount, header in keyed:
        if label != "total":
            continue
        box = doc.word(amount.words[0]).box
        row = {other_label: (other, other_header) for other_label, other, other_header in keyed
               if other.words[0].page_index == amount.words[0].page_index
               and abs(doc.word(other.words[0]).box.center[1] - box.center[1]) < HEADER_ROW_OF_HEIGHT * box.height}
        if set(row) != NET_TAX_GROSS or row["subtotal"][0].value + row["total_tax"][0].value != amount.value:
            continue
        if lines_over_values is None:
            lines_over_values = {id(found[0]) for c in amounts if (found := line_above(index, c.words)) is not None}
        if any(id(index.line(c.words[0])) in lines_over_values for c, _ in row.values()):
            continue  # a row of values under it: one rate of several
        first = min((c for c, _ in row.values()), key=lambda c: doc.word(c.words[0]).box.x0)
        left = words_left_on_row(doc, first.words[0], slack=1.0)
        if not _values_only(doc, left) and not _names_its_rate(doc, left):
            continue  # an item's row: a description before its amounts (not a rate's name: "Standard 23%")
        out += [(name, c, doc.word(h.words[0])) for name, (c, h) in row.items()]
    return out


def _in_total_row(index: LineIndex, amount: Candidate) -> bool:
    """Whether the amount's row starts with a whole key of the total alone ("Total", "Gesamt") or of a sum row ("Razem")
    followed by values."""
    doc, first = index.doc, amount.words[0]
    words = words_left_on_row(doc, first, slack=1.0)
    if not words:
        return False
    label_cell = cell_around(doc, words, 0, 0, max(doc.word(first).box.height, 1e-6))
    hit = whole_key(doc, label_cell, KEY_LABELS)
    return (hit is not None and hit.labels in ({"total"}, {"total_row"}) and hit.words[0] == label_cell[0]
            and _values_only(doc, words[len(label_cell):]))


def _column_header(index: LineIndex, amount: Candidate):
    """The whole key heading the amount's column: up the lines over it (item rows between) to the first whose cell
    over it is a key, within :data:`MAX_ITEM_ROWS` lines; None where a cell of words that is no key comes first."""
    doc, current = index.doc, amount.words
    for _ in range(MAX_ITEM_ROWS):
        found = line_above(index, current)
        if found is None:
            return None
        above, box = found
        page_index = current[0].page_index
        words = [WordRef(page_index, w) for w in above.word_indices]
        over = [r for r in words if doc.word(r).box.horizontal_overlap(box) > 0]
        if not over:
            return None
        hit = key_above(index, current, KEY_LABELS) or _key_within(doc, words, over)
        if hit is not None:
            return hit
        if not _values_only(doc, over):
            return None
        current = tuple(over)
    return None


def _key_within(doc: Document, words: Sequence[WordRef], over: Sequence[WordRef]):
    """The shortest whole key among a header line's ``words`` that holds the words ``over`` the value, where the
    header's cells stand too close to part ("Discount Rs. Taxable Value Rs. IGST Rs." in one narrow row)."""
    first, last = words.index(over[0]), words.index(over[-1])
    spans = sorted(((start, end) for start in range(first, max(-1, first - MAX_HEADER_KEY_WORDS), -1)
                    for end in range(last, min(len(words), last + MAX_HEADER_KEY_WORDS))),
                   key=lambda span: span[1] - span[0])
    for start, end in spans:
        hit = whole_key(doc, words[start:end + 1], KEY_LABELS)
        if hit is not None and hit.words[0] == words[start]:
            return hit
    return None


def _stacked_parts(index: LineIndex, at_word: dict[WordRef, Candidate], total: Candidate):
    """The amounts stacked right over ``total`` in its column, nearest first, on lines of values only, and the key
    of the header cell over the topmost (None where the column does not end at a key)."""
    parts: list[Candidate] = []
    current = total
    for _ in range(MAX_RATE_ROWS + 1):
        found = line_above(index, current.words)
        if found is None:
            return parts, None
        above, box = found
        page_index = current.words[0].page_index
        if not _values_only(index.doc, [WordRef(page_index, w) for w in above.word_indices]):
            return parts, (key_above(index, current.words, KEY_LABELS) if parts else None)
        over = [at_word[r] for w in above.word_indices if (r := WordRef(page_index, w)) in at_word
                and index.doc.word(r).box.horizontal_overlap(box) > 0]
        if len(over) != 1:
            return parts, None
        current = over[0]
        parts.append(current)
    return parts, None


# A table's heading that says its rows are taken off the invoice's amount ("abzgl. bereits gestellter
# Abschlagsrechnungen | netto | USt. | brutto", "Less: payments on account", "À déduire : situations précédentes"):
# a final invoice deducting its partial invoices, whose sum row adds the deductions up, not the invoice's amounts
DEDUCTION_WORDS = frozenset({"abzgl", "abzuglich", "less", "deduct", "deducted", "deduction", "deductions", "minus",
                             "deduire", "moins", "af", "verminderd", "dedurre", "detraer"})


def _heads_deductions(doc: Document, header: WordRef) -> bool:
    """Whether the first word of the header key's row (its cells left of the key included) is a deduction word."""
    row = words_left_on_row(doc, header) or [header]
    tokens = key_tokens(doc.word(row[0]).text)
    return bool(tokens) and tokens[0] in DEDUCTION_WORDS


def _names_its_rate(doc: Document, words: Sequence[WordRef]) -> bool:
    """Whether the words before a VAT table's row are its rate and a word or two naming it ("Standard 23%", "Reduced
    rate 9 %", "Taux normal 20 %")."""
    texts = [doc.word(r).text for r in words]
    return (0 < len(texts) <= MAX_RATE_NAME_WORDS and texts[-1].endswith("%")
            and any(ch.isdigit() for ch in "".join(texts)))


MAX_RATE_NAME_WORDS = 4


def _values_only(doc: Document, words: Sequence[WordRef]) -> bool:
    """Whether a line holds values only: numbers, signs, currency codes, and codes of capitals and digits (a VAT
    table's tax code "TVA_C20", as Dynamics 365 prints it before its rate's amounts)."""
    for r in words:
        text = doc.word(r).text
        letters = "".join(ch for ch in text if ch.isalpha())
        if letters and not (letters.isupper() and (len(letters) <= MAX_CODE_LETTERS or any(ch.isdigit() for ch in text))):
            return False
    return True
