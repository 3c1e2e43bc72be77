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
