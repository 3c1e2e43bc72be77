"""Readers on generated files: digital PDFs (columns, table, /Rotate), scans, images, OCR recall."""

from __future__ import annotations

from collections import Counter

import pytest
from PIL import Image

import pdf_factory as factory
from docextract.document import Box, Word
from docextract.readers import read_document
from docextract.readers.text_layer import garbage_fraction, is_usable, turn_box

BOX_TOLERANCE = 1.5  # points: where pdfplumber puts a word's left edge vs where fpdf2 wrote it
OCR_DPI = 200  # dots per inch: enough for 100% recall on clean pages (measured), faster than 300
MIN_OCR_RECALL = 0.95  # measured 100% on the clean page


def recall(expected: list[str], found: list[str]) -> float:
    """Fraction of ``expected`` words matched one-to-one in ``found`` (case-insensitive)."""
    pool = Counter(w.lower() for w in found)
    hits = 0
    for word in expected:
        if pool[word.lower()] > 0:
            pool[word.lower()] -= 1
            hits += 1
    return hits / len(expected)


def find(words, text: str) -> Word:
    matches = [w for w in words if w.text == text]
    assert len(matches) == 1, (text, matches)
    return matches[0]


def assert_placed(word: Word, placed: factory.PlacedWord) -> None:
    assert word.box.x0 == pytest.approx(placed.x, abs=BOX_TOLERANCE)
    assert word.box.top < placed.baseline <= word.box.bottom + BOX_TOLERANCE


def test_two_column_page_words_and_boxes(tmp_path):
    path = tmp_path / "columns.pdf"
    left, right, gutter = factory.two_column_pdf(path)
    doc = read_document(path, ocr="never")
    page = doc.pages[0]
    assert (page.number, page.width, page.height, page.text_source) == (1, 612, 400, "pdf_text")
    assert doc.mime_type == "application/pdf" and len(doc.sha256) == 64
    assert sorted(w.text for w in page.words) == sorted(p.text for p in left + right)
    for placed in left:
        word = find(page.words, placed.text)
        assert_placed(word, placed)
        assert word.box.x1 < gutter and word.confidence is None
    for placed in right:
        assert find(page.words, placed.text).box.x0 > gutter


def test_table_cells_land_inside_their_rectangles(tmp_path):
    path = tmp_path / "table.pdf"
    cells = factory.table_pdf(path)
    words = read_document(path).pages[0].words
    assert len(words) == len(cells)
    for cell in cells:
        (word,) = [w for w in words if w.text == cell.text]
        assert cell.x0 <= word.box.x0 < word.box.x1 <= cell.x1
        assert cell.top <= word.box.top < word.box.bottom <= cell.bottom


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_rotate_that_turns_text_sideways_is_undone(tmp_path, degrees):
    """/Rotate on upright content shows the text sideways or upside down; words come out upright."""
    upright_path, rotated_path = tmp_path / "upright.pdf", tmp_path / "rotated.pdf"
    factory.two_column_pdf(upright_path, width=500, height=300)
    factory.rotate_pdf_pages(upright_path, rotated_path, degrees)
    upright = read_document(upright_path).pages[0]
    rotated = read_document(rotated_path, ocr="never").pages[0]
    # /Rotate d plus the reader's own turn of (360 - d) is no net turn of the stored content
    assert rotated.rotation_applied == 0
    assert (rotated.width, rotated.height) == (upright.width, upright.height) == (500, 300)
    assert [w.text for w in rotated.words] == [w.text for w in upright.words]
    for turned, straight in zip(rotated.words, upright.words):
        assert turned.box.as_list() == pytest.approx(straight.box.as_list(), abs=0.01)


def test_turn_box_matches_the_displayed_page():
    # a box near the top-left of a 500 x 300 page, on that page displayed turned clockwise
    box = (10, 20, 60, 30)
    assert turn_box(*box, 500, 300, 90) == (270, 10, 280, 60)
    assert turn_box(*box, 500, 300, 180) == (440, 270, 490, 280)
    assert turn_box(*box, 500, 300, 270) == (20, 440, 30, 490)


def test_real_rotated_pdf_reads_like_its_unrotated_original(shared_data):
    folder = shared_data("pdfs", "pdfplumber-testpdfs", "tests", "pdfs")
    original = read_document(folder / "nics-background-checks-2015-11.pdf", ocr="never").pages[0]
    rotated = read_document(folder / "nics-background-checks-2015-11-rotated.pdf", ocr="never").pages[0]
    assert (rotated.width, rotated.height) == (original.width, original.height) == (1008, 612)
    assert rotated.rotation_applied == 0  # /Rotate 90 on landscape content, undone
    assert [w.text for w in rotated.words] == [w.text for w in original.words]
    assert rotated.words[0].box.as_list() == pytest.approx(original.words[0].box.as_list(), abs=0.01)


