"""Scans Tesseract's defaults lose words on: a page of shaded table rows (its global binarisation read none of them)
and a column of amounts set apart at the right (its page layout analysis dropped it)."""

import random
import shutil

import pytest
from conftest import shared_data

from docextract.readers import read_document
from docextract.synth.scan import save_scan, scan_pdf

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")
EINVOICE = ("einvoices-more", "ferd-2.4", "ZUGFeRD_Extended__Abschlagsrechnung_SubInvoiceLine_u_LV_Nr__fx.pdf")
TAXI = ("einvoices", "ZUGFeRDv2", "correct", "symtrax", "Beispiele", "BASIC", "zugferd_2p1_BASIC_Taxifahrt.pdf")


def _scanned(pdf, seed: str, page: int, tmp_path):
    """One page of ``pdf`` through docextract's scan simulation (150 dpi; the seed of `lopo.py scans`)."""
    pages = scan_pdf(pdf.read_bytes(), random.Random(seed), 150)
    return save_scan(pages[page:page + 1], str(tmp_path / "scan"))


def test_a_scanned_page_of_shaded_rows_is_read(tmp_path):
    pdf = shared_data(*EINVOICE)
    scan = _scanned(pdf, "0:data/einvoices-more/ferd-2.4/" + pdf.stem, 1, tmp_path)
    words = [w.text for w in read_document(scan, lang="deu").pages[0].words]
    assert len(words) > 80 and "Bemerkungen" in words  # 0 words with Tesseract's default (Otsu) binarisation alone


def test_a_scanned_column_of_amounts_at_the_right_is_read(tmp_path):
    pdf = shared_data(*TAXI)
    scan = _scanned(pdf, "0:data/einvoices/ZUGFeRDv2/correct/symtrax/Beispiele/BASIC/" + pdf.stem, 1, tmp_path)
    words = [w.text for w in read_document(scan, lang="deu").pages[0].words]
    assert words.count("18,08") == 2 and "1,18" in words  # Bruttosumme and Zahlbetrag; Steuerbetrag


def test_a_scan_under_200_dpi_is_read_at_twice_its_resolution_and_a_photo_as_it_is():
    from PIL import Image

    from docextract.readers.ocr import resampled_for_ocr

    image, dpi = resampled_for_ocr(Image.new("RGB", (1240, 1754), "white"), 150)  # A4 at 150 dpi
    assert (image.size, dpi, image.mode) == ((2480, 3508), 300, "L")
    image, dpi = resampled_for_ocr(Image.new("L", (827, 1170)), 100)
    assert (image.size, dpi) == ((1654, 2340), 200)
    for size, dpi in (((2480, 3508), 300), ((1654, 2339), 200)):  # enough pixels for Tesseract already
        page = Image.new("L", size)
        assert resampled_for_ocr(page, dpi) == (page, dpi)
    photo = Image.new("RGB", (4032, 3024))  # a phone's photo says 72 dpi: 56 inches wide, no paper
    assert resampled_for_ocr(photo, 72) == (photo, 72)


def test_a_150_dpi_scan_keeps_its_page_size_in_points(tmp_path):
    pdf = shared_data(*TAXI)
    scan = _scanned(pdf, "0:data/einvoices/ZUGFeRDv2/correct/symtrax/Beispiele/BASIC/" + pdf.stem, 0, tmp_path)
    page = read_document(scan, lang="deu").pages[0]
    assert abs(page.width - 595.3) < 2 and abs(page.height - 841.9) < 2  # A4, read at 300 dpi from 150's pixels
    assert all(0 <= w.box.x0 < w.box.x1 <= page.width + 1 for w in page.words)


RULED_ROWS = (("Monitor 27 Zoll Premium", "5", "310.00", "1,550.00"), ("Netzwerkkabel remote", "1 m", "1,057.00", "1,057.00"),
              ("Schulung jaehrlich", "12", "53.78", "645.36"), ("Schreibtischlampe Premium", "12 Stk.", "18.15", "217.80"),
              ("Softwarelizenz Standard", "1", "4.00", "4.00"), ("Leergut", "50", "1,841.00", "92,050.00"),
              ("Projektleitung Standard", "8.5", "475.69", "4,043.36"), ("Wartungsvertrag vor Ort", "20 Jahr", "2.00", "40.00"))


