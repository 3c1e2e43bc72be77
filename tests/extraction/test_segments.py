"""Several invoices in one PDF: `run` gives each its own document with its exact page range; a single invoice of
many pages stays one document. Stacks are built here from synthetic invoices and from the real e-invoices."""

import json
from pathlib import Path

import jsonschema
import pytest
from pdf_factory import text_lines_pdf
from typer.testing import CliRunner

from docextract.cli import app
from docextract.extraction.output import load_schema
from docextract.extraction.segments import split_documents
from docextract.pipeline import RunOptions, read_and_analyze
from docextract.synth.stacks import stack_pdfs

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def ranges(path) -> list[tuple[int, int]]:
    doc, _ = read_and_analyze(path, RunOptions(ocr="never"))
    return [(doc.pages[s.start].number, doc.pages[s.end - 1].number) for s in split_documents(doc)]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """Six synthetic invoices of 1-3 pages (three families, three locales): (pdf path, pages)."""
    from docextract.synth.generate import SynthOptions, generate_invoice

    folder = tmp_path_factory.mktemp("synth")
    options = SynthOptions(("classic_left", "formal_times", "banner"), pages_max=3, pages_min=1)
    made = []
    for index in range(6):
        record = generate_invoice(11, index, options, folder)
        made.append((folder / record["source"], len(record["pages"])))
    assert {pages for _, pages in made} - {1}, "the stacks must hold multi-page invoices"
    return made


def test_each_synthetic_invoice_alone_is_one_document(synthetic):
    for path, pages in synthetic:
        assert ranges(path) == [(1, pages)], path.name


def test_a_stack_of_synthetic_invoices_splits_into_their_exact_page_ranges(synthetic, tmp_path):
    stack = tmp_path / "stack.pdf"
    truth = stack_pdfs([p for p, _ in synthetic], stack)
    assert len(truth) == 6
    assert ranges(stack) == truth


def test_the_shipped_multipage_example_stays_one_document():
    assert ranges(REPO / "examples" / "multipage_invoice.pdf") == [(1, 3)]


def test_page_markers_decide_before_anything_else(tmp_path):
    """'Page 1 of 2' starts a document, 'Page 2 of 2' continues it even under another invoice number."""
    pages = []
    for name, lines in [("a1", ["Invoice No: A-100", "Page 1 of 2"]), ("a2", ["Invoice No: A-999", "Page 2 of 2"]),
                        ("b1", ["Some text", "Page 1 of 1"]), ("c1", ["Rechnung", "Seite 1 von 1"])]:
        text_lines_pdf(tmp_path / f"{name}.pdf", lines)
        pages.append(tmp_path / f"{name}.pdf")
    stack = tmp_path / "stack.pdf"
    stack_pdfs(pages, stack)
    assert ranges(stack) == [(1, 2), (3, 3), (4, 4)]


def test_a_blank_page_stays_with_the_invoice_before_it(tmp_path):
    text_lines_pdf(tmp_path / "a.pdf", ["Invoice No: A-100", "Total 10.00 EUR"])
    text_lines_pdf(tmp_path / "blank.pdf", [])
    text_lines_pdf(tmp_path / "b.pdf", ["Invoice No: B-200", "Total 20.00 EUR"])
    stack = tmp_path / "stack.pdf"
    stack_pdfs([tmp_path / "a.pdf", tmp_path / "blank.pdf", tmp_path / "b.pdf"], stack)
    assert ranges(stack) == [(1, 2), (3, 3)]


# Real e-invoices of four producers, 1-3 pages each, four different invoice numbers.
REAL = (
    "einvoices/ZUGFeRDv2/correct/symtrax/Beispiele/EN16931/zugferd_2p1_EN16931_Miete.pdf",
    "einvoices/XML-Rechnung/FX/EN16931_Rabatte.pdf",
    "einvoices/ZUGFeRDv1/correct/Intarsys/ZUGFeRD_1p0_EXTENDED_Warenrechnung.pdf",
    "einvoices-more/factur-x-kit/PDF_DESIGN_EN_MultiPage.pdf",
    "einvoices/ZUGFeRDv2/correct/intarsys/EN16931/zugferd_2p0_EN16931_Einfach.pdf",
)


def test_stacks_of_real_e_invoices_split_into_their_exact_page_ranges(shared_data, tmp_path):
    files = [shared_data(*name.split("/")) for name in REAL]
    for path in files:  # each alone: one document of all its pages
        doc, _ = read_and_analyze(path, RunOptions(ocr="never"))
        assert ranges(path) == [(1, len(doc.pages))], path.name
    for order in (files, files[::-1], files[1::2] + files[::2]):
        stack = tmp_path / "stack.pdf"
        truth = stack_pdfs(order, stack)
        assert ranges(stack) == truth, [p.name for p in order]


@pytest.fixture(scope="module")
def invoice_model(tmp_path_factory):
    """A real untrained 1-layer model with invoice labels: splitting is for models that read invoice numbers."""
    from conftest import save_tiny_model

    labels = ["O"] + [f"{p}-{l}" for l in ("invoice_number", "total", "invoice_date") for p in ("B", "I")]
    return save_tiny_model(tmp_path_factory.mktemp("invoice-model"), labels)


def test_run_prints_one_document_per_invoice_of_a_stack(synthetic, invoice_model, tmp_path):
    stack = tmp_path / "stack.pdf"
    truth = stack_pdfs([p for p, _ in synthetic[:3]], stack)
    result = runner.invoke(app, ["run", str(stack), "--model", str(invoice_model)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    jsonschema.validate(out, load_schema())
    documents = out["documents"]
    assert [tuple(d["page_range"]) for d in documents] == truth
    assert [d["document_index"] for d in documents] == [0, 1, 2]
    for document in documents:  # each document's fields, line items and entities come from its own pages
        first, last = document["page_range"]
        assert document["split"]["reasons"]
        assert all(first <= e["page"] <= last for e in document["entities"])
        assert all(first <= f["page"] <= last for f in document["fields"].values() if "page" in f)
        assert "checks" in document["validation"]

    whole = runner.invoke(app, ["run", str(stack), "--model", str(invoice_model), "--no-split"])
    assert whole.exit_code == 0, whole.output
    documents = json.loads(whole.stdout)["documents"]
    assert [d["page_range"] for d in documents] == [[1, truth[-1][1]]] and "split" not in documents[0]