def test_ocr_recall_of_a_rendered_digital_page_against_its_text_layer(tmp_path):
    path = tmp_path / "digital.pdf"
    factory.text_lines_pdf(path, ["Invoice number 48213 dated March 3", "Total amount due 1,250.00 EUR",
                                  "Payment within thirty days"], font_size=12)
    text = read_document(path, ocr="never").pages[0]
    scanned = read_document(path, ocr="always", dpi=OCR_DPI).pages[0]
    assert scanned.text_source == "ocr" and scanned.rotation_applied == 0
    assert (scanned.width, scanned.height) == pytest.approx((text.width, text.height), abs=72 / OCR_DPI)
    assert recall([w.text for w in text.words], [w.text for w in scanned.words]) >= MIN_OCR_RECALL
    for word in text.words:  # OCR boxes in points land on the text layer's boxes
        ocr_word = next(w for w in scanned.words if w.text == word.text)
        assert ocr_word.box.center == pytest.approx(word.box.center, abs=3.0)
        assert 0.0 < ocr_word.confidence <= 1.0


def _noisy_scan(tmp_path, lines, dpi=OCR_DPI):
    digital = tmp_path / "digital.pdf"
    factory.text_lines_pdf(digital, lines, font_size=13)
    return factory.add_scan_noise(factory.render_page(digital, dpi)), read_document(digital).pages[0]


SCAN_LINES = ["Purchase order 7741 for Acme Supplies", "Deliver to warehouse seven before Friday"]


def test_scan_like_pdf_without_text_layer_goes_to_ocr_in_auto(tmp_path):
    image, digital = _noisy_scan(tmp_path, SCAN_LINES)
    path = tmp_path / "scan.pdf"
    factory.image_pdf(path, image, width=digital.width, height=digital.height)
    assert read_document(path, ocr="never").pages[0].words == ()
    page = read_document(path, ocr="auto", dpi=OCR_DPI).pages[0]
    assert page.text_source == "ocr"
    assert recall([w.text for w in digital.words], [w.text for w in page.words]) >= 0.9


def test_png_scan_page_size_from_its_dpi(tmp_path):
    image, digital = _noisy_scan(tmp_path, SCAN_LINES)
    path = tmp_path / "scan.png"
    image.save(path, dpi=(OCR_DPI, OCR_DPI))
    doc = read_document(path)
    page = doc.pages[0]
    assert doc.mime_type == "image/png" and page.text_source == "ocr"
    assert (page.width, page.height) == pytest.approx((digital.width, digital.height), abs=1.0)
    assert recall([w.text for w in digital.words], [w.text for w in page.words]) >= 0.9
    # no dpi in the file: 300 dpi is assumed (documented) and said in a warning
    bare = tmp_path / "bare.png"
    image.save(bare)
    bare_doc = read_document(bare, ocr="never")
    assert bare_doc.pages[0].width == pytest.approx(image.width * 72 / 300)
    assert any("300 dpi" in w for w in bare_doc.warnings)


def test_jpeg_exif_orientation_is_applied(tmp_path):
    image, digital = _noisy_scan(tmp_path, SCAN_LINES)
    path = tmp_path / "photo.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: display by turning 90 degrees clockwise
    image.transpose(Image.Transpose.ROTATE_90).save(path, dpi=(OCR_DPI, OCR_DPI), exif=exif, quality=90)
    page = read_document(path).pages[0]
    assert page.rotation_applied == 90
    assert (page.width, page.height) == pytest.approx((digital.width, digital.height), abs=1.0)
    assert recall([w.text for w in digital.words], [w.text for w in page.words]) >= 0.9


def test_upside_down_scan_is_turned_by_osd(tmp_path):
    lines = SCAN_LINES + ["Invoice total includes shipping and handling", "Questions about this order call us"]
    image, digital = _noisy_scan(tmp_path, lines)
    path = tmp_path / "upside-down.png"
    image.rotate(180).save(path, dpi=(OCR_DPI, OCR_DPI))
    page = read_document(path).pages[0]
    assert page.rotation_applied == 180
    assert recall([w.text for w in digital.words], [w.text for w in page.words]) >= 0.9


def test_a_sideways_scan_is_judged_on_its_first_pass_and_read_once_turned(tmp_path, monkeypatch):
    """Orientation is decided on the first layout pass: the sparse pass (up to 20 s on sideways text) runs only on
    the turned page, not also on the sideways one."""
    from docextract.readers import ocr

    passes = []
    tesseract_words = ocr._tesseract_words

    def counted(gray, **kwargs):
        passes.append((gray.width > gray.height, kwargs["config"]))
        return tesseract_words(gray, **kwargs)

    monkeypatch.setattr(ocr, "_tesseract_words", counted)
    lines = SCAN_LINES + ["Invoice total includes shipping and handling", "Questions about this order call us"]
    image, digital = _noisy_scan(tmp_path, lines)
    path = tmp_path / "sideways.png"
    image.rotate(90, expand=True).save(path, dpi=(OCR_DPI, OCR_DPI))
    page = read_document(path, lang="eng").pages[0]
    assert page.rotation_applied == 90
    assert recall([w.text for w in digital.words], [w.text for w in page.words]) >= 0.9
    upright = image.width > image.height
    assert passes == [(not upright, ocr.LAYOUT_PASS_CONFIG), (upright, ocr.LAYOUT_PASS_CONFIG),
                      (upright, ocr.SPARSE_PASS_CONFIG)]