def _ruled_table_pdf(path):
    """A table boxed cell by cell (gen-invoice's grid: thin black borders, a grey header row)."""
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.set_font("Times", size=10)
    pdf.set_fill_color(204, 204, 204)
    widths = (200, 70, 85, 85)
    pdf.set_xy(50, 300)
    for text, width in zip(("Item Description", "Quantity", "Unit Price", "Total"), widths):
        pdf.cell(width, 24, text, border=1, fill=True)
    for row in RULED_ROWS:
        pdf.ln(24)
        pdf.set_x(50)
        for text, width in zip(row, widths):
            pdf.cell(width, 24, text, border=1)
    pdf.output(str(path))


def test_a_scanned_table_boxed_by_ruling_lines_is_read_row_by_row(tmp_path):
    """Resampled to 300 dpi, the 150-dpi scan's boxed rows went to Tesseract's picture regions: 0 of the 8 line totals
    were read before the rules were erased (docextract.readers.ruling_lines)."""
    _ruled_table_pdf(tmp_path / "table.pdf")
    scan = save_scan(scan_pdf((tmp_path / "table.pdf").read_bytes(), random.Random("ruled"), 150), str(tmp_path / "scan"))
    words = [w.text for w in read_document(scan, lang="eng").pages[0].words]
    assert sum(row[3] in words for row in RULED_ROWS) >= 7, words
    assert "Schreibtischlampe" in " ".join(words)


def test_ruling_lines_go_and_print_and_shaded_bands_stay():
    import numpy as np
    from PIL import Image

    from docextract.readers.ruling_lines import erase_ruling_lines

    page = np.full((900, 1200), 255, dtype=np.uint8)
    page[100:103, 100:1100] = 0  # a heading's underline: no grid, left to Tesseract
    page[380:800, 600:603] = 0  # a column's rule
    page[450:453, 100:1100] = 0  # a row's rule across it
    page[600:603, 100:1100] = 0  # and another
    for step in range(20):  # a row's rule on a page turned by about 1.5 degrees: steps of one pixel every 40
        page[700 + step:703 + step, 100 + 40 * step:140 + 40 * step] = 0
    page[300:360, 100:1100] = 40  # a dark header band (white print on it)
    page[300 + 20:300 + 40, 200:260] = 255
    page[500:540, 200:215] = 0  # a letter's stroke: 40 px tall, 15 wide
    page[500:503, 220:260] = 0  # a letter's bar
    cleaned = np.asarray(erase_ruling_lines(Image.fromarray(page), 300))
    assert cleaned[380:800, 600:603].min() == 255 and cleaned[450:453, 100:1100].min() == 255
    assert cleaned[600:603, 100:1100].min() == 255
    assert all(cleaned[701 + step, 120 + 40 * step] == 255 for step in range(20))
    assert (cleaned[100:103, 100:1100] == 0).all()
    assert (cleaned[300:320, 100:1100] == 40).all() and (cleaned[320:340, 200:260] == 255).all()
    assert (cleaned[500:540, 200:215] == 0).all() and (cleaned[500:503, 220:260] == 0).all()
    underlined = Image.fromarray(np.where(np.arange(900)[:, None] == 100, 0, 255).astype(np.uint8) * np.ones((1, 1200),
                                                                                                       dtype=np.uint8))
    assert erase_ruling_lines(underlined, 300) is underlined  # no column rule: the page as it is


def test_the_frames_of_boxes_side_by_side_stay():
    """A box's sides meet two rules, its top and bottom: erased, two framed address blocks side by side read as one
    line each (invoice-it's parties). A table's column rule meets more, and goes."""
    import numpy as np
    from PIL import Image

    from docextract.readers.ruling_lines import erase_ruling_lines

    page = np.full((1400, 1200), 255, dtype=np.uint8)
    for left in (100, 650):  # two boxes 450 px wide, 300 tall
        page[100:103, left:left + 450] = 0
        page[400:403, left:left + 450] = 0
        page[100:403, left:left + 3] = 0
        page[100:403, left + 447:left + 450] = 0
    boxes = Image.fromarray(page)
    assert erase_ruling_lines(boxes, 300) is boxes
    for top in (700, 800, 900, 1000):  # a table under them: two column rules through four row rules
        page[top:top + 3, 100:1100] = 0
    page[700:1003, 500:503] = 0
    page[700:1003, 800:803] = 0
    cleaned = np.asarray(erase_ruling_lines(Image.fromarray(page), 300))
    assert (cleaned[100:403, 100:103] == 0).all() and (cleaned[100:103, 650:1100] == 0).all()
    assert cleaned[700:1003, 500:503].min() == 255 and cleaned[900:903, 100:1100].min() == 255
