"""`docextract run` on e-invoices: the embedded XML's values beside the model's reading, every
disagreement flagged for review, --ignore-embedded, and PDFs without an invoice exactly as before."""

import json

import jsonschema
from einvoice_factory import PRINTED_INVOICE, cii_xml, einvoice_pdf
from typer.testing import CliRunner

from docextract.cli import app
from docextract.extraction.embedded import CHECK_NAME, add_embedded_values
from docextract.extraction.entities import TaggedWord
from docextract.extraction.output import build_output, load_schema
from docextract.layout import analyze_layout
from docextract.readers import read_document
from docextract.readers.einvoice import read_embedded_invoice

runner = CliRunner()


def run_json(*args):
    result = runner.invoke(app, ["run", *map(str, args)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    jsonschema.validate(out, load_schema())
    return out


def test_a_page_that_disagrees_with_its_xml_is_flagged_with_both_values(tmp_path):
    # The page prints a total of 1.190,00; the XML says 1290.00. The model reads the printed total.
    pdf = einvoice_pdf(tmp_path / "inv.pdf", PRINTED_INVOICE, cii_xml(total="1290.00", due_payable="1190.00"))
    doc = analyze_layout(read_document(pdf))
    order = doc.ordered_words()
    gesamt = next(i for i, r in enumerate(order) if doc.word(r).text == "Gesamtbetrag")
    tagged = [TaggedWord(r, "B-total" if i == gesamt + 1 else "O", 0.9) for i, r in enumerate(order)]
    output = build_output(doc, tagged, model={"name": "test", "labels": ["total"]})
    invoice = read_embedded_invoice(pdf)
    output = add_embedded_values(output, doc, invoice.field_values(), invoice.normalized_fields(), invoice.summary(),
                                 invoice.line_item_amounts())
    jsonschema.validate(output, load_schema())
    document = output["documents"][0]
    total = document["fields"]["total"]
    assert total["method"] == "embedded" and total["confidence"] == 1.0
    assert total["normalized"] == {"amount": "1290.00", "currency": "EUR"}
    assert total["model"]["value"] == "1.190,00" and total["model_agrees"] is False
    assert "page" not in total  # 1290.00 is printed nowhere on the page
    validation = document["validation"]
    assert validation["needs_review"]
    reason = next(r for r in validation["review_reasons"] if "total:" in r)
    assert "1.190,00" in reason and "1290.00" in reason
    check = next(c for c in validation["checks"] if c["name"] == CHECK_NAME)
    assert check["status"] == "fail" and check["fields"] == ["total"]
    # an embedded value the page prints is located there
    number = document["fields"]["invoice_number"]
    assert (number["value"], number["page"], number["method"]) == ("RE-2024-0042", 1, "embedded")
    assert document["embedded_invoice"]["syntax"] == "CII"


def test_run_reports_embedded_values_and_ignore_embedded_reads_the_page_only(tmp_path, tiny_model):
    pdf = einvoice_pdf(tmp_path / "inv.pdf", PRINTED_INVOICE, cii_xml(total="1290.00", due_payable="1290.00"))
    out = run_json(pdf, "--model", tiny_model)
    fields = out["documents"][0]["fields"]
    assert fields["invoice_number"]["method"] == "embedded" and fields["vendor_tax_id"]["value"] == "DE 811 234 567"
    assert fields["total"]["normalized"]["amount"] == "1290.00"
    page_only = run_json(pdf, "--model", tiny_model, "--ignore-embedded")
    document = page_only["documents"][0]
    assert "embedded_invoice" not in document
    # read from the page only: by the model, or from the key the page prints where the model left a field empty
    assert all(f["method"] in ("model", "rule") for f in document["fields"].values())
    assert not any("embedded" in r for r in document["validation"]["review_reasons"])
    assert all(c["name"] != CHECK_NAME for c in document["validation"]["checks"])
    # without a model, the embedded values alone
    bare = run_json(pdf, "--model", "none")
    assert bare["documents"][0]["fields"]["invoice_date"]["normalized"] == "2024-03-05"


def test_a_pdf_without_an_invoice_is_read_exactly_as_before(tmp_path, tiny_model):
    pdf = einvoice_pdf(tmp_path / "plain.pdf", PRINTED_INVOICE, None)
    assert run_json(pdf, "--model", tiny_model) == run_json(pdf, "--model", tiny_model, "--ignore-embedded")
    assert run_json(pdf, "--model", "none")["documents"] == []


def test_ignore_embedded_reaches_the_batch_workers(tmp_path):
    from docextract.pipeline import RunOptions, extract_file

    folder = tmp_path / "in"
    folder.mkdir()
    pdf = einvoice_pdf(folder / "inv.pdf", PRINTED_INVOICE, cii_xml())
    # a worker gets the options as a dict (RunOptions.to_dict) and passes them to extract_file
    assert extract_file(str(pdf), RunOptions(model=None).to_dict())["documents"]
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(folder), "--model", "none", "--out", str(out), "--ignore-embedded"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "inv.pdf.json").read_text())["documents"] == []
