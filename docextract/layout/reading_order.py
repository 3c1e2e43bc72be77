"""Reading order of blocks: recursive XY-cut with column detection.

The region holding the blocks is cut at a whitespace gap that no block crosses, and each side
is ordered recursively (top before bottom, left before right). A region usually has gaps on both
axes, and which one to cut first decides the order:

* two text columns: read the whole left column, then the right one (cut vertically first);
* a table or a form of label/value pairs: read row by row (cut horizontally first).

What tells them apart is whether the rows line up. Split the region into its columns (at the
vertical gaps) and look at the horizontal gaps inside each column: in a table they are the
table's row gaps, shared by every column; in running text each column breaks its paragraphs
wherever its text ends, so most of its gaps are its own. If at least
:data:`ROW_ALIGNMENT_MIN_FRACTION` of the columns' gaps are also gaps of the whole region, the
rows line up and the region is cut horizontally; otherwise it is cut into columns. On the
chosen axis the cut is made at the widest gap (classic XY-cut), and both sides are decided
afresh, so a page header, two columns, and a footer come out in that order.

Functions return permutations (tuples of indices) and never reorder their input.
"""

from __future__ import annotations

from typing import Sequence

from docextract.document import Box

# Whitespace narrower than this does not count as a gap between blocks (OCR boxes jitter by a
# point or so; touching boxes are one region).
MIN_CUT_GAP = 1.0  # points

# Fraction of the per-column horizontal gaps that must also cross the whole region for the
# region to be read row by row (a table) rather than column by column (running text).
ROW_ALIGNMENT_MIN_FRACTION = 0.5  # fraction

Interval = tuple[float, float]


def projection_gaps(intervals: Sequence[Interval], min_gap: float = MIN_CUT_GAP) -> list[Interval]:
    """The empty stretches (at least ``min_gap`` wide) between the union of ``intervals``, in order."""
    gaps: list[Interval] = []
    spans = sorted(intervals)
    if not spans:
        return gaps
    reach = spans[0][1]
    for start, end in spans[1:]:
        if start - reach >= min_gap:
            gaps.append((reach, start))
        reach = max(reach, end)
    return gaps


def _y_gaps(boxes: Sequence[Box], idx: Sequence[int]) -> list[Interval]:
    return projection_gaps([(boxes[i].top, boxes[i].bottom) for i in idx])


def _x_gaps(boxes: Sequence[Box], idx: Sequence[int]) -> list[Interval]:
    return projection_gaps([(boxes[i].x0, boxes[i].x1) for i in idx])


def _split(boxes: Sequence[Box], idx: Sequence[int], cut: float, vertical: bool) -> tuple[list[int], list[int]]:
    """Blocks before (left of / above) and after the cut line."""
    before = [i for i in idx if (boxes[i].x1 if vertical else boxes[i].bottom) <= cut]
    after = [i for i in idx if (boxes[i].x1 if vertical else boxes[i].bottom) > cut]
    return before, after


def _columns(boxes: Sequence[Box], idx: Sequence[int], x_gaps: Sequence[Interval]) -> list[list[int]]:
    """The region's blocks split at every vertical gap, left to right."""
    columns: list[list[int]] = [[] for _ in range(len(x_gaps) + 1)]
    for i in idx:
        column = sum(1 for g in x_gaps if boxes[i].x0 >= g[1])
        columns[column].append(i)
    return columns


def rows_line_up(boxes: Sequence[Box], idx: Sequence[int], x_gaps: Sequence[Interval], y_gaps: Sequence[Interval]) -> bool:
    """True when most horizontal gaps inside the region's columns are gaps of the whole region (a table)."""
    own = shared = 0
    for column in _columns(boxes, idx, x_gaps):
        for gap in _y_gaps(boxes, column):
            if any(gap[0] < g[1] and g[0] < gap[1] for g in y_gaps):
                shared += 1
            else:
                own += 1
    total = own + shared
    return total > 0 and shared >= ROW_ALIGNMENT_MIN_FRACTION * total


def _widest(gaps: Sequence[Interval]) -> float:
    """The middle of the widest gap (the first of equals)."""
    start, end = max(gaps, key=lambda g: g[1] - g[0])
    return (start + end) / 2.0


def _xy_cut(boxes: Sequence[Box], idx: list[int]) -> list[int]:
    if len(idx) <= 1:
        return idx
    y_gaps, x_gaps = _y_gaps(boxes, idx), _x_gaps(boxes, idx)
    if not y_gaps and not x_gaps:
        # Overlapping blocks with no clean cut: top to bottom, then left to right.
        return sorted(idx, key=lambda i: (boxes[i].top, boxes[i].x0))
    vertical = bool(x_gaps) and not (y_gaps and rows_line_up(boxes, idx, x_gaps, y_gaps))
    before, after = _split(boxes, idx, _widest(x_gaps if vertical else y_gaps), vertical)
    return _xy_cut(boxes, before) + _xy_cut(boxes, after)


def reading_order(boxes: Sequence[Box]) -> tuple[int, ...]:
    """The reading order of ``boxes`` (block boxes of one page) as a permutation of their indices."""
    return tuple(_xy_cut(boxes, list(range(len(boxes)))))
