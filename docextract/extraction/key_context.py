"""Where a value's key stands: left of it on its row, or over it in its column; whole keys only.

Invoice tools print a field's key in one of a few places relative to its value, whatever their layout:

* on the value's own line, right before it: ``Factuurnummer: 993012``, ``Invoice No : # BLR_0042``,
  ``Kundennr. 123  Rechnungsnr. 4711`` (the key need not start the line: the line reader often joins a key to a
  table header or an address on its left);
* in a column of its own, on the value's row: ``Invoice No.`` at the left margin, the value far to its right;
* over the value, in a header row: ``Invoice No. | Date | Customer`` above ``4711 | 01.02.2024 | ACME``.

:func:`key_left` and :func:`key_above` read the key in these places. A key is *whole* when nothing that belongs to
it stands before it: its first word starts the line or the cell (after a wide gap), or follows a value (a word with
a digit), a word that ends with a colon, or a company's legal form ("ACME B.V. Invoice No"). "Date" of "Delivery Date:" is no whole key of the invoice date; "Date"
after "Invoice 2024-001" is. Separators between key and value (":", "#", "-", "|", "n°") are skipped.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from typing import Sequence

from docextract.document import Box, Document, Line, WordRef
from docextract.extraction.field_keywords import closing_keys, is_legal_form, key_tokens, trim_context, whole_key_fields
from docextract.extraction.normalize import (MONTH_NUMBERS, SIGNS_BEFORE_AN_AMOUNT, glued_sign, number_sign_glued,
                                             parse_date)
from docextract.extraction.per_document import per_document

MAX_KEY_WORDS = 6  # a key is a short label, not a sentence
# A gap between two words of one line wider than this many line heights separates two cells: a key after it is whole.
CELL_GAP_OF_HEIGHT = 1.2
# Tesseract's boxes hug the ink (capitals and digits: ~0.7 of the font size), a text layer's span the font's whole
# height: the same 8-pt line of the e-invoices is 10.0 points high in the PDF and 7.0 on its scan, where the space
# before "99" of "Musterstr. 99" grows from 6 to 9 points. Gap rules read an OCR'd line as this many times its box
# high, so that its gaps are measured in the same heights as a text layer's.
OCR_TEXT_HEIGHT_OF_INK = 1.4
MAX_SIGN_PIECES_BESIDE = 2  # lines of signs only that key_left looks past for the key of a row
ABOVE_LINES_OF_HEIGHT = 3.0  # a header stands within this many value heights above its value
WRAP_GAP_OF_HEIGHT = 0.8  # a key's two lines stand closer than this many text heights apart
PART_DASHES = frozenset({"-", "–", "—", "·", "•", "∙"})  # alone between the parts of one line
SEPARATORS = frozenset(":#-–|/.*")  # words made only of these stand between a key and its value


@dataclass(frozen=True)
class KeyHit:
    """A whole key before a value: the fields it names, its words, and how far it stands from the value (points
    between the key's end and the value's start, left keys; between the key's bottom and the value's top, above)."""

    labels: frozenset[str]
    words: tuple[WordRef, ...]
    distance: float


class LineIndex:
    """Each word's line and position in it, built once per document."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.line_of: dict[WordRef, tuple[int, int]] = {}
        for p, page in enumerate(doc.pages):
            for li, line in enumerate(page.lines):
                for position, w in enumerate(line.word_indices):
                    self.line_of[WordRef(p, w)] = (li, position)
        self._left_on_row: dict[WordRef, Line | None] = {}
        self._by_top: dict[int, tuple[list[float], list[int], float]] = {}
        self._words_by_top: dict[int, tuple[list[float], list[int], float]] = {}

    def line(self, ref: WordRef) -> Line | None:
        where = self.line_of.get(ref)
        return None if where is None else self.doc.pages[ref.page_index].lines[where[0]]

    def line_left_on_row(self, ref: WordRef) -> Line | None:
        """The nearest line left of ``ref``'s on its row (a key column's cell), or None: the lines that end before
        the word starts and share most of its height, the one that ends last. Asked for the same word by every
        field's key lookup, so it is answered once."""
        if ref not in self._left_on_row:
            lines = self.doc.pages[ref.page_index].lines
            line, box = self.line(ref), self.doc.word(ref).box
            tops, by_top, tallest = self._lines_by_top(ref.page_index)
            # only a line that starts less than the tallest line's height above the word can overlap it
            near = sorted(by_top[bisect.bisect_right(tops, box.top - tallest):bisect.bisect_left(tops, box.bottom)])
            row = [lines[i] for i in near if lines[i] is not line and lines[i].box.x1 <= box.x0 + 1
                   and lines[i].box.vertical_overlap(box) > 0.5 * min(lines[i].box.height, box.height)
                   and _middle_within(lines[i].box, box)]
            self._left_on_row[ref] = max(row, key=lambda other: other.box.x1) if row else None
        return self._left_on_row[ref]

    def lines_reaching(self, page_index: int, low: float, high: float) -> list[int]:
        """The indices, in page order, of the page's lines that may reach between ``low`` and ``high`` (a superset:
        every line whose top is at most ``high`` and whose bottom is at least ``low``, and a few more); the callers
        keep their own exact tests, asked now of a few lines instead of every line of the page."""
        return _reaching(self._lines_by_top(page_index), low, high)

    def words_reaching(self, page_index: int, low: float, high: float) -> list[int]:
        """As :meth:`lines_reaching`, of the page's words."""
        if page_index not in self._words_by_top:
            self._words_by_top[page_index] = _by_top([word.box for word in self.doc.pages[page_index].words])
        return _reaching(self._words_by_top[page_index], low, high)

    def _lines_by_top(self, page_index: int) -> tuple[list[float], list[int], float]:
        """A page's line tops in ascending order, the lines' indices in that order, and the tallest line's height."""
        if page_index not in self._by_top:
            self._by_top[page_index] = _by_top([line.box for line in self.doc.pages[page_index].lines])
        return self._by_top[page_index]


def _reaching(by_top: tuple[list[float], list[int], float], low: float, high: float) -> list[int]:
    """Of boxes sorted by their tops (:func:`_by_top`), the indices, ascending, of those whose top lies within the
    tallest box's height above ``low`` and ``high``: every box that may reach between the two."""
    tops, order, tallest = by_top
    return sorted(order[bisect.bisect_left(tops, low - tallest):bisect.bisect_right(tops, high)])


def _by_top(boxes: Sequence[Box]) -> tuple[list[float], list[int], float]:
    """The boxes' tops in ascending order, their indices in that order, and the tallest box's height (every reader
    gives boxes whose top is over their bottom: a box reaches at most the tallest's height below its top)."""
    order = sorted(range(len(boxes)), key=lambda i: boxes[i].top)
    return [boxes[i].top for i in order], order, max((box.height for box in boxes), default=0.0)


def _middle_within(line: Box, word: Box) -> bool:
    """Whether the line's middle lies within the word's height: a line on the word's row (a dash OCR boxed apart, a
    taller title centred beside it), not a heading beside it whose foot the word's top overlaps (gen-invoice's
    "Invoice" over its "#IN1900956", a tax id in the next column beside the heading's foot: the heading keys the
    number under it, not the tax id)."""
    return word.top <= line.center[1] <= word.bottom


@per_document
def line_index(doc: Document) -> LineIndex:
    """The document's :class:`LineIndex`, built once however many steps ask for it."""
    return LineIndex(doc)


