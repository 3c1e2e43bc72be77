"""OCR in the languages docextract reads: Tesseract's data for all six (scripts/setup.sh installs them, CI runs it),
and a warning when a page with print gives (almost) no words at the resolution asked."""

import shutil
from pathlib import Path

import pytest
from pdf_factory import text_lines_pdf

from docextract.readers import read_document
from docextract.readers.ocr import check_tesseract

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = ("eng", "deu", "fra", "nld", "ita", "spa")  # run.locale's six languages

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")


@needs_tesseract
@pytest.mark.parametrize("lang", LANGUAGES)
def test_tesseract_has_the_data_of_each_language(lang):
    check_tesseract(lang)  # MissingDependencyError (exit 3) without it: `--lang deu` did exit 3


def test_the_setup_script_installs_the_six_languages():
    script = (REPO / "scripts" / "setup.sh").read_text()
    for lang in LANGUAGES[1:]:
        assert f"tesseract-ocr-{lang}" in script


@needs_tesseract
def test_a_page_read_at_too_low_a_dpi_warns_and_names_a_better_one():
    coarse = read_document(REPO / "examples" / "invoice.pdf", ocr="always", dpi=50, lang="eng+fra")
    assert coarse.word_count < 10
    assert len(coarse.warnings) == 1, coarse.warnings
    assert coarse.warnings[0].startswith(f"page 1: OCR at 50 dpi found {coarse.word_count} word")
    assert coarse.warnings[0].endswith("try --dpi 300 (the default)")
    fine = read_document(REPO / "examples" / "invoice.pdf", ocr="always", dpi=150, lang="eng+fra")
    assert fine.word_count > 100 and fine.warnings == ()


@needs_tesseract
def test_a_blank_page_is_no_reason_to_warn(tmp_path):
    blank = tmp_path / "blank.pdf"
    text_lines_pdf(blank, [])
    doc = read_document(blank, ocr="always", dpi=50)
    assert doc.word_count == 0 and doc.warnings == ()


@needs_tesseract
def test_run_says_the_warning_on_stderr(tmp_path):
    from typer.testing import CliRunner

    from docextract.cli import app

    result = CliRunner().invoke(app, ["run", str(REPO / "examples" / "invoice.pdf"), "--model", "none", "--ocr",
                                      "always", "--dpi", "50"])
    assert result.exit_code == 0
    assert "docextract: warning:" in result.stderr and "try --dpi 300" in " ".join(result.stderr.split())
