"""A PDF page's own text layer: pdfplumber words, and whether they are usable at all.

pdfplumber (pdfminer.six underneath) reports words in points with a top-left origin, in the frame of
the page as displayed: it applies ``/Rotate`` itself (checked on pdfplumber 0.11: a ``/Rotate 90``
page reports the turned width/height and words that match the pypdfium2 rendering of that page).
"""

from __future__ import annotations

import re
import unicodedata

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


def page_words(page, width: float, height: float) -> tuple[Word, ...]:
    """The words of one pdfplumber page in one ``extract_words`` pass, as :class:`Word` in points."""
    words = []
    for raw in page.extract_words():
        text = raw["text"]
        box = Box(float(raw["x0"]), float(raw["top"]), float(raw["x1"]), float(raw["bottom"]))
        outside = (box.x1 < -PAGE_EDGE_SLACK or box.bottom < -PAGE_EDGE_SLACK
                   or box.x0 > width + PAGE_EDGE_SLACK or box.top > height + PAGE_EDGE_SLACK)
        if text.strip() and not outside:
            words.append(Word(text=text, box=box))
    return tuple(words)
