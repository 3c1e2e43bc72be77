"""A PDF page's own text layer: pdfplumber words, and whether they are usable at all.

pdfplumber (pdfminer.six underneath) reports words in points with a top-left origin, in the frame of
the page as displayed: it applies ``/Rotate`` itself (checked on pdfplumber 0.11: a ``/Rotate 90``
page reports the turned width/height and words that match the pypdfium2 rendering of that page).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from pdfminer.layout import LTChar, LTContainer
from pdfplumber.utils import extract_words

from docextract.document import Box, Word

# A text layer is unusable (and the page goes to OCR in ocr="auto") when at least this fraction of
# its characters are garbage: "(cid:123)" glyph ids pdfminer emits for fonts without a ToUnicode map,
# control characters, private-use code points or U+FFFD replacement characters.
MAX_GARBAGE_FRACTION = 0.5  # of the page's characters
# Word boxes may poke out of the page by a rounding error; words wholly outside it are invisible text.
PAGE_EDGE_SLACK = 1.0  # points

_CID = re.compile(r"\(cid:\d+\)")


def _is_garbage_char(ch: str) -> bool:
    if ch == "\ufffd":
        return True
    category = unicodedata.category(ch)
    return category in ("Cc", "Cs", "Co", "Cn")  # control, surrogate, private use, unassigned


def garbage_fraction(texts: list[str]) -> float:
    """Fraction of the characters of ``texts`` that are garbage (each ``(cid:N)`` counts as one)."""
    total = garbage = 0
    for text in texts:
        cids = _CID.findall(text)
        rest = _CID.sub("", text)
        total += len(cids) + len(rest)
        garbage += len(cids) + sum(1 for ch in rest if _is_garbage_char(ch))
    return garbage / total if total else 1.0


def is_usable(words: tuple[Word, ...]) -> bool:
    """Whether a page's text layer can be trusted: it has words and they are not mostly garbage."""
    return bool(words) and garbage_fraction([w.text for w in words]) < MAX_GARBAGE_FRACTION


def char_turn(matrix) -> int:
    """Clockwise degrees (0/90/180/270) that turn a character with this text matrix upright.

    ``matrix`` is pdfminer's ``(a, b, c, d, e, f)`` in the displayed page's bottom-up space; ``(a, b)``
    is the direction the text advances in.
    """
    a, b = float(matrix[0]), float(matrix[1])
    if abs(a) >= abs(b):
        return 0 if a >= 0 else 180
    return 270 if b < 0 else 90  # b < 0: reads top to bottom, so turn it a quarter counter-clockwise


def dominant_turn(chars: list[dict]) -> int:
    """The clockwise turn that makes most of a page's characters upright (0 when the page has none)."""
    counts = Counter(char_turn(c["matrix"]) for c in chars if c.get("matrix") and c["text"].strip())
    return counts.most_common(1)[0][0] if counts else 0


def turn_box(x0: float, top: float, x1: float, bottom: float, width: float, height: float, degrees: int):
    """A box on a ``width`` x ``height`` page, on that page turned ``degrees`` clockwise."""
    if degrees == 90:
        return height - bottom, x0, height - top, x1
    if degrees == 180:
        return width - x1, height - bottom, width - x0, height - top
    if degrees == 270:
        return top, width - x1, bottom, width - x0
    return x0, top, x1, bottom


def _turned_chars(chars: list[dict], width: float, height: float, degrees: int) -> list[dict]:
    turned = []
    for char in chars:
        x0, top, x1, bottom = turn_box(char["x0"], char["top"], char["x1"], char["bottom"], width, height, degrees)
        upright = char_turn(char["matrix"]) == degrees if char.get("matrix") else char["upright"]
        turned.append({**char, "x0": x0, "x1": x1, "top": top, "bottom": bottom, "doctop": top, "upright": upright})
    return turned


@dataclass(frozen=True)
class TextLayer:
    """A page's text-layer words in the frame where its text reads upright.

    ``turn`` is the clockwise turn (degrees) applied on top of the page as displayed; ``width`` and
    ``height`` are the turned page's size in points.
    """

    words: tuple[Word, ...]
    width: float
    height: float
    turn: int


# Two characters belong to one word when the gap between them is under this share of their font size.
# pdfplumber's default is a fixed 3 points, which glues small print together: real e-invoice renderings
# set 7-8 pt text with 2-2.5 pt word gaps and no space characters ("Nr.471102", "Lieferantenstraße20").
# A space is about 0.28 em in Helvetica; letters inside a word sit well under 0.1 em apart.
WORD_GAP_RATIO = 0.2


