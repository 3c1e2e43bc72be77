"""Payment terms printed as a section, and terms that run on to the next line.

E-invoice visualisations print the terms under a heading of their own, often as a small table::

    Zahlungsbedingungen:
    Beschreibung                                      Fälligkeit   Teilzahlung
    Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3%
    Skonto innerhalb 10 Tagen bis 15.06.2018
    Zu- und Abschläge:

The heading is a whole key of the terms alone on its row (no value right of it); the terms are the first line below it in its column
whose first cell reads as a sentence (:data:`MIN_SENTENCE_WORDS` words: a column title such as "Beschreibung" is
skipped), continued by the lines stacked under it (:func:`continued`). A model that never saw the layout reads
the line items' text or a tax note there instead, and rarely the second line of the terms.
"""

from __future__ import annotations

from typing import Sequence

from docextract.document import Document, Line, WordRef
from docextract.extraction.field_keywords import closing_keys, key_tokens, trim_context
from docextract.extraction.key_context import cell_around, first_cell, is_separator, line_of, line_right_of

MIN_SENTENCE_WORDS = 3
MIN_WRAPPED_WORDS = 6  # a line the text wrapped is long; "30 Tage netto" is whole
MAX_KEY_WORDS = 4
MAX_LINES_BELOW_HEADING = 3  # the heading, a row of column titles, then the terms
MAX_TERMS_WORDS = 30  # terms are a sentence or two; more is a paragraph
# A wrapped sentence runs on to the end of its paragraph: the printed terms of an insurer or a rental firm are
# a paragraph of several sentences, each line ending mid-sentence
MAX_RUN_ON_LINES = 10
MAX_RUN_ON_WORDS = 90
COLUMN_TOLERANCE_OF_HEIGHT = 1.5
FIRST_LINE_INDENT_OF_HEIGHT = 3.0  # a paragraph's first line may start this far right of the lines under it
STACKED_GAP_OF_HEIGHT = 1.0
WORD_SPACE_OF_HEIGHT = 0.25  # a space between words, as a share of their height
# Words no phrase ends with (articles, prepositions, conjunctions of the six languages): a line that ends with one
# goes on below even where the next line starts with a key ("... Wir würden dann zu der" | "Fälligkeit 06.12.2018 den
# Beitrag ...")
PHRASE_OPENERS = frozenset({
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "zu", "zur", "zum", "von",
    "vom", "mit", "auf", "an", "am", "im", "in", "für", "und", "oder", "bei", "nach", "über",
    "the", "a", "an", "to", "of", "for", "with", "on", "at", "by", "from", "and", "or",
    "le", "la", "les", "un", "une", "de", "du", "des", "à", "au", "aux", "pour", "par", "sur", "avec", "et", "ou", "en",
    "het", "een", "van", "voor", "met", "op", "aan", "en", "of", "bij", "naar",
    "il", "lo", "gli", "di", "del", "della", "da", "per", "con", "su", "e",
    "el", "los", "las", "al", "para", "por", "y"})


def terms_under_heading(doc: Document) -> tuple[WordRef, ...]:
    """The terms printed under the first heading of the payment terms, or ``()``."""
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            if not _is_terms_heading(doc, p, line) or line_right_of(page.lines, line) is not None:
                continue  # a key whose value stands right of it, in the next column ("Terms" | "Net 60")
            for below in _column_below(doc, p, line)[:MAX_LINES_BELOW_HEADING]:
                cell = first_cell(doc, p, below)
                if len(cell) >= MIN_SENTENCE_WORDS and not _ends_with_colon(doc, cell):
                    return continued(doc, tuple(cell))
                if _ends_with_colon(doc, cell):
                    break  # the next section's heading: this one printed no terms
    return ()


