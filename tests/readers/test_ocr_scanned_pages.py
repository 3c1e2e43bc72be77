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
