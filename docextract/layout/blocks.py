"""Lines -> blocks: paragraphs, table cells, address blocks.

A line continues the block above it when the vertical gap between them is small (relative
to the line height), the two lines overlap horizontally and are aligned (left edges, right edges
or centres), and their font heights are alike (a heading does not
swallow the paragraph below it). Lines are taken top to bottom; each joins the nearest block
that ends just above it, so side-by-side columns and table cells grow as separate blocks.
"""

from __future__ import annotations

import bisect
from typing import Sequence

from docextract.document import Block, Box, Line
from docextract.layout.lines import LINE_MAX_HEIGHT_RATIO, MIN_WORD_HEIGHT, shares_baseline


# Largest vertical whitespace between two lines of one block, in heights of the lower line.
# Single- to 1.5-spaced text leaves 0.2-0.7 of a line height; a paragraph break, the next
# table row or the next field of a form usually leaves more.
BLOCK_MAX_GAP_LINE_HEIGHTS = 0.8  # line heights

# Two lines are aligned when their left edges, right edges or centres are closer than this (in
# line heights): left-aligned or justified text, right-aligned text (an address in a letter's
# corner, amounts in a cell), centred text (titles, footers). A short value written under a
# longer form label is none of these and stays a block of its own.
BLOCK_ALIGNMENT_TOLERANCE_LINE_HEIGHTS = 1.0  # line heights

# Lines whose heights differ by more than this factor belong to different blocks (heading vs body).
BLOCK_MAX_HEIGHT_RATIO = 1.6  # ratio taller/shorter

# A line may start this far (in line heights) above the previous line's bottom and still be
# "below" it: OCR boxes of consecutive lines sometimes overlap slightly.
BLOCK_MAX_LINE_OVERLAP_LINE_HEIGHTS = 0.3  # line heights

MIN_LINE_HEIGHT = 1.0  # points, for degenerate boxes

# A dense table without cell padding stacks each column's cells into one aligned block, which
# would make the table read column by column. A line is taken for a table cell, and becomes a
# block of its own, when it is short (at most this many words) and shares its baseline with
# another short line of a different block (the row's other cells). Running text in two columns
# has the row alignment too, but long lines; an address block has short lines, but nothing
# short beside them.
TABLE_CELL_MAX_WORDS = 4  # words


def _height(box: Box) -> float:
    return max(box.height, MIN_LINE_HEIGHT)


def continues_block(upper: Box, lower: Box) -> float | None:
    """The vertical gap (points) if line ``lower`` continues the block whose last line is ``upper``, else None."""
    h_up, h_low = _height(upper), _height(lower)
    if max(h_up, h_low) > BLOCK_MAX_HEIGHT_RATIO * min(h_up, h_low):
        return None
    gap = lower.top - upper.bottom
    if gap < -BLOCK_MAX_LINE_OVERLAP_LINE_HEIGHTS * h_low or gap > BLOCK_MAX_GAP_LINE_HEIGHTS * h_low:
        return None
    overlap = upper.horizontal_overlap(lower)
    if overlap <= 0.0:
        return None
    tolerance = BLOCK_ALIGNMENT_TOLERANCE_LINE_HEIGHTS * min(h_up, h_low)
    aligned = (
        abs(upper.x0 - lower.x0) <= tolerance
        or abs(upper.x1 - lower.x1) <= tolerance
        or abs(upper.center[0] - lower.center[0]) <= tolerance
    )
    return gap if aligned else None


def group_blocks(lines: Sequence[Line]) -> tuple[Block, ...]:
    """Group a page's lines into blocks; returns blocks sorted top to bottom, then left to right.

    Every line index appears in exactly one block; each block's ``line_indices`` run top to bottom.
    """
    order = sorted(range(len(lines)), key=lambda i: (lines[i].box.top, lines[i].box.x0))
    chains: list[list[int]] = []  # line indices, top to bottom
    # Lines come top to bottom, so a chain whose last line ends further above the next line than any line may
    # leap (BLOCK_MAX_GAP_LINE_HEIGHTS of the lower line, which is at most BLOCK_MAX_HEIGHT_RATIO times the upper
    # one) can never continue: it is retired, which keeps every decision and makes the page near-linear.
    reach_factor = BLOCK_MAX_GAP_LINE_HEIGHTS * BLOCK_MAX_HEIGHT_RATIO
    active: list[int] = []  # indices into chains still in reach, in creation order
    for i in order:
        box = lines[i].box
        best, best_gap = None, float("inf")
        still_active = []
        for k in active:
            upper = lines[chains[k][-1]].box
            reach = upper.bottom + reach_factor * _height(upper)
            if box.top > reach + 1e-6 * (abs(reach) + 1.0):
                continue  # retired
            still_active.append(k)
            gap = continues_block(upper, box)
            if gap is not None and gap < best_gap:
                best, best_gap = k, gap
        active = still_active
        if best is None:
            chains.append([i])
            active.append(len(chains) - 1)
        else:
            chains[best].append(i)
    chains = _split_table_columns(chains, lines)
    blocks = [Block(tuple(c), Box.enclosing([lines[i].box for i in c])) for c in chains]
    blocks.sort(key=lambda b: (b.box.top, b.box.x0))
    return tuple(blocks)


def _split_table_columns(chains: list[list[int]], lines: Sequence[Line]) -> list[list[int]]:
    """Chains with every table cell (see :data:`TABLE_CELL_MAX_WORDS`) split off as a chain of its own."""
    owner = {li: k for k, chain in enumerate(chains) for li in chain}
    short = [li for li in range(len(lines)) if len(lines[li].word_indices) <= TABLE_CELL_MAX_WORDS]
    # Lines that share a baseline overlap vertically and are at most LINE_MAX_HEIGHT_RATIO times each other's
    # height, so a short line's partners have their top within that many of its heights above its own top and
    # above its bottom: found by bisection in the list sorted by top (the same pairs that can pass, few tried).
    by_top = sorted(short, key=lambda li: lines[li].box.top)
    tops = [lines[li].box.top for li in by_top]
    cells = set()
    for li in short:
        box = lines[li].box
        lowest = box.top - LINE_MAX_HEIGHT_RATIO * max(box.height, MIN_WORD_HEIGHT)
        start = bisect.bisect_left(tops, lowest - 1e-6 * (abs(lowest) + 1.0))
        for lj in by_top[start:bisect.bisect_left(tops, box.bottom)]:
            if owner[lj] != owner[li] and shares_baseline(box, lines[lj].box):
                cells.add(li)
                break
    result: list[list[int]] = []
    for chain in chains:
        run: list[int] = []
        for li in chain:
            if li in cells:
                if run:
                    result.append(run)
                    run = []
                result.append([li])
            else:
                run.append(li)
        if run:
            result.append(run)
    return result
