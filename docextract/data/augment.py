"""The LSPE paper's reading-order augmentations (docs/models.md §1b), as pure functions.

A *block* is a group of consecutive words whose inner order is kept: ``Page.blocks`` (in
``block_order``) when layout analysis made them, otherwise ``Page.lines``, otherwise runs of
consecutive words on the same visual line (:func:`reading_blocks`). Only the order of the blocks
changes; words keep their indices, so a :class:`LabelledDocument`'s labels stay attached
(``ldoc.with_document(augmented)``), and tags and 1D positions are recomputed from the new order.
Blocks are shuffled within each page. Use on the training split only.

* :func:`global_block_shuffle`: a random permutation of each page's blocks.
* :func:`neighbour_block_swap`: for each position ``b`` in turn, draw ``d = round(sigma * z)``,
  ``z ~ N(0, 1)``, and swap the blocks at ``b`` and ``clip(b + d, 0, n - 1)``.
* "No 1D position": not a re-ordering but a model-input option. With ``drop_1d=True``
  :func:`position_ids` gives every token position 0, so the 1D position encoding adds the same vector to
  every token (the paper's ablation, which keeps only the 2D layout encoding); use it in training *and*
  at test time.

Deterministic: the same ``seed`` gives the same order (``random.Random``, independent of global state).
"""

from __future__ import annotations

import random

from docextract.document import Block, Box, Document, Line, Page

DEFAULT_SIGMA = 1.0  # blocks; the paper's neighbour-swap standard deviation
SAME_LINE_OVERLAP = 0.5  # fraction of the smaller height two words must share to be on one visual line


def _runs_on_visual_lines(page: Page, order: list[int]) -> list[tuple[int, ...]]:
    runs: list[list[int]] = []
    for index in order:
        box = page.words[index].box
        if runs:
            last = page.words[runs[-1][-1]].box
            if box.x0 >= last.x0 and box.vertical_overlap(last) > SAME_LINE_OVERLAP * min(box.height, last.height):
                runs[-1].append(index)
                continue
        runs.append([index])
    return [tuple(run) for run in runs]


def reading_blocks(page: Page) -> list[tuple[int, ...]]:
    """The page's blocks in reading order, each as the word indices it holds in order."""
    if page.blocks:
        order = page.block_order or tuple(range(len(page.blocks)))
        return [tuple(w for li in page.blocks[b].line_indices for w in page.lines[li].word_indices) for b in order]
    if page.lines:
        return [line.word_indices for line in page.lines if line.word_indices]
    return _runs_on_visual_lines(page, page.ordered_word_indices())


def _with_block_order(page: Page, new_order: list[int]) -> Page:
    """The page reading its blocks in ``new_order`` (indices into :func:`reading_blocks`)."""
    if page.blocks:
        current = list(page.block_order or range(len(page.blocks)))
        return page.replace(block_order=tuple(current[i] for i in new_order))
    groups = reading_blocks(page)
    lines = tuple(Line(group, Box.enclosing([page.words[w].box for w in group])) for group in groups)
    blocks = tuple(Block((i,), line.box) for i, line in enumerate(lines))
    return page.replace(lines=lines, blocks=blocks, block_order=tuple(new_order))


def _reorder(doc: Document, seed: int, permute) -> Document:
    rng = random.Random(seed)
    pages = []
    for page in doc.pages:
        count = len(reading_blocks(page))
        pages.append(_with_block_order(page, permute(list(range(count)), rng)) if count > 1 else page)
    return doc.replace(pages=tuple(pages))


def global_block_shuffle(doc: Document, seed: int) -> Document:
    """Each page's blocks in a random order (words inside a block keep theirs)."""
    def permute(order: list[int], rng: random.Random) -> list[int]:
        rng.shuffle(order)
        return order
    return _reorder(doc, seed, permute)


def neighbour_block_swap(doc: Document, seed: int, sigma: float = DEFAULT_SIGMA) -> Document:
    """Each block swapped with a neighbour at a normally distributed distance (``sigma`` in blocks)."""
    def permute(order: list[int], rng: random.Random) -> list[int]:
        last = len(order) - 1
        for b in range(len(order)):
            d = round(sigma * rng.gauss(0.0, 1.0))
            other = min(max(b + d, 0), last)
            order[b], order[other] = order[other], order[b]
        return order
    return _reorder(doc, seed, permute)


def position_ids(length: int, drop_1d: bool = False) -> list[int]:
    """1D position ids of a ``length``-token input: ``0..length-1``, or all zeros when ``drop_1d``."""
    return [0] * length if drop_1d else list(range(length))