def continued(doc: Document, words: tuple[WordRef, ...]) -> tuple[WordRef, ...]:
    """``words`` (a cell that ends its line) with the lines that continue the sentence under it: stacked right
    below, starting at its left edge, when its own line was wrapped (at least :data:`MIN_WRAPPED_WORDS` words:
    "30 Tage netto" is whole), while the text so far ends no sentence (".") or, from its second line on, ends one on
    a line the text flow broke (:func:`_wrapped`: a paragraph of sentences goes on), and the next line is no heading and
    starts with no key of a field ("IBAN: DE29 ...") unless the text so far ends with a word no phrase ends with
    (:data:`PHRASE_OPENERS`); at most :data:`MAX_RUN_ON_LINES` lines and
    :data:`MAX_RUN_ON_WORDS` words."""
    if not words:
        return words
    p = words[0].page_index
    page = doc.pages[p]
    line = line_of(doc, words[-1])
    if line is None or _cell_continues(doc, p, line, words[-1]):
        return words
    x0 = doc.word(words[0]).box.x0
    out = list(words)
    if len(words) < MIN_WRAPPED_WORDS:
        return words
    right = doc.word(words[-1]).box.x1  # the paragraph's right margin so far: its widest line's end
    for n in range(MAX_RUN_ON_LINES - 1):
        height = max(line.box.height, 1e-6)
        indent = FIRST_LINE_INDENT_OF_HEIGHT * height if n == 0 else 0.0  # the first line's indent, once
        below = [other for other in page.lines if other is not line
                 and 0 <= other.box.top - line.box.bottom <= STACKED_GAP_OF_HEIGHT * height
                 and -indent - COLUMN_TOLERANCE_OF_HEIGHT * height <= other.box.x0 - x0 <= COLUMN_TOLERANCE_OF_HEIGHT * height]
        if not below:
            break
        nearest = min(below, key=lambda other: other.box.top)
        cell = first_cell(doc, p, nearest)
        if doc.word(out[-1]).text.rstrip().endswith(".") and not (n > 0 and _wrapped(doc, out[-1], cell, right)):
            break  # a sentence ends here, and so does the paragraph: its line stops short of the margin
        line, x0 = nearest, nearest.box.x0
        mid_phrase = doc.word(out[-1]).text.casefold() in PHRASE_OPENERS
        if (_holds_key(doc, cell) and not (mid_phrase and not _ends_with_colon(doc, cell))
                or len(out) + len(cell) > MAX_RUN_ON_WORDS):
            break
        out += cell
        right = max(right, doc.word(cell[-1]).box.x1)
    return tuple(out)


def _wrapped(doc: Document, last: WordRef, next_cell: Sequence[WordRef], right: float) -> bool:
    """Whether the text flow broke the line after ``last`` because the next line's first word would not fit
    before the paragraph's right margin ``right``: then a sentence ending with the line still leaves its paragraph
    open (an insurer's terms: "... Sparkasse Musterstadt Ost." | "Einfacher für Sie ist es, ...")."""
    if not next_cell:
        return False
    first = doc.word(next_cell[0]).box
    space = WORD_SPACE_OF_HEIGHT * max(first.height, 1e-6)
    return doc.word(last).box.x1 + space + first.width > right


def _cell_continues(doc: Document, p: int, line: Line, last: WordRef) -> bool:
    """Whether ``last`` is followed on its line by words of the same cell."""
    words = [WordRef(p, w) for w in line.word_indices]
    i = words.index(last)
    return cell_around(doc, words, i, i, max(line.box.height, 1e-6))[-1] != last


def _is_terms_heading(doc: Document, p: int, line: Line) -> bool:
    """A line that is a whole key of the payment terms and nothing else ("Zahlungsbedingungen:", "Payment terms")."""
    texts = [doc.word(WordRef(p, w)).text for w in line.word_indices if not is_separator(doc.word(WordRef(p, w)).text)]
    tokens = trim_context([t for text in texts for t in key_tokens(text)])
    if not tokens:
        return False
    keys, length = closing_keys(tokens)
    return "payment_terms" in keys and length == len(tokens)


def _holds_key(doc: Document, cell: Sequence[WordRef]) -> bool:
    """Whether a line's first cell is a heading (it ends with ":") or starts with a whole key of a field ("IBAN:
    DE29 ...", "Fällig am 13.06.2026"); "folgende Bankverbindung: IBAN ..." continues a sentence."""
    if _ends_with_colon(doc, cell):
        return True
    tokens: list[str] = []
    for ref in cell[:MAX_KEY_WORDS]:
        tokens += key_tokens(doc.word(ref).text)
        keys, length = closing_keys(tokens)
        if keys and length == len(tokens):
            return True
    return False


def _ends_with_colon(doc: Document, cell: Sequence[WordRef]) -> bool:
    return bool(cell) and doc.word(cell[-1]).text.rstrip().endswith(":")


def _column_below(doc: Document, p: int, heading: Line) -> list[Line]:
    """The lines under ``heading`` that start at its left edge (or indented as a paragraph's first line), nearest
    first, within :data:`MAX_LINES_BELOW_HEADING` + 1 line heights."""
    height = max(heading.box.height, 1e-6)
    return sorted((line for line in doc.pages[p].lines if line is not heading
                   and heading.box.bottom - height / 2 <= line.box.top
                   <= heading.box.bottom + (MAX_LINES_BELOW_HEADING + 1) * 1.5 * height
                   and -COLUMN_TOLERANCE_OF_HEIGHT * height <= line.box.x0 - heading.box.x0
                   <= (COLUMN_TOLERANCE_OF_HEIGHT + FIRST_LINE_INDENT_OF_HEIGHT) * height),
                  key=lambda line: line.box.top)
