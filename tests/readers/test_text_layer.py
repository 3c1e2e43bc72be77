"""`text_layer.page_chars` gives the characters pdfplumber's ``page.chars`` gives, key for key, without building a
dict of every attribute of every object on the page: on generated PDFs of every shape the reader meets and on
the real PDFs beside the checkout."""

from __future__ import annotations

import pdfplumber
import pypdfium2 as pdfium
import pytest
from pdf_factory import rotate_pdf_pages, table_pdf, text_lines_pdf, two_column_pdf

from docextract.readers.text_layer import page_chars

REAL_PAGES_PER_FILE = 2  # enough to cross a page boundary (doctop) without reading long papers whole


def assert_same_chars(path):
    """Every page of ``path``: as many characters as pdfplumber's, each with pdfplumber's value for every key."""
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[:REAL_PAGES_PER_FILE]:
            reference, lean = page.chars, page_chars(page)
            assert len(lean) == len(reference), (path, page.page_number)
            for ref, char in zip(reference, lean):
                assert {key: ref[key] for key in char} == char, (path, page.page_number)


def shifted_media_box(src, dest, dx: float, dy: float) -> None:
    """A copy of ``src`` whose media box starts at (dx, dy) instead of the origin (pdfplumber shifts x and top)."""
    document = pdfium.PdfDocument(str(src))
    for page in document:
        left, bottom, right, top = page.get_mediabox()
        page.set_mediabox(left + dx, bottom + dy, right + dx, top + dy)
    document.save(str(dest))
    document.close()


def test_generated_pdfs_give_pdfplumbers_characters(tmp_path):
    text_lines_pdf(tmp_path / "lines.pdf", ["Invoice No. INV-2024/0042", "Total due: 1.234,56 EUR", "Müller Straße 5"])
    two_column_pdf(tmp_path / "columns.pdf")
    table_pdf(tmp_path / "table.pdf")
    rotate_pdf_pages(tmp_path / "lines.pdf", tmp_path / "turned.pdf", 90)
    shifted_media_box(tmp_path / "columns.pdf", tmp_path / "shifted.pdf", 30, 20)
    for path in sorted(tmp_path.glob("*.pdf")):
        assert_same_chars(path)


def test_synthetic_invoices_give_pdfplumbers_characters(tmp_path):
    from docextract.synth.generate import SynthOptions, generate_invoice
    from docextract.synth.layouts import FAMILY_NAMES

    options = SynthOptions(families=tuple(FAMILY_NAMES), pages_max=2, scan_fraction=0.0)
    for index in range(len(FAMILY_NAMES)):
        record = generate_invoice(7, index, options, tmp_path)
        assert_same_chars(tmp_path / record["source"])


@pytest.mark.parametrize("folder, count", [("einvoices", 12), ("einvoices-more", 12), ("pdfs", 40)])
def test_real_pdfs_give_pdfplumbers_characters(shared_data, folder, count):
    """Real e-invoices of several producers and the odd PDFs (shifted media boxes, figures, rotated pages, broken
    fonts; measured on all 475 PDFs of the shared data, 2,228 pages: no difference)."""
    paths = sorted(shared_data(folder).rglob("*.pdf"))
    step = max(1, len(paths) // count)
    for path in paths[::step][:count]:
        try:
            pdfplumber.open(path).close()
        except Exception:  # files pdfplumber cannot open at all are the reader's error tests' business
            continue
        assert_same_chars(path)


def test_a_key_glued_to_its_value_by_a_colon_reads_as_two_words(tmp_path):
    # "Factuurnummer:2024-01093" printed without a space (held out: the key and its number one word, no key found,
    # the letterhead's postcode read as the invoice number); "Re:Invoice" and a time stay one word
    with pdfplumber.open(_lines(tmp_path, ["Factuurnummer:2024-01093 Re:Invoice 10:30 Uw referentie:IO-2024-118"])) as pdf:
        from docextract.readers.text_layer import page_words

        words = page_words(pdf.pages[0]).words
    texts = [w.text for w in words]
    assert texts == ["Factuurnummer:", "2024-01093", "Re:Invoice", "10:30", "Uw", "referentie:", "IO-2024-118"]
    key, value = words[0], words[1]
    assert key.box.x1 <= value.box.x0 and value.box.x1 > value.box.x0
    # the two print as the reader saw them, with a space: a key and its value, no pieces of one word
    from docextract.document import join_words

    assert join_words(words[:2]) == "Factuurnummer: 2024-01093"


def _lines(tmp_path, lines):
    path = tmp_path / "glued.pdf"
    text_lines_pdf(path, lines, width=600)
    return path
