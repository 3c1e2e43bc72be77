"""`--pdf-text auto`: PDFium's text page gives pdfplumber's words and boxes on the pages it takes, and every other
page goes to pdfplumber as before; the page says which read it."""

from __future__ import annotations

import json

import pytest
from pdf_factory import rotate_pdf_pages, table_pdf, text_lines_pdf, two_column_pdf
from typer.testing import CliRunner

from docextract.cli import app
from docextract.readers import read_document


def _read(path, pdf_text):
    return read_document(path, ocr="never", lang="eng", dpi=300, password=None, pdf_text=pdf_text)


def assert_same_words(reference, candidate):
    """The same texts in the same order, the same page size, boxes within a ten-thousandth of a point and the same
    model grid boxes (PDFium keeps positions in single precision; the grid is what the model reads)."""
    assert (candidate.width, candidate.height) == (reference.width, reference.height)
    assert [w.text for w in candidate.words] == [w.text for w in reference.words]
    for a, b in zip(reference.words, candidate.words):
        assert max(abs(x - y) for x, y in zip(a.box.as_list(), b.box.as_list())) < 1e-4, (a, b)
    grid = [a.box.to_grid(reference.width, reference.height) == b.box.to_grid(candidate.width, candidate.height)
            for a, b in zip(reference.words, candidate.words)]
    assert sum(grid) >= len(grid) - 1  # at most a rounding at a grid boundary (measured: 10 of ~9,000 words)


def test_generated_pdfs_read_by_pdfium_give_pdfplumbers_words(tmp_path):
    text_lines_pdf(tmp_path / "lines.pdf", ["Invoice No. INV-2024/0042", "Total due: 1.234,56 EUR", "Müller Straße 5"])
    two_column_pdf(tmp_path / "columns.pdf")
    table_pdf(tmp_path / "table.pdf")
    for path in sorted(tmp_path.glob("*.pdf")):
        plumber, fast = _read(path, "pdfplumber"), _read(path, "auto")
        assert [p.text_reader for p in plumber.pages] == ["pdfplumber"] * len(plumber.pages)
        assert [p.text_reader for p in fast.pages] == ["pdfium"] * len(fast.pages)
        for a, b in zip(plumber.pages, fast.pages):
            assert_same_words(a, b)


def test_synthetic_invoices_read_by_pdfium_give_pdfplumbers_words(tmp_path):
    from docextract.synth.generate import SynthOptions, generate_invoice
    from docextract.synth.layouts import FAMILY_NAMES

    options = SynthOptions(families=tuple(FAMILY_NAMES), pages_max=2, scan_fraction=0.0)
    for index in range(4):
        record = generate_invoice(5, index, options, tmp_path)
        path = tmp_path / record["source"]
        plumber, fast = _read(path, "pdfplumber"), _read(path, "auto")
        assert {p.text_reader for p in fast.pages} == {"pdfium"}
        for a, b in zip(plumber.pages, fast.pages):
            assert_same_words(a, b)


def test_a_rotated_page_is_left_to_pdfplumber(tmp_path):
    text_lines_pdf(tmp_path / "upright.pdf", ["Invoice 42", "Total 10.00"])
    rotate_pdf_pages(tmp_path / "upright.pdf", tmp_path / "turned.pdf", 90)
    fast, plumber = _read(tmp_path / "turned.pdf", "auto"), _read(tmp_path / "turned.pdf", "pdfplumber")
    assert fast.pages[0].text_reader == "pdfplumber"
    assert [w.text for w in fast.pages[0].words] == [w.text for w in plumber.pages[0].words]


def test_real_e_invoices_pdfium_agrees_where_it_reads_and_overdrawn_text_goes_to_pdfplumber(shared_data):
    folder = shared_data("einvoices")
    # FeRD's key/value rendering: plain pages PDFium reads; Symtrax's: spaces drawn over digits, which PDFium's
    # text page drops (pdfplumber splits "471102" at them), so those pages must stay with pdfplumber
    plain = sorted(folder.rglob("EN16931_Einfach.pdf"))[0]
    overdrawn = sorted(folder.rglob("zugferd_2p1_EN16931_Einfach.pdf"))[0]
    fast, plumber = _read(plain, "auto"), _read(plain, "pdfplumber")
    assert "pdfium" in {p.text_reader for p in fast.pages}
    for a, b in zip(plumber.pages, fast.pages):
        if b.text_reader == "pdfium":
            assert_same_words(a, b)
    fast, plumber = _read(overdrawn, "auto"), _read(overdrawn, "pdfplumber")
    assert fast.pages[0].text_reader == "pdfplumber"
    assert [w.text for w in fast.pages[0].words] == [w.text for w in plumber.pages[0].words]


def test_inspect_says_which_library_read_each_page(tmp_path):
    text_lines_pdf(tmp_path / "a.pdf", ["Invoice 42"])
    runner = CliRunner()
    result = runner.invoke(app, ["inspect", str(tmp_path / "a.pdf"), "--json", "--pdf-text", "auto"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["document"]["pages"][0]["text_reader"] == "pdfium"
    result = runner.invoke(app, ["inspect", str(tmp_path / "a.pdf")])
    assert "read by pdfplumber" in result.stdout


def test_an_unknown_pdf_text_reader_is_a_usage_error(tmp_path):
    from docextract.errors import UsageError
    from docextract.readers.pdf import read_pdf

    text_lines_pdf(tmp_path / "a.pdf", ["Invoice 42"])
    with pytest.raises(UsageError, match="pdfplumber, auto"):
        read_pdf(tmp_path / "a.pdf", ocr="never", lang="eng", dpi=300, password=None, text_reader="fast")
