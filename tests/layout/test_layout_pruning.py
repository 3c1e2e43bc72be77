"""Lines and blocks skip the candidates that cannot match (lines out of reach, chains left behind, lines that do
not overlap vertically); skipping must never change a decision. The references below are the exhaustive
algorithms as they were before the pruning (every word against every open line, every line against every
chain, every short line against every other), run on real pages and on random pages full of edge cases."""

from __future__ import annotations

import random

import pytest
from funsd_words import funsd_document

from docextract.document import Block, Box, Line, Word
from docextract.layout import blocks as blocks_mod
from docextract.layout import lines as lines_mod
from docextract.layout.blocks import group_blocks
from docextract.layout.lines import group_lines


def reference_lines(words):
    h = lines_mod._height
    order = sorted(range(len(words)), key=lambda i: (words[i].box.x0, words[i].box.top))
    open_lines = []
    for i in order:
        box = words[i].box
        best, best_overlap = None, 0.0
        for line in open_lines:
            tips = [words[j].box for j in line[-lines_mod.LINE_TIP_WORDS:]]
            right = max(t.x1 for t in tips)
            overlap = max((t.vertical_overlap(box) / min(h(t), h(box)) for t in tips
                           if lines_mod.shares_baseline(t, box)
                           and box.x0 - right <= lines_mod.LINE_MAX_GAP_FONT_HEIGHTS * max(h(t), h(box))), default=0.0)
            if overlap > best_overlap:
                best, best_overlap = line, overlap
        if best is None:
            open_lines.append([i])
        else:
            best.append(i)
    lines = [Line(tuple(idx), Box.enclosing([words[i].box for i in idx])) for idx in open_lines]
    lines.sort(key=lambda line: (line.box.top, line.box.x0))
    return tuple(lines)


def reference_blocks(lines):
    order = sorted(range(len(lines)), key=lambda i: (lines[i].box.top, lines[i].box.x0))
    chains = []
    for i in order:
        best, best_gap = None, float("inf")
        for chain in chains:
            gap = blocks_mod.continues_block(lines[chain[-1]].box, lines[i].box)
            if gap is not None and gap < best_gap:
                best, best_gap = chain, gap
        if best is None:
            chains.append([i])
        else:
            best.append(i)
    owner = {li: k for k, chain in enumerate(chains) for li in chain}
    short = [li for li in range(len(lines)) if len(lines[li].word_indices) <= blocks_mod.TABLE_CELL_MAX_WORDS]
    cells = {li for li in short
             if any(owner[lj] != owner[li] and lines_mod.shares_baseline(lines[li].box, lines[lj].box) for lj in short)}
    result = []
    for chain in chains:
        run = []
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
    blocks = [Block(tuple(c), Box.enclosing([lines[i].box for i in c])) for c in result]
    blocks.sort(key=lambda b: (b.box.top, b.box.x0))
    return tuple(blocks)


def random_page(seed: int) -> tuple[Word, ...]:
    """Text lines in two columns and a table, of mixed font sizes, with jitter, superscripts, zero-height boxes,
    overlapping boxes, tall rotated words and words exactly at the reach of a line."""
    rng = random.Random(seed)
    words = []
    y = 20.0
    while y < 780:
        size = rng.choice([6.0, 8.0, 10.0, 10.0, 12.0, 18.0, 24.0])
        for column_x in rng.choice([[30.0], [30.0, 320.0], [30.0, 150.0, 260.0, 400.0, 520.0]]):
            x = column_x + rng.uniform(0, 20)
            for _ in range(rng.randint(1, 7)):
                width = rng.uniform(0.5, 6) * size
                jitter = rng.uniform(-0.3, 0.3) * size
                kind = rng.random()
                if kind < 0.05:
                    box = Box(x, y + jitter, x + width, y + jitter)  # zero height
                elif kind < 0.08:
                    box = Box(x, y - 3 * size, x + size, y + 3 * size)  # tall rotated word
                elif kind < 0.12:
                    box = Box(x, y - 0.4 * size, x + width / 3, y + 0.3 * size)  # superscript
                else:
                    box = Box(x, y + jitter, x + width, y + jitter + size)
                words.append(Word("w", box))
                gap = rng.choice([0.0, -0.2, 0.3, 1.0, 1.5 * 1.0, 3.75, 5.0]) * size  # touching .. at the reach .. beyond
                x = box.x1 + gap
        y += rng.uniform(0.6, 2.5) * size
    rng.shuffle(words)
    return tuple(words)


@pytest.mark.parametrize("seed", range(40))
def test_pruned_lines_and_blocks_equal_the_exhaustive_ones_on_random_pages(seed):
    words = random_page(seed)
    lines = group_lines(words)
    assert lines == reference_lines(words)
    assert group_blocks(lines) == reference_blocks(lines)


def test_pruned_lines_and_blocks_equal_the_exhaustive_ones_on_funsd_forms(shared_data):
    folder = shared_data("funsd", "testing_data", "annotations")
    for annotation in sorted(folder.glob("*.json"))[:15]:
        words = funsd_document(annotation).pages[0].words
        lines = group_lines(words)
        assert lines == reference_lines(words), annotation.name
        assert group_blocks(lines) == reference_blocks(lines), annotation.name


def test_pruned_lines_and_blocks_equal_the_exhaustive_ones_on_real_pdf_pages(shared_data):
    from docextract.readers import read_document

    paths = sorted(shared_data("einvoices").rglob("*.pdf"))[:12] + sorted(shared_data("pdfs").rglob("*.pdf"))[:25]
    checked = 0
    for path in paths:
        try:
            doc = read_document(path, ocr="never", lang="eng", dpi=300, password=None)
        except Exception:  # noqa: BLE001 - the odd-PDF corpus holds encrypted and broken files on purpose
            continue
        for page in doc.pages:
            lines = group_lines(page.words)
            assert lines == reference_lines(page.words), path
            assert group_blocks(lines) == reference_blocks(lines), path
            checked += bool(page.words)
    assert checked >= 20