def without_covered_spaces(chars: list[dict]) -> list[dict]:
    """``chars`` without the space characters drawn over a glyph of their row (more than half the space's width
    covered). Some producers emit two spaces for one word gap, the second over the next word's first glyph
    (the ZUGFeRD 2.1 stylesheet's "DE 8 0333 München", "Nr. 4 71102"); pdfplumber ends a word at every space
    character, so the postcode and the invoice number came out as two words each."""
    if all(c["text"] != " " for c in chars):
        return chars
    rows: dict[int, list[tuple[float, float]]] = {}
    for c in chars:
        if c["text"] != " ":
            rows.setdefault(round(float(c["top"])), []).append((float(c["x0"]), float(c["x1"])))
    if not rows:
        return chars
    for spans in rows.values():
        spans.sort()
    starts = {row: [x0 for x0, _ in spans] for row, spans in rows.items()}

    def covered(c: dict) -> bool:
        x0, x1 = float(c["x0"]), float(c["x1"])
        row = round(float(c["top"]))
        for near in (row - 1, row, row + 1):
            spans = rows.get(near)
            if not spans:
                continue
            i = bisect.bisect_right(starts[near], x1)  # glyphs starting before the space ends
            for g0, g1 in spans[max(0, i - 2):i]:
                if min(x1, g1) - max(x0, g0) > 0.5 * (x1 - x0):
                    return True
        return False

    return [c for c in chars if c["text"] != " " or not covered(c)]


def page_words(page) -> TextLayer:
    """The words of one pdfplumber page, from one pass over its characters.

    pdfplumber gives the page as displayed (``/Rotate`` applied). When most of its text still runs
    sideways or upside down there (content drawn turned, or a ``/Rotate`` that turns upright content),
    the characters are turned first so that words group in reading order and boxes are upright.
    """
    return chars_to_words(page_chars(page), float(page.width), float(page.height))


def page_chars(page) -> list[dict]:
    """The characters of a pdfplumber page as ``page.chars`` gives them, with only the keys word grouping reads.

    ``page.chars`` turns every object pdfminer laid out (characters, and every line, rectangle and curve with
    its path) into a dict of all its attributes, each resolved through the PDF's object references: about
    half the time of reading a digital page, for keys nothing here reads. This walks pdfminer's layout as
    pdfplumber does (into figures; annotations are not characters) and computes the keys words need the way
    pdfplumber's ``Page.process_object`` does (0.11), so the values are the same floats
    (tests/readers/test_text_layer.py compares them on real PDFs).
    """
    if page.pdf.unicode_norm is not None:  # pdfplumber normalises text when asked; docextract never asks
        return page.chars
    height, doctop = page.height, page.initial_doctop
    mb_x0, mb_top = page.mediabox[:2]
    chars = []
    for obj in _layout_chars(page.layout._objs):
        x0, x1 = (obj.x0, obj.x1) if mb_x0 == 0 else (obj.x0 + mb_x0, obj.x1 + mb_x0)
        top = (height - obj.y1) + mb_top
        chars.append({"text": obj.get_text(), "x0": x0, "x1": x1, "top": top, "bottom": (height - obj.y0) + mb_top,
                      "doctop": doctop + top, "upright": obj.upright, "size": obj.size, "matrix": obj.matrix,
                      "height": obj.height, "width": obj.width})
    return chars


def _layout_chars(objects):
    for obj in objects:
        if isinstance(obj, LTChar):
            yield obj
        elif isinstance(obj, LTContainer):
            yield from _layout_chars(obj._objs)


def chars_to_words(chars: list[dict], width: float, height: float) -> TextLayer:
    """Words from pdfplumber-style character dicts (pdfplumber's own, or PDFium's: readers/pdfium_text.py)."""
    turn = dominant_turn(chars)
    if turn:
        chars = _turned_chars(chars, width, height, turn)
        if turn in (90, 270):
            width, height = height, width
    words = []
    for raw in extract_words(without_covered_spaces(chars), return_chars=True, x_tolerance_ratio=WORD_GAP_RATIO):
        for text, box in _key_apart_from_its_value(raw):
            outside = (box.x1 < -PAGE_EDGE_SLACK or box.bottom < -PAGE_EDGE_SLACK
                       or box.x0 > width + PAGE_EDGE_SLACK or box.top > height + PAGE_EDGE_SLACK)
            if text.strip() and not outside:
                words.append(Word(text=text, box=box))
    return TextLayer(tuple(words), width, height, turn)


# A key glued to its value by a colon, without a space: "Factuurnummer:2024-01093", "Nr.:4711", "Uw
# referentie:IO-2024-118" (letters, perhaps a dot, the colon, then a value with a digit: not "Re:Invoice", "http://")
_GLUED_KEY = re.compile(r"[^\W\d_]{2,}\.?:(?=[^\W_][\w\-/.]*\d)")


def _key_apart_from_its_value(raw: dict) -> list[tuple[str, Box]]:
    """A pdfplumber word (with its ``chars``) as the words a reader sees: a key glued to its value by a colon
    (:data:`_GLUED_KEY`) is two words, each with its characters' box, so that the key keys the value as it would
    with a space between them; any other word is itself."""
    text = raw["text"]
    box = Box(float(raw["x0"]), float(raw["top"]), float(raw["x1"]), float(raw["bottom"]))
    glued = _GLUED_KEY.match(text)
    chars = raw.get("chars") or []
    if glued is None or len(chars) != len(text):
        return [(text, box)]
    cut = glued.end()
    key, value = chars[:cut], chars[cut:]
    return [(text[:cut], Box(float(key[0]["x0"]), box.top, float(key[-1]["x1"]), box.bottom)),
            (text[cut:], Box(float(value[0]["x0"]), box.top, float(value[-1]["x1"]), box.bottom))]
