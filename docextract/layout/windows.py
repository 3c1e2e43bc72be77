"""Windows: model-sized slices of a document's reading order, overlapping so no word loses its context.

A layout encoder reads at most 512 tokens. A longer page (or document) is cut into windows
over ``Document.ordered_words()``:

* Windows are built from whole lines. A line (as found by layout analysis) is never split
  between windows, unless the line alone has more tokens than the budget: then it is cut at
  word boundaries into pieces that fit (a single word longer than the whole budget gets a
  window to itself, and the encoder truncates its subwords).
* Consecutive windows overlap by at most ``stride`` tokens (whole lines, so usually a little
  less), the context each shares with the other.
* Every word belongs to exactly one window's *core* (``Window.core_start:core_end``), the
  part whose predictions are kept. The core boundary between two windows lies in the middle of
  their overlap (at a line boundary), so a word near a window edge is predicted by the window
  in which it has context on both sides.
* Windows stay within one page unless ``cross_pages=True`` (for long-range models that read a
  whole document).

Pages without layout analysis (no blocks) have no lines: each word counts as its own line.
"""

from __future__ import annotations

from typing import Sequence

from docextract.document import Document, Window, WordRef
from docextract.errors import UsageError

DEFAULT_MAX_TOKENS = 510  # a 512-token model minus [CLS] and [SEP]
DEFAULT_STRIDE = 128  # tokens of context shared by consecutive windows

Unit = tuple[int, int]  # [start, end) positions in the ordered word list: one line or line piece


def _line_units(doc: Document) -> list[tuple[int, int, int]]:
    """(start, end, page_index) of every line, in reading order, as positions in ``doc.ordered_words()``."""
    units: list[tuple[int, int, int]] = []
    position = 0
    for page_index, page in enumerate(doc.pages):
        if not page.blocks:
            units.extend((position + k, position + k + 1, page_index) for k in range(len(page.words)))
            position += len(page.words)
            continue
        order = page.block_order or tuple(range(len(page.blocks)))
        for b in order:
            for li in page.blocks[b].line_indices:
                n = len(page.lines[li].word_indices)
                if n:
                    units.append((position, position + n, page_index))
                    position += n
    return units


def _fit_units(units: list[tuple[int, int, int]], counts: Sequence[int], max_tokens: int) -> list[tuple[int, int, int]]:
    """Cut lines that alone exceed ``max_tokens`` into word-boundary pieces that fit."""
    fitted = []
    for start, end, page in units:
        if sum(counts[start:end]) <= max_tokens:
            fitted.append((start, end, page))
            continue
        piece_start, tokens = start, 0
        for k in range(start, end):
            if tokens and tokens + counts[k] > max_tokens:
                fitted.append((piece_start, k, page))
                piece_start, tokens = k, 0
            tokens += counts[k]
        fitted.append((piece_start, end, page))
    return fitted


def _segments(units: list[tuple[int, int, int]], cross_pages: bool) -> list[list[tuple[int, int, int]]]:
    """Runs of units that windows may span: one per page, or the whole document."""
    segments: list[list[tuple[int, int, int]]] = []
    for unit in units:
        if segments and (cross_pages or segments[-1][-1][2] == unit[2]):
            segments[-1].append(unit)
        else:
            segments.append([unit])
    return segments


def _plan_segment(tokens: Sequence[int], max_tokens: int, stride: int) -> list[tuple[int, int, int, int]]:
    """Windows over one segment's units (by their token counts): (start, end, core_start, core_end) unit indices."""
    spans: list[tuple[int, int]] = []
    start = 0
    n = len(tokens)
    while True:
        end, used = start, 0
        while end < n and (end == start or used + tokens[end] <= max_tokens):
            used += tokens[end]
            end += 1
        spans.append((start, end))
        if end >= n:
            break
        # The next window starts as early as it can while sharing at most `stride` tokens with this
        # one, and still has room for the first unit this one could not take.
        next_start, shared = end, 0
        while (
            next_start - 1 > start
            and shared + tokens[next_start - 1] <= stride
            and shared + tokens[next_start - 1] + tokens[end] <= max_tokens
        ):
            next_start -= 1
            shared += tokens[next_start]
        start = next_start
    plan = []
    core_start = 0
    for k, (s, e) in enumerate(spans):
        if k + 1 == len(spans):
            core_end = e
        else:
            # After a short window (its next line was long) the next window may reach back past
            # this core's start: the boundary never moves before it.
            core_end = _middle_of_overlap(tokens, max(spans[k + 1][0], core_start), e)
        plan.append((s, e, core_start, core_end))
        core_start = core_end
    return plan


def _middle_of_overlap(tokens: Sequence[int], overlap_start: int, overlap_end: int) -> int:
    """The unit boundary in [overlap_start, overlap_end] that halves the overlap's tokens most evenly."""
    total = sum(tokens[overlap_start:overlap_end])
    best, best_diff, before = overlap_start, float("inf"), 0
    for boundary in range(overlap_start, overlap_end + 1):
        diff = abs(total - 2 * before)
        if diff < best_diff:
            best, best_diff = boundary, diff
        if boundary < overlap_end:
            before += tokens[boundary]
    return best


def make_windows(
    doc: Document,
    token_counts: Sequence[int],
    *,
    max_tokens: int = 512,
    stride: int = 128,
    cross_pages: bool = False,
) -> list[Window]:
    """Cut ``doc``'s reading order into overlapping windows of at most ``max_tokens`` tokens.

    ``token_counts[i]`` is the number of subword tokens of the i-th word of ``doc.ordered_words()``
    (see :func:`docextract.modeling.tokenizer.subword_counts`). ``max_tokens`` counts these word tokens
    only: the special tokens the model adds ([CLS] and [SEP], 2 for a BERT-style encoder) must be
    reserved by the caller, so for a 512-position model pass ``max_tokens=510``. ``stride`` is the
    most tokens two consecutive windows share. Run layout analysis first (``analyze_layout``) so that
    windows respect lines; see the module docstring for the guarantees.
    """
    if max_tokens < 1:
        raise UsageError(f"the window size must be at least 1 token, got {max_tokens}")
    if not 0 <= stride < max_tokens:
        raise UsageError(f"the stride must be between 0 and the window size ({max_tokens}) minus 1, got {stride}")
    refs: list[WordRef] = doc.ordered_words()
    if len(token_counts) != len(refs):
        raise ValueError(f"token_counts has {len(token_counts)} entries for {len(refs)} words")
    units = _fit_units(_line_units(doc), token_counts, max_tokens)
    windows: list[Window] = []
    for segment in _segments(units, cross_pages):
        unit_tokens = [sum(token_counts[s:e]) for s, e, _ in segment]
        for s, e, cs, ce in _plan_segment(unit_tokens, max_tokens, stride):
            first, last = segment[s][0], segment[e - 1][1]
            words = tuple(refs[first:last])
            windows.append(Window(
                index=len(windows),
                words=words,
                token_count=sum(unit_tokens[s:e]),
                core_start=segment[cs][0] - first,
                core_end=(segment[ce][0] if ce < len(segment) else segment[-1][1]) - first,
                pages=tuple(sorted({ref.page_index for ref in words})),
            ))
    return windows
