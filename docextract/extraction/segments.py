"""Several invoices in one file: where each one starts, decided from the pages themselves.

A stack of invoices scanned into one PDF is the common case in accounts payable. :func:`split_documents`
reads each page's signals (:class:`PageSignals`) and starts a new document before page *i* when

1. page *i* prints "Page 1 of N" ("Seite 1 von 2", "Page 1 sur 3", "Página 1 de 2", "Pagina 1 van 2"; a
   marker counts only at the end of a line), or the page before it printed its last page number ("Page 3
   of 3"); a marker "Page 2 (of N)" on page *i* keeps it in the running document, whatever else it shows;
2. page *i* prints an invoice number (after its key: "Invoice No.:", "Rechnungsnummer", "N° de facture",
   :mod:`docextract.extraction.key_values`; or in a title line: "Mietrechnung Nr. 9314110911 vom ...") that
   the running document has not printed, while the running document printed another one; the same number
   again (a continuation page's header) keeps it;
3. page *i* opens an invoice (an invoice number or date after its key, a title line with a number, or a line
   that is only a title: "Beitragsrechnung", "INVOICE") and the running document has already printed its
   totals (a total or amount due after its key): a new invoice after the previous one closed;
4. page *i* opens an invoice under another letterhead: the words of its top band share less than
   :data:`LETTERHEAD_MIN_OVERLAP` with the running document's first page.

Everything else continues the running document: a page without words (a blank back side), a page of line
items, a page of totals. So an invoice of many pages stays one document, and a file without any of these
signals is one document as before. Each :class:`Segment` keeps the reasons it started for, which `run`
reports (``documents[].split``) when a file holds more than one document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from docextract.document import Document
from docextract.extraction.entities import document_date_year, document_locale
from docextract.extraction.field_keywords import FIELD_KEYWORDS, key_tokens
from docextract.extraction.key_values import keyed_values

# "Page 2 of 3", "Seite 1 von 2", "Page 1 sur 3", "Pagina 1 di 2", "Página 1 de 2", "Pagina 1 van 2", "Page 2/3",
# "Seite 2": at the end of a line (a sentence that mentions a page elsewhere is no marker).
_PAGE_MARKER = re.compile(
    r"(?:^|\s)(?:page|seite|blatt|feuille|pagina|página|pag\.?|pág\.?|blad|hoja)\s*:?\s*(\d{1,3})"
    r"(?:\s*(?:of|von|sur|di|de|van|/)\s*(\d{1,3}))?\s*$",
    re.IGNORECASE,
)
# A title that names the invoice and its number on one line: "Rechnung Nr. 471102 vom ...", "Mietrechnung Nr. 9 314110911/00",
# "Beitragsrechnung zur Kraftfahrtversicherung Nr. 00.123.456.7", "Invoice No. INV-7", "Facture N° F-2023-1".
_TITLE = re.compile(
    r"(?:^|\s)(?:\w*rechnung\w*|\w*gutschrift|invoice|facture|factura|fattura|factuur|credit note|avoir)"
    r"(?:\s+\S+){0,3}?\s+(?:nr|no|n°|nº|num|nummer|number|numéro|numero|número|#)\.?\s*:?\s*(.+)$",
    re.IGNORECASE,
)
# A line that is only a document title: "Rechnung", "Beitragsrechnung", "INVOICE", "Facture", "Gutschrift".
_BARE_TITLE = re.compile(r"^\s*(?:\w*rechnung|\w*gutschrift|invoice|tax invoice|facture|factura|fattura|factuur|"
                         r"credit note|avoir)\s*:?\s*$", re.IGNORECASE)
_TITLE_VALUE_STOP = {"vom", "from", "du", "del", "dated", "date", "datum", "of", "de", "van", "dal"}
TITLE_VALUE_WORDS = 3  # a number split by the renderer ("9 314110911/00/M/00/N") is joined, a date after it is not
LETTERHEAD_BAND = 0.15  # the top share of a page a letterhead is printed in
LETTERHEAD_MIN_WORDS = 3  # fewer tokens than this in the band: no letterhead to compare
LETTERHEAD_MIN_OVERLAP = 0.2  # Jaccard overlap of two top bands' tokens below this: another letterhead
OPENING_LABELS = ("invoice_number", "invoice_date")
CLOSING_LABELS = ("total", "amount_due")


@dataclass(frozen=True)
class PageSignals:
    """What one page says about where it belongs."""

    index: int  # the page's index in the document
    blank: bool  # no words at all
    marker: tuple[int, int | None] | None  # ("Page k of N") k and N (None when only "Page k" is printed)
    numbers: frozenset[str]  # invoice numbers printed after their key, compacted (case, spaces, punctuation)
    opens: bool  # an invoice number or invoice date printed after its key, or an invoice title
    closes: bool  # a total or amount due printed after its key
    letterhead: frozenset[str]  # word tokens of the page's top band (no digits)


@dataclass(frozen=True)
class Segment:
    """One document of a file: pages ``start`` .. ``end - 1`` (indices), and why it starts where it does."""

    start: int
    end: int
    reasons: tuple[str, ...] = ()

    @property
    def pages(self) -> range:
        return range(self.start, self.end)


def compact_number(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isalnum())


def page_signals(doc: Document) -> list[PageSignals]:
    """Each page's :class:`PageSignals` (the model's tags are not used: the words and keys the page prints are)."""
    locale, year = document_locale(doc), document_date_year(doc)
    keyed: dict[int, dict[str, list[str]]] = {}
    for page_index, label, words in keyed_values(doc, tuple(FIELD_KEYWORDS), locale, year):
        text = " ".join(doc.word(r).text for r in words)
        keyed.setdefault(page_index, {}).setdefault(label, []).append(text)
    signals = []
    for index, page in enumerate(doc.pages):
        values = keyed.get(index, {})
        titled = _title_numbers(doc, index)
        numbers = frozenset(filter(None, (compact_number(t) for t in [*values.get("invoice_number", ()), *titled])))
        signals.append(PageSignals(
            index=index, blank=not page.words, marker=_page_marker(doc, index), numbers=numbers,
            opens=bool(titled) or _bare_title(doc, index) or any(values.get(label) for label in OPENING_LABELS),
            closes=any(values.get(label) for label in CLOSING_LABELS), letterhead=_letterhead(doc, index)))
    return signals


def split_documents(doc: Document) -> list[Segment]:
    """The documents of ``doc`` as page ranges, in order, covering every page (see the module docstring)."""
    if not doc.pages:
        return [Segment(0, 0)]
    signals = page_signals(doc)
    segments: list[Segment] = []
    start, reasons = 0, ()
    for i in range(1, len(signals)):
        why = _starts_document(signals[start:i], signals[i])
        if why:
            segments.append(Segment(start, i, reasons))
            start, reasons = i, why
    segments.append(Segment(start, len(signals), reasons))
    return segments


def _starts_document(running: Sequence[PageSignals], page: PageSignals) -> tuple[str, ...]:
    """Why ``page`` starts a new document after the pages of the ``running`` one; ``()``: it continues it."""
    number = page.index + 1
    if page.blank:
        return ()
    if page.marker is not None:
        k, n = page.marker
        return (f"page {number} prints page 1{'' if n is None else f' of {n}'}",) if k == 1 else ()
    last = next((p for p in reversed(running) if not p.blank), running[-1])
    if last.marker is not None and last.marker[1] is not None and last.marker[0] == last.marker[1]:
        return (f"page {last.index + 1} printed the last page number ({last.marker[0]} of {last.marker[1]})",)
    seen = frozenset().union(*(p.numbers for p in running))
    if page.numbers and seen:
        if page.numbers & seen:
            return ()
        return (f"page {number} prints another invoice number ({', '.join(sorted(page.numbers))})",)
    closed = any(p.closes for p in running)
    if page.opens and closed:
        return (f"page {number} opens an invoice after the totals of the one before",)
    head = next((p for p in running if not p.blank), running[0])
    if page.opens and _other_letterhead(head.letterhead, page.letterhead):
        return (f"page {number} opens an invoice under another letterhead",)
    return ()


def _other_letterhead(a: frozenset[str], b: frozenset[str]) -> bool:
    if len(a) < LETTERHEAD_MIN_WORDS or len(b) < LETTERHEAD_MIN_WORDS:
        return False
    return len(a & b) / len(a | b) < LETTERHEAD_MIN_OVERLAP


def _page_marker(doc: Document, index: int) -> tuple[int, int | None] | None:
    page = doc.pages[index]
    texts = [" ".join(page.words[w].text for w in line.word_indices) for line in page.lines]
    # a marker word and its number set in different sizes are two lines ("Seite" | "1"): joined when it is one word
    candidates = texts + [a + " " + b for a, b in zip(texts, texts[1:]) if " " not in a]
    for text in candidates:
        match = _PAGE_MARKER.search(text)
        if match:
            k, n = int(match.group(1)), match.group(2)
            if n is None or 1 <= k <= int(n):
                return k, None if n is None else int(n)
    return None


def _title_numbers(doc: Document, index: int) -> list[str]:
    """Invoice numbers printed in a title line ("Rechnung Nr. 471102 vom 05.03.2018": "471102")."""
    page = doc.pages[index]
    found = []
    for line in page.lines:
        match = _TITLE.search(" ".join(page.words[w].text for w in line.word_indices))
        if not match:
            continue
        value = []
        for token in match.group(1).split()[:TITLE_VALUE_WORDS]:
            if token.casefold().strip(".,:") in _TITLE_VALUE_STOP:
                break
            value.append(token)
        text = " ".join(value)
        if any(ch.isdigit() for ch in text):
            found.append(text)
    return found


def _bare_title(doc: Document, index: int) -> bool:
    page = doc.pages[index]
    return any(_BARE_TITLE.match(" ".join(page.words[w].text for w in line.word_indices)) for line in page.lines)


def _letterhead(doc: Document, index: int) -> frozenset[str]:
    page = doc.pages[index]
    limit = page.height * LETTERHEAD_BAND
    return frozenset(token for word in page.words if word.box.bottom <= limit
                     for token in key_tokens(word.text) if not any(ch.isdigit() for ch in token))
