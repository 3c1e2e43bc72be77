"""A page scanned askew: its text lines' slope is measured and the words' boxes turned level."""

import math

from docextract.document import Box, Word
from docextract.readers.ocr import deskewed, text_skew


def _tilted_page(degrees: float) -> tuple[tuple[Word, ...], list[tuple]]:
    """Six lines of four words, a key column at x=70 and a value column at x=260, turned ``degrees`` (falling to the
    right) about the centre of a 595 x 842 pt page."""
    slope = math.tan(math.radians(degrees))
    words, lines = [], []
    for row in range(6):
        for column, x in enumerate((70, 120, 260, 330)):
            y = 300 + 18 * row + (x - 297.5) * slope
            words.append(Word(f"w{row}{column}", Box(x, y - 4, x + 40, y + 4), 0.9))
            lines.append((1, 1, row))
    return tuple(words), lines


def test_a_tilted_pages_lines_come_level_and_a_level_page_is_untouched():
    words, lines = _tilted_page(1.5)
    assert abs(text_skew(words, lines) - 1.5) < 0.05
    level = deskewed(words, lines, 595.0, 842.0)
    for row in range(6):
        tops = [w.box.top for w in level[4 * row:4 * row + 4]]
        assert max(tops) - min(tops) < 0.2  # the key and its value on one row again (8 pt apart before)
    assert all(abs(a.box.width - b.box.width) < 1e-9 for a, b in zip(words, level))  # boxes keep their size
    flat, flat_lines = _tilted_page(0.0)
    assert deskewed(flat, flat_lines, 595.0, 842.0) == flat
    steep, steep_lines = _tilted_page(12.0)
    assert deskewed(steep, steep_lines, 595.0, 842.0) == steep  # past MAX_DESKEW_DEGREES: not trusted
