"""Reading order by XY-cut: known orders for columns, tables, header/body/footer, and on a real form."""

from __future__ import annotations

import random

from funsd_words import funsd_document

from docextract.document import Box, Document, Page, Word
from docextract.layout import analyze_layout, reading_order
from docextract.layout.reading_order import projection_gaps


def shuffled(boxes, seed=0):
    """Boxes in a random order plus the permutation back, so tests prove order comes from geometry."""
    order = list(range(len(boxes)))
    random.Random(seed).shuffle(order)
    return [boxes[i] for i in order], order


def read(boxes, seed=0):
    """The reading order of ``boxes`` (as indices into the *unshuffled* list), computed on a shuffled copy."""
    mixed, order = shuffled(boxes, seed)
    return [order[i] for i in reading_order(mixed)]


def test_projection_gaps():
    assert projection_gaps([(0, 10), (12, 20), (5, 11), (30, 40)]) == [(11, 12), (20, 30)]
    assert projection_gaps([(0, 10), (10.5, 20)]) == []  # under the minimum gap
    assert projection_gaps([]) == []


def test_two_column_page_reads_all_of_the_left_column_before_the_right():
    # Paragraph breaks at different heights in each column, as running text has them.
    left = [Box(50, 100, 290, 220), Box(50, 232, 290, 400), Box(50, 412, 290, 700)]
    right = [Box(310, 100, 550, 300), Box(310, 312, 550, 520), Box(310, 532, 550, 700)]
    boxes = left + right
    for seed in range(5):
        assert read(boxes, seed) == [0, 1, 2, 3, 4, 5]


def test_two_columns_stay_whole_even_when_one_paragraph_break_lines_up():
    left = [Box(50, 100, 290, 200), Box(50, 212, 290, 330), Box(50, 342, 290, 500), Box(50, 512, 290, 700)]
    right = [Box(310, 100, 550, 160), Box(310, 172, 550, 200), Box(310, 214, 550, 420), Box(310, 432, 550, 700)]
    # Both columns break between 200 and 212: the one gap the whole page shares.
    assert read(left + right) == list(range(8))


def test_table_is_read_row_by_row():
    boxes = []
    for r in range(4):
        for c in range(3):
            boxes.append(Box(50 + 150 * c, 100 + 20 * r, 120 + 150 * c, 112 + 20 * r))  # column gaps >> row gaps
    for seed in range(5):
        assert read(boxes, seed) == list(range(12))


def test_header_two_columns_footer():
    header = [Box(50, 40, 550, 60)]
    left = [Box(50, 100, 290, 300), Box(50, 312, 290, 700)]
    right = [Box(310, 100, 550, 450), Box(310, 462, 550, 700)]
    footer = [Box(250, 750, 350, 762)]
    boxes = header + left + right + footer
    assert read(boxes) == [0, 1, 2, 3, 4, 5]


def test_label_value_form_rows_read_label_then_value():
    boxes = []
    for r in range(5):
        boxes += [Box(50, 100 + 30 * r, 140, 112 + 30 * r), Box(200, 100 + 30 * r, 400, 112 + 30 * r)]
    assert read(boxes) == list(range(10))


def test_overlapping_blocks_fall_back_to_top_then_left_and_result_is_a_permutation():
    boxes = [Box(0, 0, 100, 100), Box(50, 50, 150, 150), Box(20, 10, 60, 120)]
    order = reading_order(boxes)
    assert sorted(order) == [0, 1, 2]
    assert order == (0, 2, 1)
    assert reading_order([]) == ()


def test_analyze_layout_is_pure_and_fills_every_page(shared_data):
    doc = funsd_document(shared_data("funsd", "testing_data", "annotations", "82200067_0069.json"))
    two_pages = doc.replace(pages=(doc.pages[0], doc.pages[0].replace(number=2)))
    analysed = analyze_layout(two_pages)
    assert two_pages.pages[0].lines == () and two_pages.pages[0].blocks == ()  # input untouched
    for page in analysed.pages:
        assert page.lines and page.blocks
        assert sorted(page.block_order) == list(range(len(page.blocks)))
    assert sorted(r.word_index for r in analysed.ordered_words() if r.page_index == 0) == list(range(len(doc.pages[0].words)))


def test_funsd_table_and_form_rows_read_in_order(shared_data):
    doc = analyze_layout(funsd_document(shared_data("funsd", "testing_data", "annotations", "82200067_0069.json")))
    text = " ".join(w.text for _, w in doc.iter_words())
    # Form rows: each label before its value, row after row.
    assert text.index("TO:") < text.index("K. A. Sparrow") < text.index("FROM:") < text.index("T. D. Blachly")
    assert text.index("SUBJECT:") < text.index("OLD GOLD MENTHOL")
    # Two-by-two division grid read row by row.
    assert text.index("Portland") < text.index("Seattle South") < text.index("Boise") < text.index("Seattle North")
    # The accounts table read row by row: each account, then its volume and store count.
    assert text.index("Texaco Seattle") < text.index("105 / 5") < text.index("225") < text.index("Texaco Portland")
    assert text.index("Texaco Portland") < text.index("61 / 3") < text.index("27") < text.index("Maid -O Clover")


def test_empty_page_has_empty_layout():
    doc = Document("empty.json", (Page(1, 612, 792, ()),))
    page = analyze_layout(doc).pages[0]
    assert (page.lines, page.blocks, page.block_order) == ((), (), ())


def test_single_word_page():
    doc = Document("one.json", (Page(1, 612, 792, (Word("Total", Box(10, 10, 40, 20)),)),))
    page = analyze_layout(doc).pages[0]
    assert page.block_order == (0,) and page.ordered_word_indices() == [0]
