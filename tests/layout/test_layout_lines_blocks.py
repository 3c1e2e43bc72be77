"""Lines and blocks: synthetic layouts with a known answer, and invariants on real FUNSD forms."""

from __future__ import annotations

from funsd_words import funsd_document

from docextract.document import Box, Word
from docextract.layout import group_blocks, group_lines
from docextract.layout.lines import LINE_MAX_GAP_FONT_HEIGHTS

FONT = 10.0  # points, the synthetic word height
SPACE = 3.0  # points, a word space


def row(texts, x0, top, height=FONT, space=SPACE, char_width=5.0):
    """Words of one printed line starting at (x0, top)."""
    words, x = [], x0
    for text in texts:
        width = char_width * len(text)
        words.append(Word(text, Box(x, top, x + width, top + height)))
        x += width + space
    return words


def line_texts(words, lines):
    return [" ".join(words[i].text for i in line.word_indices) for line in lines]


def test_words_of_one_baseline_form_a_line_left_to_right_whatever_the_input_order():
    words = row(["the", "quick", "brown", "fox"], 50, 100)
    shuffled = [words[2], words[0], words[3], words[1]]
    lines = group_lines(shuffled)
    assert line_texts(shuffled, lines) == ["the quick brown fox"]
    assert lines[0].box == Box.enclosing([w.box for w in words])


def test_two_columns_on_the_same_baseline_stay_two_lines():
    gutter = 2 * LINE_MAX_GAP_FONT_HEIGHTS * FONT
    left = row(["left", "column", "text"], 50, 100)
    right = row(["right", "column", "text"], left[-1].box.x1 + gutter, 100)
    lines = group_lines(left + right)
    assert line_texts(left + right, lines) == ["left column text", "right column text"]


def test_jittered_and_superscript_words_stay_on_their_line_and_lines_stay_apart():
    words = row(["E", "equals", "mc"], 50, 100)  # "mc" ends at x = 101
    words += [Word("2", Box(102, 97, 106, 103))]  # superscript, 6 pt tall, half of it above the line
    words += [Word("jitter", Box(109, 101.5, 139, 111.5))]  # OCR jitter: 1.5 pt low
    words += row(["next", "line"], 50, 113)  # 3 pt below: leading only
    lines = group_lines(words)
    assert line_texts(words, lines) == ["E equals mc 2 jitter", "next line"]


def test_a_tall_rotated_word_does_not_join_the_text_lines_it_crosses():
    words = row(["first", "line"], 50, 100) + row(["second", "line"], 50, 113)
    words.append(Word("82092117", Box(100, 95, 110, 160)))  # vertical stamp right beside the text
    lines = group_lines(words)
    assert sorted(line_texts(words, lines)) == ["82092117", "first line", "second line"]


def test_paragraph_lines_form_one_block_and_a_paragraph_break_starts_another():
    para1 = [row(["a", "paragraph", "line"], 50, 100 + 12 * k) for k in range(3)]
    para2 = [row(["next", "paragraph"], 50, 100 + 12 * 3 + 15 + 12 * k) for k in range(2)]
    words = [w for r in para1 + para2 for w in r]
    lines = group_lines(words)
    blocks = group_blocks(lines)
    assert [len(b.line_indices) for b in blocks] == [3, 2]
    assert all(lines[b.line_indices[0]].box.top < lines[b.line_indices[-1]].box.top for b in blocks)


def test_a_heading_does_not_swallow_the_paragraph_below():
    heading = row(["Invoice"], 50, 80, height=20, char_width=10)
    body = row(["Bill", "to", "ACME"], 50, 104) + row(["Street", "1"], 50, 116)
    lines = group_lines(heading + body)
    assert [len(b.line_indices) for b in group_blocks(lines)] == [1, 2]


def test_centred_lines_form_one_block_but_a_value_under_a_longer_label_does_not():
    title = row(["CONFIDENTIAL", "FACSIMILE"], 100, 100) + row(["COVER", "SHEET"], 125, 112)
    lines = group_lines(title)
    assert len(group_blocks(lines)) == 1
    form = row(["FAX", "NUMBER:", "(336)", "335-7392"], 50, 100) + row(["12/10/98"], 110, 112)
    assert len(group_blocks(group_lines(form))) == 2


def test_a_dense_table_column_splits_into_cells_but_an_address_block_stays_whole():
    table = []
    for k, (name, qty) in enumerate([("Widget", "3"), ("Gadget", "12"), ("Sprocket", "7")]):
        table += row([name], 50, 100 + 12 * k) + row([qty], 200, 100 + 12 * k)
    assert len(group_blocks(group_lines(table))) == 6
    address = row(["ACME", "Corp"], 50, 100) + row(["1", "Main", "Street"], 50, 112) + row(["Springfield"], 50, 124)
    assert len(group_blocks(group_lines(address))) == 1


def test_funsd_forms_every_word_in_one_line_and_every_line_in_one_block(shared_data):
    annotations = sorted(shared_data("funsd", "testing_data", "annotations").glob("*.json"))[:10]
    total_words = total_lines = total_blocks = 0
    for path in annotations:
        page = funsd_document(path).pages[0]
        lines = group_lines(page.words)
        blocks = group_blocks(lines)
        assert sorted(i for l in lines for i in l.word_indices) == list(range(len(page.words))), path.name
        assert sorted(i for b in blocks for i in b.line_indices) == list(range(len(lines))), path.name
        for line in lines:
            xs = [page.words[i].box.x0 for i in line.word_indices]
            assert xs == sorted(xs), path.name  # left to right
            assert line.box == Box.enclosing([page.words[i].box for i in line.word_indices])
        for block in blocks:
            tops = [lines[i].box.top for i in block.line_indices]
            assert tops == sorted(tops), path.name  # top to bottom
        assert len(blocks) <= len(lines) < len(page.words), path.name
        total_words, total_lines, total_blocks = total_words + len(page.words), total_lines + len(lines), total_blocks + len(blocks)
    # Layout found structure: lines of ~3 words on these forms, and multi-line blocks.
    assert total_lines < total_words / 2
    assert total_blocks < 0.9 * total_lines


def test_funsd_fax_cover_lines_and_blocks_match_the_form(shared_data):
    page = funsd_document(shared_data("funsd", "testing_data", "annotations", "82092117.json")).pages[0]
    lines = group_lines(page.words)
    texts = line_texts(page.words, lines)
    # Fields of one printed row are separate lines when whitespace the width of a column separates them.
    assert "FAX NUMBER: (336) 335- 7392" in texts
    assert "PHONE NUMBER: (336) 335- 7363" in texts
    assert "DATE:" in texts and "12 /10 /98" in texts
    assert "82092117" in texts  # the vertical stamp is its own line
    blocks = group_blocks(lines)
    block_texts = [" / ".join(texts[i] for i in b.line_indices) for b in blocks]
    assert "Attorney General / Betty D. Montgomery" in block_texts
    assert "CONFIDENTIAL FACSIMILE / TRANSMISSION COVER SHEET" in block_texts
    note = next(b for b in block_texts if b.startswith("NOTE:"))
    assert note.count(" / ") == 8  # the 9-line notice is one paragraph
