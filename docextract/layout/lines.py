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


def _tip_span(words: Sequence[Word], line: list[int], reach_factor: float) -> tuple[float, float, float]:
    """(top, bottom, reach) of a line's tip words: their vertical extent, and the furthest x0 a word may start
    at and still join them (with a margin of a millionth for rounding: skipping must never change a decision)."""
    tips = [words[j].box for j in line[-LINE_TIP_WORDS:]]
    right = max(t.x1 for t in tips)
    reach = right + reach_factor * max(_height(t) for t in tips)
    return min(t.top for t in tips), max(t.bottom for t in tips), reach + 1e-6 * (abs(reach) + 1.0)


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
    # Per open line, what its tip words can still reach, for skipping lines that cannot take a word (exactly the
    # lines the full comparison below would reject; skipping keeps the result and takes the page from quadratic
    # comparisons to a few per word): the vertical extent of the tips (a word must overlap one of them), the
    # rightmost tip edge, and the reach to the right. A word that shares a baseline is at most
    # LINE_MAX_HEIGHT_RATIO times taller than a tip, so no word starts within a line's gap allowance further
    # right than ``right + max_gap * ratio * tallest tip``; words come in x0 order, so a line whose reach the
    # words have passed is retired for good.
    spans: list[tuple[float, float, float]] = []  # (top of the tips, bottom of the tips, reach), per open line
    active: list[int] = []  # indices into open_lines still in reach, in creation order
    reach_factor = max_gap_font_heights * LINE_MAX_HEIGHT_RATIO
    for i in order:
        box = words[i].box
        best, best_overlap = None, 0.0
        still_active = []
        for k in active:
            top, bottom, reach = spans[k]
            if box.x0 > reach:
                continue  # retired: every later word starts further right still
            still_active.append(k)
            if top >= box.bottom or bottom <= box.top:
                continue  # no tip overlaps the word vertically: no shared baseline
            line = open_lines[k]
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
                best, best_overlap = k, overlap
        active = still_active
        if best is None:
            open_lines.append([i])
            spans.append(_tip_span(words, open_lines[-1], reach_factor))
            active.append(len(open_lines) - 1)
        else:
            open_lines[best].append(i)
            spans[best] = _tip_span(words, open_lines[best], reach_factor)
    lines = [Line(tuple(idx), Box.enclosing([words[i].box for i in idx])) for idx in open_lines]
    lines.sort(key=lambda l: (l.box.top, l.box.x0))
    return tuple(lines)
