"""Words -> lines: words that share a baseline, read left to right.

A word joins a line when it overlaps the line's last word vertically (by a fraction of the
smaller of the two heights) and starts close enough to the right of it. "Close enough" is
measured in font heights, so the same rule works for 8 pt footnotes and 24 pt titles, and two
columns that happen to sit on the same baseline stay two lines: a column gutter is several
font heights wide, a word space a fraction of one.

Words are taken left to right, and each joins the open line whose last words it overlaps best, so lines
follow a slightly skewed scan instead of being cut by a horizontal band.
"""

from __future__ import annotations

from typing import Sequence

from docextract.document import Box, Line, Word

# Two boxes share a baseline when their vertical overlap is at least this fraction of the
# smaller box's height (fraction, 0..1). 0.5 keeps sub/superscripts and OCR jitter on their
# line while a line above or below (which overlaps by leading only) stays apart.
LINE_MIN_VERTICAL_OVERLAP = 0.5  # fraction of the smaller height

# The widest horizontal gap inside a line, in heights of the taller of the two words (a
# proxy for the font size in points). A word space is ~0.25-0.35 of it, justified text stretches
# it to about 1; column gutters and form fields separated by whitespace are wider than 1.5.
LINE_MAX_GAP_FONT_HEIGHTS = 1.5  # font heights

# Words whose heights differ by more than this factor never share a line: a rotated word
# (a vertical stamp or barcode number, tall and thin) crosses several text lines.
LINE_MAX_HEIGHT_RATIO = 2.5  # ratio taller/shorter

# How many of a line's last words a new word is compared with.
LINE_TIP_WORDS = 3  # words

# Words with a degenerate box (zero height, as some PDF producers emit) count as this tall.
MIN_WORD_HEIGHT = 1.0  # points


def _height(box: Box) -> float:
    return max(box.height, MIN_WORD_HEIGHT)


def shares_baseline(a: Box, b: Box, min_overlap: float = LINE_MIN_VERTICAL_OVERLAP) -> bool:
    """True when ``a`` and ``b`` overlap vertically by at least ``min_overlap`` of the smaller height
    and neither is more than :data:`LINE_MAX_HEIGHT_RATIO` times taller than the other."""
    ha, hb = _height(a), _height(b)
    if max(ha, hb) > LINE_MAX_HEIGHT_RATIO * min(ha, hb):
        return False
    return a.vertical_overlap(b) >= min_overlap * min(_height(a), _height(b))


def group_lines(
    words: Sequence[Word],
    *,
    min_vertical_overlap: float = LINE_MIN_VERTICAL_OVERLAP,
    max_gap_font_heights: float = LINE_MAX_GAP_FONT_HEIGHTS,
) -> tuple[Line, ...]:
    """Group a page's words into lines; returns lines sorted top to bottom, then left to right.

    Every word index appears in exactly one line; each line's ``word_indices`` run left to right.
    """
    order = sorted(range(len(words)), key=lambda i: (words[i].box.x0, words[i].box.top))
    open_lines: list[list[int]] = []  # word indices, left to right; the last one is the line's tip
    for i in order:
        box = words[i].box
        best, best_overlap = None, 0.0
        for line in open_lines:
            # Compare with the line's last few words, not only the last one: a superscript or a
            # small mark at the tip must not cut the line off from the rest of its words.
            tips = [words[j].box for j in line[-LINE_TIP_WORDS:]]
            right = max(t.x1 for t in tips)
            overlap = max(
                (t.vertical_overlap(box) / min(_height(t), _height(box)) for t in tips
                 if shares_baseline(t, box, min_vertical_overlap)
                 and box.x0 - right <= max_gap_font_heights * max(_height(t), _height(box))),
                default=0.0,
            )  # the gap is negative when the boxes touch or overlap (OCR jitter)
            if overlap > best_overlap:
                best, best_overlap = line, overlap
        if best is None:
            open_lines.append([i])
        else:
            best.append(i)
    lines = [Line(tuple(idx), Box.enclosing([words[i].box for i in idx])) for idx in open_lines]
    lines.sort(key=lambda l: (l.box.top, l.box.x0))
    return tuple(lines)