def test_multi_page_tiff_gives_one_page_per_frame(tmp_path):
    frames = [Image.new("L", (300, 200), 255), Image.new("L", (150, 400), 255), Image.new("1", (60, 60), 1)]
    path = tmp_path / "pages.tif"
    frames[0].save(path, save_all=True, append_images=frames[1:], dpi=(150, 150))
    doc = read_document(path, ocr="never")
    assert doc.mime_type == "image/tiff"
    assert [(p.number, round(p.width), round(p.height)) for p in doc.pages] == [(1, 144, 96), (2, 72, 192), (3, 29, 29)]
    # all-white pages are empty results, not errors
    assert read_document(path, ocr="auto").word_count == 0


def test_type_is_detected_by_content_not_extension(tmp_path):
    pdf_named_png = tmp_path / "really-a-pdf.png"
    factory.text_lines_pdf(pdf_named_png, ["hello world"])
    assert [w.text for w in read_document(pdf_named_png).pages[0].words] == ["hello", "world"]


def test_garbage_text_layer_is_not_usable():
    def words(*texts):
        return tuple(Word(t, Box(0, 0, 1, 1)) for t in texts)

    assert is_usable(words("Invoice", "total"))
    assert not is_usable(())
    assert not is_usable(words("(cid:12)(cid:7)(cid:99)", "(cid:3)", "a"))
    assert not is_usable(words("\ue001\ue002\ue003", "\x07\x08", "ok"))
    assert garbage_fraction(["ab", "(cid:1)(cid:2)"]) == pytest.approx(0.5)


def test_tesseract_thread_limit_never_leaks_into_the_process(tmp_path, monkeypatch):
    """OMP_THREAD_LIMIT in the process environment breaks torch.set_num_threads (MKL fails and hangs):
    it must be set for Tesseract's subprocess only."""
    import os

    from docextract.readers.ocr import single_threaded_tesseract

    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    with single_threaded_tesseract():
        assert os.environ["OMP_THREAD_LIMIT"] == "1"
    assert "OMP_THREAD_LIMIT" not in os.environ
    monkeypatch.setenv("OMP_THREAD_LIMIT", "4")  # a user's own setting survives
    with single_threaded_tesseract():
        assert os.environ["OMP_THREAD_LIMIT"] == "1"
    assert os.environ["OMP_THREAD_LIMIT"] == "4"


def test_small_print_with_narrow_word_gaps_stays_separate_words(shared_data):
    """A real e-invoice rendering sets 7-8 pt text with ~2.5 pt gaps and no space characters: a fixed 3 pt
    word gap glued keys to values ("Nr.471102"); the gap is now read relative to the font size."""
    path = shared_data("einvoices", "ZUGFeRDv2", "correct", "symtrax", "Beispiele", "BASIC", "zugferd_2p1_BASIC_Einfach.pdf")
    texts = [w.text for w in read_document(path, ocr="never").pages[0].words]
    for key, value in (("Nr.", "471102"), ("Lieferantenstraße", "20"), ("Steuernummer", "201/113/40209")):
        assert key in texts and value in texts, (key, value)
        assert texts.index(value) == texts.index(key) + 1 + (key == "Steuernummer")  # "Steuernummer" ":" value


def test_a_space_drawn_over_a_glyph_does_not_split_a_word():
    """The ZUGFeRD 2.1 stylesheet draws two spaces for one gap, the second over the next glyph: "DE 8 0333"."""
    from docextract.readers.text_layer import without_covered_spaces

    def char(text, x0, x1):
        return {"text": text, "x0": x0, "x1": x1, "top": 100.2, "bottom": 110.0}

    chars = [char("D", 49.8, 55.6), char("E", 55.6, 61.5), char(" ", 61.5, 67.3), char(" ", 67.3, 73.2),
             char("8", 67.3, 73.1), char("0", 73.1, 79.0), char(" ", 79.0, 84.8), char("M", 84.9, 90.7)]
    kept = [c["text"] for c in without_covered_spaces(chars)]
    assert kept == ["D", "E", " ", "8", "0", " ", "M"]  # the gap's own spaces stay
    assert without_covered_spaces(chars[:2]) == chars[:2]


def test_postcodes_and_numbers_of_the_zugferd_21_stylesheet_read_whole(shared_data):
    path = shared_data("einvoices", "ZUGFeRDv2", "correct", "symtrax", "Beispiele", "EN16931", "zugferd_2p1_EN16931_Einfach.pdf")
    texts = [w.text for w in read_document(path, ocr="never").pages[0].words]
    for whole in ("80333", "69876", "471102", "05.03.2018", "4000001123452"):
        assert whole in texts, whole