def is_separator(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and (all(ch in SEPARATORS for ch in stripped) or key_tokens(stripped) == ["no"]
                               and not any(ch.isalpha() for ch in stripped.replace("°", "").replace("º", "")))


def _ends_a_cell(doc: Document, before: WordRef, after: WordRef, height: float) -> bool:
    """Whether a key may start at ``after`` given the word ``before`` it on the same line."""
    text = doc.word(before).text.strip()
    if text.endswith((":", ";", "|")) or any(ch.isdigit() for ch in text):
        return True
    if text in PART_DASHES:  # "... R.C.S. Paris - TVA intracommunautaire FR03552081317": a footer's parts
        return True
    if is_legal_form(text):  # "ACME B.V. Invoice No": a name ends with its legal form
        return True
    if _WEB_OR_MAIL.fullmatch(text):  # "www.acme.be  TVA: BE0477472701": a footer's address is a value of its own
        return True
    return cell_break(doc, before, after, height)


_WEB_OR_MAIL = re.compile(r"(?:[\w.+-]+@|www\.|https?://)[\w.-]+\.[a-z]{2,}[\w./-]*", re.IGNORECASE)


def _is_value_word(text: str) -> bool:
    """A word that is part of a value, not of a key: no letters ("01/01/24", "-") or a month's name ("January")."""
    letters = "".join(ch for ch in text if ch.isalpha()).casefold()
    return not letters or letters in MONTH_NUMBERS


def _is_value_or_filler(text: str) -> bool:
    """A value word, or a word printed between a key and its value that says nothing itself: a currency code
    ("RM 50.00" on its own line beside "CASH")."""
    return _is_value_word(text) or not trim_context(key_tokens(text)) or text.rstrip(".") in SIGNS_BEFORE_AN_AMOUNT


# EN 16931's VAT category codes (UNCL5305: standard, zero, exempt, reverse charge, intra-community, export, outside
# scope, Canary Islands, Ceuta and Melilla) in parentheses after a rate: "19 % VAT (S)", "7 % UST (S)"
_TAX_CATEGORY = re.compile(r"\((?:S|Z|E|AE|K|G|O|L|M)\)")
_OCR_TAX_CATEGORY = re.compile(r"\((?:S|5|\$|Z|2|E|AE|K|G|O|0|L|M)\)")  # OCR reads "(S)" as "(5)", "(Z)" as "(2)"


def _is_tax_category(doc: Document, ref: WordRef) -> bool:
    category = _OCR_TAX_CATEGORY if doc.pages[ref.page_index].text_source == "ocr" else _TAX_CATEGORY
    return category.fullmatch(doc.word(ref).text.strip(":")) is not None


def _ends_in_a_value(text: str) -> bool:
    """A word that ends a key's words only as a keyed identifier would ("88-114" of "PO 88-114"): a digit and a
    hyphen or slash between digits, and no date ("01.04.2014 - 30.06.2014": the range's end has its start's key)."""
    text = text.strip(":;,.")
    return bool(NUMBER_IN_PARTS.search(text)) and not _DATE_LIKE.fullmatch(text)


def _net_days(doc: Document, words: Sequence[WordRef]) -> bool:
    """Whether ``words`` end in payment terms of net days ("Net 30", "Netto 14")."""
    if len(words) < 2 or not doc.word(words[-1]).text.strip(":;,.").isdigit():
        return False
    return key_tokens(doc.word(words[-2]).text) in (["net"], ["netto"]) and int(doc.word(words[-1]).text.strip(":;,.")) <= MAX_NET_DAYS


MAX_NET_DAYS = 120
NUMBER_IN_PARTS = re.compile(r"\d[-/]\d")  # "19-32", "123/2024": a number printed in parts
_DATE_LIKE = re.compile(r"\d{1,4}[./-]\d{1,2}(?:[./-]\d{2,4})?")


def _without_closing_parenthetical(doc: Document, words: Sequence[WordRef]) -> Sequence[WordRef]:
    """``words`` without the parenthetical of several words that ends them ("(exkl. USt.)"), when there is one."""
    if len(words) < 2 or not doc.word(words[-1]).text.rstrip(":").endswith(")"):
        return words
    for start in range(len(words) - 1, max(-1, len(words) - 1 - MAX_KEY_WORDS), -1):
        text = doc.word(words[start]).text
        if text.startswith("("):
            return words[:start] if ")" not in text else words  # "(EUR)" alone: key_tokens drops it already
    return words


def whole_key(doc: Document, words: Sequence[WordRef], labels: frozenset[str] | None = None,
              sign_glued: bool = False) -> KeyHit | None:
    """The longest whole key that ends ``words`` (the words right before a value, separators already dropped):
    its words are exactly a key of one or more fields (fillers such as "(EUR)" or "19 %" after it allowed) and the
    word before it, if any, ends a cell (a value, a colon, a legal form, a wide gap). ``labels``: only keys of these fields count.
    A qualifier in parentheses after the key is not part of it: "Rechnungssumme Netto (exkl. USt.)" keys the
    subtotal, not the tax its "USt." names."""
    given, words = words, _without_closing_parenthetical(doc, words)
    if not words or _GLUED_IDENTIFIER.fullmatch(doc.word(words[-1]).text.strip(":;,.")):
        return None  # "PO-99845" left of the next value is a value: its "PO" is no key of that one
    if not sign_glued and _ends_in_a_value(doc.word(words[-1]).text):
        return None  # nor is the "PO" of "PO 88-114" a key of the "1/1" after it (a header row's values in one line)
    if _is_tax_category(doc, words[-1]):
        return None  # "19 % VAT (S)": a row's tax category, as EN 16931's visualisations print it, keys no amount
    if _net_days(doc, words):
        return None  # "Net 30" in a header row's TERMS column: payment terms, no subtotal's key of the value after it
    height = max(doc.word(words[-1]).box.height, 1e-6)
    best: KeyHit | None = None
    tokens: list[str] = []
    for start in range(len(words) - 1, max(-1, len(words) - 1 - MAX_KEY_WORDS), -1):
        glued = sign_glued and start == len(words) - 1
        # (a glued sign keys as a number's sign, a glued "Factura:" as itself)
        tokens = ((key_tokens(glued_sign(doc.word(words[start]).text)) or ["no"]) if glued
                  else key_tokens(doc.word(words[start]).text)) + tokens
        trimmed = trim_context(tokens)
        if not trimmed:
            continue
        keys, length = closing_keys(trimmed)
        if labels is not None:
            keys = keys & labels
        if not keys or length != len(trimmed):
            continue
        if start > 0 and not _ends_a_cell(doc, words[start - 1], words[start], height):
            continue
        best = KeyHit(frozenset(keys), tuple(words[start:]), 0.0)
    if best is None:
        best = _slashed_keys(doc, words, labels)
    if best is None and len(words) < len(given):
        best = _key_in_parenthetical(doc, given, words, labels)
    if best is None and (labels is None or "invoice_number" in labels):
        best = titled_number_key(doc, words, height, sign_glued)
    return best


def _slashed_keys(doc: Document, words: Sequence[WordRef], labels: frozenset[str] | None) -> KeyHit | None:
    """Two whole keys either side of a slash name one value as both: "Invoice date / Delivery date 12.03.2024" is the
    invoice's date and the delivery's (a key of the last part alone names only the delivery)."""
    slashes = [i for i, r in enumerate(words) if doc.word(r).text.strip() == "/"]
    if slashes and 0 < slashes[-1] < len(words) - 1:
        head_words, tail_words = words[:slashes[-1]], words[slashes[-1] + 1:]
    else:
        # the slash glued to either key: "Rechnungsdatum /Lieferdatum", "Invoice date/ Delivery date"
        cuts = [i for i, r in enumerate(words) if 0 < i and doc.word(r).text.startswith("/")]
        cuts += [i + 1 for i, r in enumerate(words) if i < len(words) - 1 and doc.word(r).text.endswith("/")]
        if not cuts:
            return None
        cut = max(cuts)  # 0 < cut < len(words): both parts shorter than the words
        head_words, tail_words = words[:cut], words[cut:]
    head = whole_key(doc, head_words, labels)
    tail = whole_key(doc, tail_words, labels)
    if head is None or tail is None:
        return None
    return KeyHit(head.labels | tail.labels, (*head.words, *words[len(head_words):]), 0.0)


def _key_in_parenthetical(doc: Document, given: Sequence[WordRef], head: Sequence[WordRef],
                          labels: frozenset[str] | None) -> KeyHit | None:
    """The fields that the parenthetical ending ``given`` lists as the kinds its head stands for, where the head alone
    is no key: "Identifier (ABN/VAT number/etc.)" keys a tax id. Each alternative between slashes or commas must be
    a whole key ("etc." none)."""
    inside = " ".join(doc.word(r).text for r in given[len(head):]).strip(" :").strip("()")
    keys: set[str] = set()
    for alternative in re.split(r"[/,]", inside):
        tokens = trim_context(key_tokens(alternative))
        found, length = closing_keys(tokens) if tokens else (frozenset(), 0)
        if found and length == len(tokens):
            keys |= found
    if labels is not None:
        keys &= labels
    return KeyHit(frozenset(keys), tuple(given), 0.0) if keys else None


# A word that is an identifier, its letters and digits joined by a hyphen or slash ("PO-99845", "INV/2024/17"):
# trimmed of its digits it would read as a key ("PO")
_GLUED_IDENTIFIER = re.compile(r"[^\W\d_]+[-/]\d[\w\-/]*")
_TITLE_WORDS = frozenset({"invoice", "rechnung", "gutschrift", "facture", "avoir", "factuur", "creditnota", "fattura",
                          "factura", "faktura", "lasku", "fatura",
                          "faktury", "doklad", "dokladu"})  # Polish and Czech: "do faktury", "daňového dokladu"


def is_title_word(token: str) -> bool:
    return token in _TITLE_WORDS or token.endswith(("rechnung", "gutschrift"))  # "Teilrechnung", "Sammelgutschrift"


def titled_number_key(doc: Document, words: Sequence[WordRef], height: float, sign_glued: bool = False
                      ) -> KeyHit | None:
    """A document's title that says its number: "Rechnung des Versicherers (575) Nr.", "Teilrechnung Bau Nr.",
    "Gutschrift (Selbst ausgestellte Rechnung) (389) Nr.": a title word starts the key (at a cell's start), the
    number sign ends it, and a few words that qualify the title stand between. Their words are no key phrase of
    their own, so the exact match of :func:`whole_key` misses them."""
    if not words or not sign_glued and key_tokens(doc.word(words[-1]).text)[-1:] != ["no"]:
        return None
    for start in range(len(words) - 2, max(-1, len(words) - 1 - MAX_KEY_WORDS), -1):
        first = key_tokens(doc.word(words[start]).text)
        if first in ([word] for word in REFERENCE_WORDS) and start + 2 < len(words) and any(
                is_title_word(t) for r in words[start + 1:-1] for t in key_tokens(doc.word(r).text)):
            # "(dobropis) k daňovému dokladu č. 2024-0453": the number of the document a credit note corrects
            return KeyHit(frozenset({OTHER_NUMBER}), tuple(words[start:]), 0.0)
        if first and is_title_word(first[0]) and (
                start == 0 or _ends_a_cell(doc, words[start - 1], words[start], height)):
            if any(_names_another_number(doc, r) for r in words[start + 1:-1]):
                return None  # "Rechnung gemäß Bestellung Nr.": the order's number, not the invoice's
            between = [key_tokens(doc.word(r).text) for r in words[start + 1:-1]]
            if any(set(here) & REFERENCE_WORDS and nxt and is_title_word(nxt[0]) for here, nxt in zip(between, between[1:])):
                # "Gutschrift zu Rechnung Nr. RE-2024-0815": the number of the invoice a credit note corrects (not
                # "Beitragsrechnung zur Kraftfahrtversicherung Nr.": the word after the reference names no document)
                return KeyHit(frozenset({OTHER_NUMBER}), tuple(words[start:]), 0.0)
            return KeyHit(frozenset({"invoice_number"}), tuple(words[start:]), 0.0)
    return None


def _names_another_number(doc: Document, ref: WordRef) -> bool:
    """Whether the word is a key of a number other than the invoice's ("Bestellung", "Auftrag")."""
    return bool(whole_key_fields(key_tokens(doc.word(ref).text)) & _OTHER_NUMBERS)


_OTHER_NUMBERS = frozenset({"purchase_order"})  # an order number named inside a title's words
# Words by which a title refers to another document ("Gutschrift zu Rechnung Nr.", "Credit note for invoice no.",
# "Avoir sur facture n°"); the number after is that document's, keyed as OTHER_NUMBER (no output field)
REFERENCE_WORDS = frozenset({"zu", "zur", "zum", "bzgl", "betreffend", "bezuglich", "for", "to", "regarding",
                             "concerning", "re", "sur", "concernant", "bij", "op", "per", "a",
                             "k", "ke", "do"})  # Czech "(dobropis) k daňovému dokladu č.", Polish "korekta do faktury nr"
OTHER_NUMBER = "other_number"  # field_keywords' pseudo-field of it


def key_left(index: LineIndex, value: Sequence[WordRef], labels: frozenset[str] | None = None) -> KeyHit | None:
    """The whole key left of the value on its row: the words before it on its line (separators skipped), or, when
    none stand there or only values do (the start of a range), the nearest line to its left on the same row (a key
    column)."""
    doc, first = index.doc, value[0]
    where = index.line_of.get(first)
    if where is None:
        return None
    page = doc.pages[first.page_index]
    line = page.lines[where[0]]
    own = set(value)
    left = [WordRef(first.page_index, w) for w in line.word_indices[:where[1]]]
    left = [r for r in left if r not in own]
    number_sign = None  # "Order # 302-1234567-7654321": a number sign read as a separator may be the key's own
    while left and doc.word(left[-1]).text.rstrip(".") in SIGNS_BEFORE_AN_AMOUNT:
        left.pop()  # the sol's "S/" of "IGV S/ 8,845.20", whose "s" no key word ends in
    while left and is_separator(doc.word(left[-1]).text):
        number_sign = left[-1] if key_tokens(doc.word(left[-1]).text) == ["no"] else number_sign
        left.pop()
    if len(left) == 1 and _SERIES_LETTER.fullmatch(doc.word(left[0]).text):
        left.pop()  # "Serie y folio: | A 1587": a Mexican invoice's series letter before its number, in a key column
    value_box = doc.word(first).box
    # "Nr.471102": OCR read a tight key and its value as one word, whose sign ends the key ("Rechnung Nr."); where
    # the words before it make a key without the sign ("Invoice No. #4711"), that one
    glued = whole_key(doc, left + [first], labels, sign_glued=True) if number_sign_glued(doc.word(first).text) else None
    # nothing but values before it on its line ("01/01/24 - 01/31/24" beside "Billing Period:" in a key column):
    # the key is the row's, left of the line
    if all(_is_value_or_filler(doc.word(r).text) for r in left):
        beside = index.line_left_on_row(first)
        # a piece of the row with nothing but signs (the range's dash, that OCR boxed as a line of its own): the key
        # further left. Not past a piece with a value: a table row's amounts have no key left of the row
        for _ in range(MAX_SIGN_PIECES_BESIDE):
            if beside is None or not all(is_separator(page.words[w].text) for w in beside.word_indices):
                break
            beside = index.line_left_on_row(WordRef(first.page_index, beside.word_indices[0]))
        left = [] if beside is None else [WordRef(first.page_index, w) for w in beside.word_indices]
        number_sign = None  # "Order #" in a key column: its sign may be the key's own, as on the value's line
        while left and is_separator(doc.word(left[-1]).text):
            number_sign = left[-1] if key_tokens(doc.word(left[-1]).text) == ["no"] else number_sign
            left.pop()
    hit = (_payment_key_before_a_date(doc, left, value, labels) or whole_key(doc, left, labels) or glued
           or _wrapped_key(index, left, labels) or _key_of_a_rate(doc, left, labels)
           or _tax_id_abbreviation(doc, left, value) or _tax_named_after(doc, line, left, value, labels)
           or _place_before_its_date(doc, line, left, value))
    if hit is None and number_sign is not None and left and number_sign.word_index == left[-1].word_index + 1:
        hit = whole_key(doc, [*left, number_sign], labels)
    if hit is None and (before := _before_an_aside(doc, left)):
        hit = whole_key(doc, before, labels)
    hit = (_first_of_a_pair(doc, line, left, value, labels) or hit or _bare_number_over_a_date(doc, line, left, labels)
           or _key_before_its_date(doc, left, labels) or _sign_under_its_title(index, line, left))
    if hit is None or _a_registers_folio(doc, line, hit):
        return None
    hit = _date_of_the_invoice_referred_to(index, _date_of_the_number_before(index, _date_after_its_number(doc, hit,
                                                                                                       value)))
    if labels is not None and not hit.labels & labels:
        return None
    return KeyHit(hit.labels, hit.words, max(0.0, value_box.x0 - doc.word(hit.words[-1]).box.x1))


def _sign_under_its_title(index: LineIndex, line: Line, left: Sequence[WordRef]) -> KeyHit | None:
    """The invoice number's key where a line opens with a number sign alone right under a title line of a few words
    ("Fattura" over "n. 18/2024 del 9 settembre 2024", "FAKTURA – DAŇOVÝ DOKLAD" over "č. 2410400157"): the title's
    "Nr." wrapped onto the next line."""
    doc = index.doc
    # (or the sign after a series and its code: "PVM SĄSKAITA FAKTŪRA" over "Serija NMD Nr. 004512")
    series = len(left) == 3 and key_tokens(doc.word(left[0]).text) in ([w] for w in _SERIES_WORDS)
    if not (len(left) == 1 or series) or left[0].word_index != line.word_indices[0] or key_tokens(
            doc.word(left[-1]).text) != ["no"]:
        return None
    page = doc.pages[left[0].page_index]
    # (or on the title's row, far right of it: a Philippine "SALES INVOICE" ... "No. 0004127")
    found = line_above(index, left)
    for title, on_its_row in ((found[0] if found is not None else None, False),
                              (index.line_left_on_row(left[0]), True)):
        if title is None:
            continue
        tokens = [t for w in title.word_indices for t in key_tokens(page.words[w].text)]
        if tokens and len(tokens) <= MAX_TITLE_WORDS_OVER_A_SIGN and (
                is_title_word(tokens[0]) or (series or on_its_row) and any(is_title_word(t) for t in tokens)):
            return KeyHit(frozenset({"invoice_number"}), tuple(left), 0.0)
    return None


MAX_TITLE_WORDS_OVER_A_SIGN = 4
_SERIES_WORDS = frozenset({"serija", "seria", "serie", "series"})  # an invoice's series, before its code


def _a_registers_folio(doc: Document, line: Line, hit: KeyHit) -> bool:
    """Whether a "Folio" key is a trade register's page ("Registro Mercantil de Salamanca, Tomo 388, Folio 142, Hoja
    SA-11873" in a Spanish seller's legal line), not a Mexican invoice's folio: a "Tomo" before it on its line."""
    if [t for r in hit.words for t in key_tokens(doc.word(r).text)] != ["folio"]:
        return False
    if hit.words[0].word_index not in line.word_indices:
        return False  # the key in a column of its own, left of the value's line
    before = line.word_indices[:line.word_indices.index(hit.words[0].word_index)]
    return any("tomo" in key_tokens(doc.pages[hit.words[0].page_index].words[w].text) for w in before)


MAX_ASIDE_WORDS = 12


def _before_an_aside(doc: Document, left: Sequence[WordRef]) -> list[WordRef]:
    """The words before an aside in brackets that ends them ("MWST 0.0 %" of "MWST 0.0 % (Ausfuhr, Art. 23 Abs. 2
    Ziff. 1 MWSTG) 0.00": an export's tax, its legal ground between key and value); [] where none ends them. An aside
    of one word is a code, part of what the words say ("7 % VAT (S)": an allowance's tax category, no key)."""
    if not left or not doc.word(left[-1]).text.endswith(")"):
        return []
    for i in range(len(left) - 2, max(-1, len(left) - 1 - MAX_ASIDE_WORDS), -1):
        if doc.word(left[i]).text.startswith("("):
            return list(left[:i])
    return []


# The words that put a date between a key and its amount: "TOTAL AMOUNT DUE ON May 2, 2024 $1,976.87", "Zu zahlen bis
# 15.05.2024 123,40 EUR", "Montant dû le 02/05/2024 : 1 976,87 €"; two of them before the date too ("Montant à payer
# avant le 01/07/2024 427,61 €", "Zu zahlen bis zum 01.07.2024", "Da pagare entro il 01/07/2024")
DATE_BETWEEN_WORDS = frozenset({"on", "by", "before", "until", "am", "bis", "zum", "le", "au", "avant", "op", "voor",
                                "uiterlijk", "entro", "il", "antes", "de"})
MAX_DATE_BETWEEN_WORDS = 4


def _key_before_its_date(doc: Document, left: Sequence[WordRef], labels: frozenset[str] | None) -> KeyHit | None:
    """The whole key before "on DATE" that ends the words left of a value (a cloud bill's "TOTAL AMOUNT DUE ON May 2,
    2024" before its amount); None where the words do not end so."""
    texts = [doc.word(r).text for r in left]
    for at in range(len(left) - 2, max(0, len(left) - 2 - MAX_DATE_BETWEEN_WORDS), -1):
        date = " ".join(texts[at + 1:])
        if key_tokens(texts[at]) in ([word] for word in DATE_BETWEEN_WORDS) and _DATE_OF_WORDS.search(date) and any(
                ch.isdigit() for ch in date):
            start = at  # (the key before all the words between: "Amount due | by", "Montant à payer | avant le")
            while start > 0 and key_tokens(texts[start - 1]) in ([word] for word in DATE_BETWEEN_WORDS):
                start -= 1
            return whole_key(doc, left[:at + 1], labels) or (whole_key(doc, left[:start], labels) if start else None)
    return None


# The words by which an amount's key names the day it is to be paid by ("Amount due by", "Montant à payer avant le",
# "Zu zahlen bis zum"), as key_tokens gives them
DUE_BY_WORDS = frozenset({"by", "before", "until", "on", "bis", "zum", "am", "avant", "le", "voor", "uiterlijk", "op",
                          "entro", "il", "antes", "de"})
MAX_DUE_BY_WORDS = 2
_PAYABLE_LABELS = frozenset({"amount_due", "total"})


def _payment_key_before_a_date(doc: Document, left: Sequence[WordRef], value: Sequence[WordRef],
                               labels: frozenset[str] | None) -> KeyHit | None:
    """The due date's key of a date printed after an amount's key and the word that names its day ("Amount due by
    15/07/2024", "Montant à payer avant le 01/07/2024 427,61 €", "Please pay by 12 June 2024"): the day the amount
    is to be paid by. None where the words before the date do not end so, or the value is no date."""
    if labels is not None and "due_date" not in labels or not left:
        return None
    texts = [doc.word(r).text for r in value]
    if not _date_shaped(texts):
        return None
    end = len(left)
    while end > 0 and len(left) - end < MAX_DUE_BY_WORDS and key_tokens(doc.word(left[end - 1]).text) in (
            [word] for word in DUE_BY_WORDS):
        end -= 1
    # (or a due date's own key before the word: "Payment due by 16th April 2024 please.")
    if end in (0, len(left)) or whole_key(doc, left[:end], _PAYABLE_LABELS | {"due_date"}) is None:
        return None
    return KeyHit(frozenset({"due_date"}), tuple(left), 0.0)


# A date printed with its month's name or in numbers ("May 2, 2024", "2 mai 2024", "15.05.2024"), ending its words
_DATE_OF_WORDS = re.compile(r"(\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\b(19|20)\d\d)[.,:]?$")


def _bare_number_over_a_date(doc: Document, line: Line, left: Sequence[WordRef],
                             labels: frozenset[str] | None) -> KeyHit | None:
    """A bare "Numéro :" in a column of keys whose next line keys the invoice's date ("Numéro : F-2024-0241" over
    "Date d'émission : 22/10/2024" under "Facture de solde"): the invoice number's key, as a header row's bare
    "Numero" beside its "Data" is (:func:`_heading_beside_a_date`). None otherwise. The key may stand on a line of its
    own left of its value's (a key column: "Número: | 2024-0031" over "Fecha: | 22/10/2024" under "FACTURA
    RECTIFICATIVA")."""
    if (labels is not None and "invoice_number" not in labels) or len(left) != 1:
        return None
    page = doc.pages[left[0].page_index]
    if left[0].word_index not in line.word_indices:
        line = line_of(doc, left[0]) or line
    if left[0] != WordRef(left[0].page_index, line.word_indices[0]) or key_tokens(doc.word(left[0]).text) not in (
            [t] for t in _NUMBER_HEADINGS):
        return None
    height = max(line.box.height, 1e-6)
    below = min((other for other in page.lines if other is not line and abs(other.box.x0 - line.box.x0) <= height
                 and 0 <= other.box.top - line.box.bottom <= height), key=lambda other: other.box.top, default=None)
    if below is None:
        return None
    words = [WordRef(left[0].page_index, w) for w in below.word_indices]
    for end in range(1, min(len(words), MAX_KEY_WORDS + 1) + 1):
        hit = whole_key(doc, words[:end])
        if hit is not None and "invoice_date" in hit.labels and hit.words[0] == words[0]:
            return KeyHit(frozenset({"invoice_number"}), tuple(left), 0.0)
    return None


def _first_of_a_pair(doc: Document, line: Line, left: Sequence[WordRef], value: Sequence[WordRef],
                     labels: frozenset[str] | None) -> KeyHit | None:
    """The key of the first value of a pair that a slashed key names ("Ihre Bestellung/Datum" | "HS-4471 /
    08.11.2024", "Belegnummer/Datum" | "90041877 / 18.11.2024": an SAP form's key column): the key's words before its
    slash, where a slash follows the value on its line. None where the key or the line is no such pair."""
    if not left or "/" not in (last := doc.word(left[-1]).text).strip("/"):
        return None
    words = [WordRef(value[0].page_index, w) for w in line.word_indices]
    after = words.index(value[-1]) + 1 if value[-1] in words else len(words)
    if after + 1 >= len(words) or not doc.word(words[after]).text.startswith("/"):
        return None
    tokens = trim_context([t for r in left[:-1] for t in key_tokens(doc.word(r).text)] + key_tokens(last.split("/")[0]))
    keys, length = closing_keys(tokens)
    if labels is not None:
        keys &= labels
    if not keys or length != len(tokens):
        return None
    return KeyHit(frozenset(keys), tuple(left), 0.0)


AMOUNT_END = re.compile(r"\d[.,]\d{2}$")
_SERIES_LETTER = re.compile(r"[A-Z]")


def _tax_id_abbreviation(doc: Document, left: Sequence[WordRef], value: Sequence[WordRef]) -> KeyHit | None:
    """A tax id's key in capitals right before a number of a tax id's length, inside a running line whose dash a
    scan's OCR lost ("... 28050 Madrid CIF A28015394"): the key of the seller's tax id though no cell ends before it."""
    if not left:
        return None
    text = doc.word(left[-1]).text.rstrip(":")
    number = "".join(doc.word(r).text for r in value)
    if not any(ch.isalpha() for ch in text) or text != text.upper() or sum(ch.isdigit() for ch in number) < 6 \
            or AMOUNT_END.search(number):
        return None
    tokens = key_tokens(text)
    keys, length = closing_keys(tokens)
    return KeyHit(frozenset({"vendor_tax_id"}), (left[-1],), 0.0) if "vendor_tax_id" in keys and length == len(tokens) else None


# The word that says an amount is inside the total above it, the tax's name printed after that amount: "(includes
# £14.16 VAT)" under a web shop's total, "inkl. 3,19 € MwSt.", "waarvan 5,21 btw"
_INCLUDED_WORDS = frozenset({"includes", "including", "incl", "inkl", "inklusive", "inclusief", "waarvan", "davon",
                             "dont", "inclus"})


def _tax_named_after(doc: Document, line: Line, left: Sequence[WordRef], value: Sequence[WordRef],
                     labels: frozenset[str] | None) -> KeyHit | None:
    """The key of a tax amount printed between an inclusion word and the tax's name ("(includes £14.16 VAT)"): the
    total tax's, where the words right after the amount are a whole key of it and nothing follows them on the line."""
    if not left or key_tokens(doc.word(left[-1]).text) not in ([word] for word in _INCLUDED_WORDS):
        return None
    end = line.word_indices.index(value[-1].word_index) + 1 if value[-1].word_index in line.word_indices else None
    after = [WordRef(value[0].page_index, w) for w in line.word_indices[end:]] if end is not None else []
    if not 1 <= len(after) <= MAX_KEY_WORDS:
        return None
    hit = whole_key(doc, after, labels)
    if hit is None or "total_tax" not in hit.labels or hit.words[0] != after[0]:
        return None
    return KeyHit(frozenset({"total_tax"}), (left[-1], *hit.words), 0.0)


# A letter's place and date: "Bordeaux, le 14 juin 2024", "Leipzig, den 05.03.2024", "Zürich, 15. März 2024". An
# invoice written as a letter prints it for its own date (all 13 of the vendor pages that print one; the model had
# read a French lawyer's as the due date). The place: one to four words, capitalised but for the joiners of a place's
# name ("Frankfurt am Main", "Fait à Paris"), no digit ("Flat 3, 19 Victoria Road" is an address), its last word
# ending with the comma; then the dateline's own word, if any; the date ends its cell.
_DATELINE_WORDS = frozenset({"le", "den", "am", "il", "a", "à", "op", "the"})
_PLACE_JOINERS = frozenset({"am", "an", "der", "im", "bei", "ob", "sur", "en", "de", "la", "le", "les", "à", "a",
                            "upon", "on", "di", "del", "aan", "den"})
MAX_PLACE_WORDS = 4


def _place_before_its_date(doc: Document, line: Line, left: Sequence[WordRef], value: Sequence[WordRef]
                           ) -> KeyHit | None:
    """The invoice date's key of a date printed after a letter's place ("Bordeaux, le"): the place's words."""
    first = doc.word(value[0]).text
    if not left or not (first[:1].isdigit() or first.strip(".,").casefold() in MONTH_NUMBERS):
        return None
    height = max(line.box.height, 1e-6)
    before = cell_around(doc, [*left, *value], len(left), len(left) + len(value) - 1, height)[:-len(value)]
    place = list(before)
    if place and doc.word(place[-1]).text.casefold() in _DATELINE_WORDS:
        place.pop()
    texts = [doc.word(r).text for r in place]
    if not 1 <= len(texts) <= MAX_PLACE_WORDS or not texts[-1].endswith(",") or not texts[0][:1].isupper():
        return None
    if any(ch.isdigit() for text in texts for ch in text) or not all(
            text[:1].isupper() or text.rstrip(",").casefold() in _PLACE_JOINERS for text in texts):
        return None
    words = [WordRef(value[0].page_index, w) for w in line.word_indices]
    end = words.index(value[-1]) if value[-1] in words else None
    if end is None or (end + 1 < len(words) and not cell_break(doc, words[end], words[end + 1], height)):
        return None  # "Paris, 14 juin 2024 et 15 juin 2024": the date does not end its cell
    return KeyHit(frozenset({"invoice_date"}), tuple(before), 0.0)


# The word between a tax rate and the amount it is taken of: "Btw 9% over 328,00", "VAT 20% on 100.00", "TVA 20 % sur
# 100,00", "MwSt. 19 % auf 100,00", "IVA 22% su 100,00"
_BASE_WORDS = frozenset({"over", "on", "of", "sur", "auf", "von", "su", "sobre"})


def _key_of_a_rate(doc: Document, left: Sequence[WordRef], labels: frozenset[str] | None) -> KeyHit | None:
    """The key of a tax amount printed after its rate and the amount it is taken of ("Btw 9% over 328,00 27,08": a
    hotel bill's VAT breakdown); the words up to the rate are the key."""
    if len(left) < 3 or key_tokens(doc.word(left[-2]).text) != [doc.word(left[-2]).text.lower()] or (
            doc.word(left[-2]).text.lower() not in _BASE_WORDS or not _is_value_word(doc.word(left[-1]).text)):
        return None
    hit = whole_key(doc, left[:-2], labels)
    return None if hit is None else KeyHit(hit.labels, (*hit.words, *left[-2:]), hit.distance)


def _wrapped_key(index: LineIndex, tail: Sequence[WordRef], labels: frozenset[str] | None) -> KeyHit | None:
    """The key whose head ends the line above and whose tail starts the value's line: a key wrapped in a narrow
    column ("Identifier (ABN/VAT number/" over "etc.): 27-3692522"). The line above lies right over the tail's line,
    aligned with it at its left or (a right-aligned column) its right; the key must begin on it (its head no key of
    its own: the tail alone was none)."""
    line = index.line(tail[0]) if tail else None
    if line is None or line.word_indices[0] != tail[0].word_index:
        return None
    doc, own = index.doc, line.box
    page = doc.pages[tail[0].page_index]
    if page.text_source == "ocr":
        return None  # OCR's lines of a receipt stack tight: read so, SROIE lost 4 of its 347 totals
    height = max(doc.word(tail[0]).box.height, 1e-6)
    near = index.lines_reaching(tail[0].page_index, own.top - WRAP_GAP_OF_HEIGHT * height, own.top + 0.3 * height)
    above = [other for i in near if (other := page.lines[i]).box.bottom <= own.top + 0.3 * height
             and own.top - other.box.bottom < WRAP_GAP_OF_HEIGHT * height
             and (abs(other.box.x0 - own.x0) < height or abs(other.box.x1 - own.x1) < height)]
    if not above:
        return None
    head = [WordRef(tail[0].page_index, w) for w in max(above, key=lambda line: line.box.bottom).word_indices]
    if len(head) + len(tail) > MAX_KEY_WORDS or any(_is_value_word(doc.word(r).text) for r in (*head, *tail)):
        return None  # nor a value under its header ("Nota nr." over "48213"): a header row over its value row
    hit = whole_key(doc, head + list(tail), labels)
    return hit if hit is not None and hit.words[0] == head[0] else None


_NUMERIC_DATE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{2,4}")


def _date_shaped(texts: Sequence[str]) -> bool:
    """Whether a value's words open as a date does: a numeric date first, or a month's name within its first three
    words (a cheap test before a key rule that only dates may take)."""
    return bool(texts) and (_NUMERIC_DATE.match(texts[0]) is not None
                            or any(t.strip(".,").casefold() in MONTH_NUMBERS for t in texts[:3]))


def _date_after_its_number(doc: Document, hit: KeyHit, value: Sequence[WordRef]) -> KeyHit:
    """``hit``, or for a date after a keyed number and a word ("Facture n° 7021845533 du 04/09/2024", whose key reads
    through the number: a key's trailing number and "du" are dropped as fillers) the invoice's date's key after the
    invoice's number."""
    texts = [doc.word(r).text for r in value]
    if not _date_shaped(texts):
        return hit
    if not any(any(ch.isdigit() for ch in doc.word(r).text) for r in hit.words[1:]):
        return hit
    # (only the invoice's: after an order's number a receipt prints its own date, "ORDER NO. 1000249 11/03/2018")
    return replace(hit, labels=frozenset({"invoice_date"})) if "invoice_number" in hit.labels else hit


def _date_of_the_number_before(index: LineIndex, hit: KeyHit) -> KeyHit:
    """``hit``, or for a "vom" after another field's number the other date's key: "vom" keys the date of the number
    before it, the invoice's after the invoice number ("Rechnung Nr. 4711 vom 05.06.2025"), the order's after an
    order number ("Rechnung gemäß Bestellung Nr. 2025-471331 vom 01.03.2025."), on its line or, where "vom" opens
    a line, at the end of the line it continues."""
    doc = index.doc
    if len(hit.words) != 1 or key_tokens(doc.word(hit.words[0]).text) not in (["vom"], *_OF_THE_DAY):
        return hit
    where = index.line_of.get(hit.words[0])
    if where is None:
        return hit
    line, at = doc.pages[hit.words[0].page_index].lines[where[0]], where[1]
    of_the_day = key_tokens(doc.word(hit.words[0]).text) in _OF_THE_DAY
    if of_the_day:  # "Umowa nr 14/K/2024 z dnia 05.02.2024": the "z" between the number and its date's key
        if at < 2 or key_tokens(doc.word(WordRef(hit.words[0].page_index, line.word_indices[at - 1])).text) != ["z"]:
            return hit
        at -= 1
    if at == 0:  # "vom 01.03.2013." opening the line under "... Bestellung Nr. 2013-471331": the sentence wrapped
        above = line_above(index, hit.words)
        key_box = doc.word(hit.words[0]).box
        if above is None or abs(above[0].box.x0 - key_box.x0) > key_box.height:
            return hit
        line, at = above[0], len(above[0].word_indices)
    before = WordRef(hit.words[0].page_index, line.word_indices[at - 1])
    if not any(ch.isdigit() for ch in doc.word(before).text):
        return hit
    number_key = key_left(index, (before,))
    if number_key is not None and "invoice_number" in number_key.labels:
        return hit
    named_before = [WordRef(before.page_index, w) for w in line.word_indices[max(0, at - 1 - MAX_KEY_WORDS):at - 1]]
    # (the Polish "z dnia" after a number: the invoice's date has its own key, "Data wystawienia")
    if number_key is None and not of_the_day and not any(_names_another_number(doc, r) for r in named_before):
        return hit
    return KeyHit(frozenset({"other_date"}), hit.words, hit.distance)


# The Polish "of the day" ("z dnia"), an invoice date's key that keys the date of the number before it
_OF_THE_DAY = (["dnia"],)


# Words by which a credit note's key column names the invoice it corrects ("Against invoice", "Original invoice",
# "Facture d'origine", "Ursprüngliche Rechnung"), as key_tokens gives them
_ORIGINAL_WORDS = frozenset({"against", "original", "origine", "initiale", "ursprungliche", "ursprunglichen",
                             "korrigierte", "credited", "corrected", "oorspronkelijke", "originale", "bezug", "zu",
                             # (stop 73) "Betreft factuur", "Fattura collegata", "Factura rectificada", "Krediterar"
                             "betreft", "betrifft", "regarding", "concerne", "collegata", "rectificada", "rectifica",
                             "rectificado", "krediterar", "origem", "korygowana", "korygowanej"})


def _date_of_the_invoice_referred_to(index: LineIndex, hit: KeyHit) -> KeyHit:
    """``hit``, or for an invoice date's key right under a key-column row that names another invoice the other date's
    key: a credit note prints "Credit note no. CR-00128 | Date 21/03/2024 | Against invoice INV-04417 | Invoice date
    02/03/2024", the last the credited invoice's date (a tagger took it for the credit note's at 0.99). So too for a
    date's key in a block under a heading that names another invoice ("FACTURA QUE SE RECTIFICA" over "Serie /
    Número: A / 2024-0877" and "Fecha expedición: 02/10/2024", "Dati fattura collegata" over "Id documento: 245/A
    Data: 30-09-2024": held out, both accepted as the credit note's date)."""
    doc = index.doc
    key_line = index.line(hit.words[0])
    if hit.labels != {"invoice_date"} or key_line is None:
        return hit
    titled = any(is_title_word(t) for r in hit.words for t in key_tokens(doc.word(r).text))
    current = [WordRef(hit.words[0].page_index, key_line.word_indices[0])]
    for step in range(MAX_LINES_UNDER_A_REFERENCE):
        found = line_above(index, current)
        if found is None or abs(found[0].box.x0 - key_line.box.x0) > found[1].height:
            return hit
        cell = first_cell(doc, hit.words[0].page_index, found[0])
        tokens = [t for w in cell for t in key_tokens(doc.word(w).text)]
        names_another = _names_the_invoice_referred_to(tokens)
        heading = len(cell) == len(found[0].word_indices) and not any(ch.isdigit() for t in tokens for ch in t)
        if names_another and (step == 0 and titled or heading):
            return KeyHit(frozenset({"other_date"}), hit.words, hit.distance)
        current = [WordRef(hit.words[0].page_index, found[0].word_indices[0])]
    return hit


MAX_LINES_UNDER_A_REFERENCE = 3  # a heading naming another invoice keys the dates of the next lines of its block


def line_above(index: LineIndex, value: Sequence[WordRef]) -> tuple[Line, Box] | None:
    """The nearest line above the value (within :data:`ABOVE_LINES_OF_HEIGHT` value heights) that has words over it,
    and the value's box on its own line."""
    doc, first = index.doc, value[0]
    line = index.line(first)
    if line is None:
        return None
    page = doc.pages[first.page_index]
    value_box = Box.enclosing([doc.word(r).box for r in value if r.page_index == first.page_index
                               and index.line_of.get(r, (None,))[0] == index.line_of[first][0]])
    height = max(value_box.height, 1e-6)
    above = None
    for i in index.lines_reaching(first.page_index, value_box.top - ABOVE_LINES_OF_HEIGHT * height,
                                  value_box.top + 0.3 * height):
        candidate = page.lines[i]
        if candidate is line or candidate.box.bottom > value_box.top + 0.3 * height:
            continue
        if value_box.top - candidate.box.bottom > ABOVE_LINES_OF_HEIGHT * height:
            continue
        if not any(page.words[w].box.horizontal_overlap(value_box) > 0 for w in candidate.word_indices):
            continue
        if above is None or candidate.box.bottom > above.box.bottom:
            above = candidate
    return None if above is None else (above, value_box)


def key_above(index: LineIndex, value: Sequence[WordRef], labels: frozenset[str] | None = None) -> KeyHit | None:
    """The whole key over the value in its column: on the nearest line above (:func:`line_above`), the cell (words
    closer than a cell gap) holding the words over the value."""
    found = line_above(index, value)
    if found is None:
        return None
    above, value_box = found
    doc, page_index = index.doc, value[0].page_index
    height = max(value_box.height, 1e-6)
    words = [WordRef(page_index, w) for w in above.word_indices]
    over = [i for i, r in enumerate(words) if doc.word(r).box.horizontal_overlap(value_box) > 0]
    cell = cell_around(doc, words, over[0], over[-1], height)
    while cell and is_separator(doc.word(cell[-1]).text):
        cell.pop()
    hit = whole_key(doc, cell, labels) or _heading_beside_a_date(index, above, cell, labels)
    if hit is None:
        hit = _date_under_the_numbers_line(index, above, value, labels)
        return None if hit is None else replace(hit, distance=max(0.0, value_box.top - above.box.bottom))
    if hit.words[0] != cell[0]:  # the whole cell is the key, not its last words
        return None
    named = hit.labels
    if named == {"invoice_date"} and _beside_the_invoice_referred_to(index, words, words.index(cell[0]), height):
        named = frozenset({"other_date"})
    elif "invoice_date" in named and _beside_another_numbers_key(index, words, words.index(cell[0]), height, hit):
        named = frozenset({"other_date"})
    return KeyHit(named, hit.words, max(0.0, value_box.top - above.box.bottom))


def _date_under_the_numbers_line(index: LineIndex, above: Line, value: Sequence[WordRef],
                                 labels: frozenset[str] | None) -> KeyHit | None:
    """The invoice date's key for a date alone on its line right under the line that prints the invoice's number
    after its key ("PVM SĄSKAITA FAKTŪRA" / "Serija NMD Nr. 004512" / "2024 m. gegužės 14 d.", a Baltic title block):
    the number's key. None where the value's line holds more than the value or the line above keys no invoice
    number."""
    if labels is not None and "invoice_date" not in labels:
        return None
    doc, p = index.doc, value[0].page_index
    texts = [doc.word(r).text for r in value]
    # (cheap tests first: every value under a line asks)
    if not _date_shaped(texts):
        return None
    number = WordRef(p, above.word_indices[-1])
    line = index.line(value[0])
    if line is None or len(line.word_indices) != len(value) or not any(ch.isdigit() for ch in doc.word(number).text):
        return None
    hit = key_left(index, [number], frozenset({"invoice_number"}))
    if hit is None or not hit.words or hit.words[-1] == number or parse_date(" ".join(texts)) is None:
        return None
    return KeyHit(frozenset({"invoice_date"}), hit.words, 0.0)


def _beside_the_invoice_referred_to(index: LineIndex, words: Sequence[WordRef], at: int, height: float) -> bool:
    """Whether the header cell left of a key (``words[at]`` of its line ``words``; or the line left of it on its row)
    names another invoice: a credit note's header row "Creditnota nr. | Datum | Klantnr. | Betreft factuur |
    Factuurdatum", whose invoice date is the corrected invoice's (held out: accepted as the credit note's date)."""
    left = _cell_left_of_a_key(index, words, at, height)
    return _names_the_invoice_referred_to([t for r in left for t in key_tokens(index.doc.word(r).text)])


def _cell_left_of_a_key(index: LineIndex, words: Sequence[WordRef], at: int, height: float) -> list[WordRef]:
    """The header cell left of a key (``words[at]`` of its line ``words``), or the line left of it on its row."""
    if at > 0:
        return cell_around(index.doc, words, at - 1, at - 1, height)
    beside = index.line_left_on_row(words[0])
    return [] if beside is None else [WordRef(words[0].page_index, w) for w in beside.word_indices]


def _beside_another_numbers_key(index: LineIndex, words: Sequence[WordRef], at: int, height: float,
                                hit: KeyHit) -> bool:
    """Whether a bare date key ("Dated", "Date", "Datum") in a header row stands right of another number's key: the
    date of that number (Tally's grid "Buyer's Order No. | Dated" over "BAE/PO/2425/1173 | 29-Jul-24" under "Invoice
    No. | Dated": held out, the order's date accepted as the invoice's)."""
    doc = index.doc
    if [t for r in hit.words for t in key_tokens(doc.word(r).text)] not in ([w] for w in _BARE_DATE_WORDS):
        return False
    left = _cell_left_of_a_key(index, words, at, height)
    key = whole_key(doc, left) if left else None
    return key is not None and key.words[0] == left[0] and "invoice_number" not in key.labels and bool(
        key.labels & {"purchase_order", OTHER_NUMBER})


_BARE_DATE_WORDS = frozenset({"date", "dated", "datum", "data", "fecha", "du", "vom"})


def _names_the_invoice_referred_to(tokens: Sequence[str]) -> bool:
    """Whether a key's tokens name the invoice a credit note corrects: a title word and a word of
    :data:`_ORIGINAL_WORDS` ("Against invoice", "Betreft factuur", "Dati fattura collegata")."""
    return any(is_title_word(t) for t in tokens) and bool(set(tokens) & _ORIGINAL_WORDS)


# A bare "Reference" heading, which names the invoice's number in a header row beside its date
_REFERENCE_HEADINGS = frozenset({"reference", "ref", "referenz", "referentie", "riferimento", "referencia"})
# A bare "Number" heading ("Numero | Data" under "FATTURA"), which names the invoice's number only in a row of the
# invoice's own keys: an item table's "No. | Date | Description | Amount" numbers its rows
_NUMBER_HEADINGS = frozenset({"numero", "nummer", "number", "no", "numer", "cislo"})
# A page number's or series' heading, which a header row prints beside the invoice's number and date ("Número | Fecha |
# Página", "Serie | Número | Fecha")
_PAGE_HEADINGS = frozenset({"page", "pagina", "seite", "blatt", "pag", "hoja", "folha", "pg", "serie", "series"})
# The fields whose keys share a header row with the invoice's number and date
_INVOICE_HEADER_FIELDS = frozenset({"invoice_date", "date", "due_date", "other_date", "purchase_order", "other_number",
                                    "vendor_tax_id"})  # (a Spanish header row's "N.I.F.": the buyer's)


def _heading_beside_a_date(index: LineIndex, above: Line, cell: Sequence[WordRef],
                           labels: frozenset[str] | None) -> KeyHit | None:
    """A header row's bare "Référence" or "Numero" cell as the invoice number's key, where a cell of the same row
    keys the invoice date ("Référence | Date de facture | Date d'échéance" over a French hosting bill's values,
    "Numero | Data" under an Italian "FATTURA"): alone, a reference is anybody's and a number any row's. A number
    heading's every other cell must be a key of the invoice's own header (:data:`_INVOICE_HEADER_FIELDS`) or a page
    number's (:data:`_PAGE_HEADINGS`)."""
    doc = index.doc
    tokens = [t for r in cell for t in key_tokens(doc.word(r).text)]
    if (labels is not None and "invoice_number" not in labels) or len(tokens) != 1:
        return None
    page_index = cell[0].page_index
    if tokens[0] in _REFERENCE_HEADINGS:
        beside = "invoice_date" in row_keys(doc, page_index, above)
    elif tokens[0] in _NUMBER_HEADINGS:
        others = [_cell_key(doc, other) for other in row_cells(doc, page_index, above) if other[0] != cell[0]
                  and not set(t for r in other for t in key_tokens(doc.word(r).text)) <= _PAGE_HEADINGS]
        beside = bool(others) and all(hit is not None and hit.labels <= _INVOICE_HEADER_FIELDS for hit in others) and any(
            "invoice_date" in hit.labels for hit in others)
    else:
        return None
    return KeyHit(frozenset({"invoice_number"}), tuple(cell), 0.0) if beside else None


def row_cells(doc: Document, page_index: int, header: Line) -> list[list[WordRef]]:
    """The cells of a header row: the row of ``header`` (its line and the lines beside it), split at their gaps."""
    height = max(header.box.height, 1e-6)
    cells = []
    for line in doc.pages[page_index].lines:
        if abs(line.box.center[1] - header.box.center[1]) > 0.5 * height:
            continue  # not on the header's row
        words = [WordRef(page_index, w) for w in line.word_indices]
        start = 0
        while start < len(words):  # each cell of the line
            cell = cell_around(doc, words, start, start, height)
            cells.append(cell)
            start = words.index(cell[-1]) + 1
    return cells


def _cell_key(doc: Document, cell: Sequence[WordRef]) -> KeyHit | None:
    """The whole key a header row's cell is, from its first word; None where the cell is no key or only ends in one."""
    hit = whole_key(doc, cell)
    return hit if hit is not None and hit.words[0] == cell[0] else None


def row_keys(doc: Document, page_index: int, header: Line) -> frozenset[str]:
    """The fields the cells of a header row name (:func:`row_cells`), each cell a whole key."""
    return frozenset().union(*(hit.labels for cell in row_cells(doc, page_index, header)
                               if (hit := _cell_key(doc, cell)) is not None))


def cells_keying(doc: Document, page_index: int, header: Line, label: str) -> int:
    """How many cells of a header row are whole keys of ``label`` (:func:`row_cells`)."""
    return sum(1 for cell in row_cells(doc, page_index, header)
               if (hit := _cell_key(doc, cell)) is not None and label in hit.labels)


MIN_TOTALS_STRIP_KEYS = 3  # (two, "Amount | GST", head a receipt's GST summary over its net)
_AMOUNT_FIELDS = frozenset({"subtotal", "total_tax", "total", "amount_due"})
_DOCUMENT_ROW_FIELDS = frozenset({"invoice_number", "invoice_date", "other_date", "other_number", "due_date"})


def in_a_totals_strip(index: LineIndex, header: Sequence[WordRef], words: Sequence[WordRef]) -> bool:
    """Whether an amount stands under its key in a strip of totals: a header row whose cells key at least
    :data:`MIN_TOTALS_STRIP_KEYS` of the document's amounts ("Totale imponibile | Totale imposta | Importo bollo |
    Totale documento", "Importe bruto | Base imponible | Total IVA | TOTAL FACTURA") over one row of values right
    under it, no value right under this one in its column (a line-item table's "Total" column runs on)."""
    doc = index.doc
    header_line, value_line = index.line(header[0]), index.line(words[0])
    if header_line is None or value_line is None:
        return False
    p = header[0].page_index
    keys = row_keys(doc, p, header_line)
    if len(keys & _AMOUNT_FIELDS) < MIN_TOTALS_STRIP_KEYS or keys & _DOCUMENT_ROW_FIELDS:
        return False  # (a row that keys a document's number or date lists other documents: "Rechnung | vom | netto")
    height = max(value_line.box.height, 1e-6)
    if value_line.box.top - header_line.box.bottom > height:
        return False  # not the row right under the header: a line-item table's rows under "USt | Gesamt netto"
    value = doc.word(words[0]).box
    return not any(0 <= line.box.top - value_line.box.bottom <= height and line.box.x0 <= value.x1
                   and line.box.x1 >= value.x0 and any(ch.isdigit() for ch in doc.word(
                       WordRef(p, line.word_indices[0])).text) for line in doc.pages[p].lines)


def words_left_on_row(doc: Document, first: WordRef, slack: float = 0.0) -> list[WordRef]:
    """The page's words left of ``first`` on its row (ending before it starts, within ``slack`` points; sharing most
    of its height), left to right: a table row's cells before a value, whatever lines the layout cut them into."""
    box = doc.word(first).box
    page = doc.pages[first.page_index]
    near = line_index(doc).words_reaching(first.page_index, box.top, box.bottom)
    return sorted((WordRef(first.page_index, w) for w in near if (word := page.words[w]).box.x1 <= box.x0 + slack
                   and word.box.vertical_overlap(box) > 0.5 * min(word.box.height, box.height)),
                  key=lambda r: doc.word(r).box.x0)


def cell_break(doc: Document, before: WordRef, after: WordRef, height: float) -> bool:
    """Whether a gap wider than :data:`CELL_GAP_OF_HEIGHT` text heights parts ``before`` from ``after``: two cells."""
    if doc.pages[before.page_index].text_source == "ocr":
        height *= OCR_TEXT_HEIGHT_OF_INK
    return doc.word(after).box.x0 - doc.word(before).box.x1 > CELL_GAP_OF_HEIGHT * height


def cell_around(doc: Document, words: Sequence[WordRef], start: int, end: int, height: float) -> list[WordRef]:
    """The cell of a line's ``words`` that holds ``words[start:end + 1]``: extended both ways up to a cell break."""
    while start > 0 and not cell_break(doc, words[start - 1], words[start], height):
        start -= 1
    while end + 1 < len(words) and not cell_break(doc, words[end], words[end + 1], height):
        end += 1
    return list(words[start:end + 1])


def first_cell(doc: Document, p: int, line: Line) -> list[WordRef]:
    """A line's words up to its first wide gap (:func:`cell_break`): its first column, without a title or key
    printed on its row further right ("Lieferantenstraße 20" ... "RECHNUNG")."""
    words = [WordRef(p, w) for w in line.word_indices]
    return cell_around(doc, words, 0, 0, max(line.box.height, 1e-6))


def line_of(doc: Document, ref: WordRef) -> Line | None:
    """The line that holds the word ``ref`` (a scan of its page's lines; :class:`LineIndex` for many lookups)."""
    return next((line for line in doc.pages[ref.page_index].lines if ref.word_index in line.word_indices), None)


def line_left_of(lines: Sequence[Line], line: Line) -> Line | None:
    """The nearest of ``lines`` left of ``line`` on its row (its key in a key column), as :func:`line_right_of`."""
    row = [other for other in lines if other is not line and other.box.x1 <= line.box.x0 + 1
           and other.box.vertical_overlap(line.box) > 0.5 * min(other.box.height, line.box.height)]
    return max(row, key=lambda other: other.box.x1) if row else None


def line_right_of(lines: Sequence[Line], line: Line) -> Line | None:
    """The nearest of ``lines`` right of ``line`` on its row (a key column and a value column)."""
    row = [other for other in lines if other is not line and other.box.x0 >= line.box.x1 - 1
           and other.box.vertical_overlap(line.box) > 0.5 * min(other.box.height, line.box.height)]
    return min(row, key=lambda other: other.box.x0) if row else None
