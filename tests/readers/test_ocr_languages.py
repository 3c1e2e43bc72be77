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


def _words(text: str):
    from docextract.document import Box, Word

    return tuple(Word(token, Box(10.0 * n, 0, 10.0 * n + 8, 10)) for n, token in enumerate(text.split()))


def test_auto_chooses_the_language_a_page_s_invoice_words_are_in():
    from docextract.readers.ocr import installed_languages, page_language

    if not {"deu", "fra"} <= installed_languages():
        pytest.skip("Tesseract's German and French data are not installed")
    german = _words("Rechnung Nr. 4711 Rechnungsdatum 03.04.2024 Gesamtbetrag 1.190,00 EUR zahlbar ohne Abzug")
    assert page_language(german) == "deu+eng"
    assert page_language(_words("Facture n° 562 Date d'échéance 1 février 2024 Montant TTC 1 200,00 TVA")) == "fra+eng"
    # English, or too few words of another language to say, stays English
    assert page_language(_words("Invoice number 4711 Invoice date April 3, 2024 Total due 1,190.00 Rechnung")) is None
    assert page_language(_words("Summe 12,00")) is None


def test_auto_reads_the_next_pages_in_the_language_the_first_was_found_in():
    from docextract.readers.ocr import OcrWords, next_pages_lang

    found = OcrWords(words=(), width=1, height=1, lang="deu+eng")
    assert next_pages_lang("auto", found) == "deu+eng"
    assert next_pages_lang("auto", OcrWords(words=(), width=1, height=1, lang="eng")) == "auto"  # the next page decides
    assert next_pages_lang("fra", OcrWords(words=(), width=1, height=1, lang="fra")) == "fra"  # a named one stays


@needs_tesseract
def test_auto_reads_a_german_scan_in_german_and_an_english_one_in_english(tmp_path):
    german = tmp_path / "rechnung.pdf"
    text_lines_pdf(german, ["Rechnung Nr. 4711 vom 03.04.2024", "Lieferantenstraße 20, 80333 München",
                            "Fälligkeitsdatum: 17.04.2024", "Gesamtbetrag inkl. MwSt: 1.190,00 EUR",
                            "Zahlbar ohne Abzug"], width=420, height=140)
    doc = read_document(german, ocr="always", lang="auto", dpi=200)
    assert doc.pages[0].text_reader == "tesseract deu+eng"
    assert {"Lieferantenstraße", "München", "Fälligkeitsdatum:"} <= {w.text for w in doc.pages[0].words}
    english = tmp_path / "invoice.pdf"
    text_lines_pdf(english, ["Invoice No. 4711", "Invoice date: April 3, 2024", "Total due: 1,190.00 USD"],
                   width=420, height=100)
    assert read_document(english, ocr="always", lang="auto", dpi=200).pages[0].text_reader == "tesseract eng"


def test_auto_reads_a_nordic_or_portuguese_page_again_in_its_language():
    from docextract.readers.ocr import installed_languages, page_language

    if not {"swe", "fin", "por", "nor", "dan"} <= installed_languages():
        pytest.skip("Tesseract's Swedish, Finnish, Portuguese, Norwegian and Danish data are not installed")
    swedish = _words("Faktura Fakturanummer 1042 Fakturadatum 2024-04-03 Förfallodatum 2024-05-03 Moms 25 % Att betala")
    assert page_language(swedish) == "swe+eng"
    assert page_language(_words("Lasku Laskun numero 20241187 Eräpäivä 22.04.2024 Veroton yhteensä ALV 24 %")) == "fin+eng"
    assert page_language(_words("Fatura n.º FT 2024/118 Data de emissão Vencimento Total a pagar IVA NIF")) == "por+eng"
    assert page_language(_words("Faktura Fakturanr. 10458 Forfallsdato 29.04.2024 Sum eks. mva MVA Beløp å betale KID")) \
        == "nor+eng"


def test_auto_reads_a_polish_or_czech_page_again_in_its_language():
    from docextract.readers.ocr import installed_languages, page_language

    if not {"pol", "ces"} <= installed_languages():
        pytest.skip("Tesseract's Polish and Czech data are not installed (scripts/setup.sh installs them)")
    polish = _words("Faktura VAT nr FV/2024/04/015 Data wystawienia Termin płatności Sprzedawca Nabywca NIP Do zapłaty")
    assert page_language(polish) == "pol+eng"
    czech = _words("Faktura daňový doklad Dodavatel Odběratel Datum vystavení Datum splatnosti DPH Celkem k úhradě Kč")
    assert page_language(czech) == "ces+eng"
