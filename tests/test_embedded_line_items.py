"""E-invoice line items come from the embedded XML: its rows replace the model's guesses (which stay beside them),
each cross-checked like the header fields, the sum check runs on them, and line_items.csv exports them."""

import csv
import io
import json

import jsonschema
from einvoice_factory import cii_xml, einvoice_pdf
from typer.testing import CliRunner

from docextract.cli import app
from docextract.extraction.embedded import LINE_ITEMS_CHECK_NAME, add_embedded_values
from docextract.extraction.entities import TaggedWord
from docextract.extraction.output import build_output, load_schema
from docextract.layout import analyze_layout
from docextract.readers import read_document
from docextract.readers.einvoice import read_embedded_invoice

runner = CliRunner()
PRINTED = [
    "Muster Software GmbH",
    "Rechnung Nr. | RE-2024-0042",
    "Rechnungsdatum: | 5. März 2024",
    "Pos Beschreibung Menge Preis | Betrag",
    "1 Beratung 1 1.000,00 | 1.000,00",
    "2 Schulung vor Ort 2 250,00 | 500,00",
    "Nettobetrag | 1.500,00 EUR",
    "MwSt. 19% | 285,00 EUR",
    "Gesamtbetrag | 1.785,00 EUR",
]
XML_ROWS = (("Beratung", "1", "1000.00", "1000.00"), ("Schulung vor Ort", "2", "250.00", "500.00"))


def _invoice(tmp_path):
    xml = cii_xml(net="1500.00", tax="285.00", total="1785.00", due_payable="1785.00", lines=XML_ROWS)
    return einvoice_pdf(tmp_path / "inv.pdf", PRINTED, xml)


def _output(pdf, tags: dict[tuple[str, int], str]):
    """The output of a model that tags the n-th occurrence of a word ``(text, n)`` with ``tags``' tag, with the
    XML applied as `run` applies it."""
    doc = analyze_layout(read_document(pdf))
    seen: dict[str, int] = {}
    tagged = []
    for ref in doc.ordered_words():
        text = doc.word(ref).text
        seen[text] = seen.get(text, 0) + 1
        tagged.append(TaggedWord(ref, tags.get((text, seen[text]), "O"), 0.9))
    output = build_output(doc, tagged, model={"name": "test", "labels": ["total", "line_item_description",
                                                                        "line_item_amount", "line_item_quantity"]})
    invoice = read_embedded_invoice(pdf)
    output = add_embedded_values(output, doc, invoice.field_values(), invoice.normalized_fields(), invoice.summary(),
                                 invoice.line_item_amounts())
    jsonschema.validate(output, load_schema())
    return output["documents"][0]


def test_the_xml_rows_replace_the_models_which_stay_beside_them_and_are_cross_checked(tmp_path):
    # the model reads row 1 right, and row 2's unit price as its amount
    document = _output(_invoice(tmp_path), {
        ("Beratung", 1): "B-line_item_description", ("1.000,00", 2): "B-line_item_amount",
        ("Schulung", 1): "B-line_item_description", ("vor", 1): "I-line_item_description",
        ("Ort", 1): "I-line_item_description", ("250,00", 1): "B-line_item_amount"})
    first, second = document["line_items"]
    assert first["method"] == second["method"] == "embedded"
    assert {name: cell["normalized"] for name, cell in second["fields"].items()} == {
        "description": "Schulung vor Ort", "quantity": "2",
        "unit_price": {"amount": "250.00", "currency": "EUR"}, "amount": {"amount": "500.00", "currency": "EUR"}}
    assert second["fields"]["amount"]["value"] == "500,00" and second["fields"]["amount"]["page"] == 1  # located
    assert first["model_agrees"] is True and first["model"]["fields"]["amount"]["value"] == "1.000,00"
    assert second["model_agrees"] is False and second["model"]["fields"]["amount"]["value"] == "250,00"
    validation = document["validation"]
    checks = {c["name"]: c for c in validation["checks"]}
    assert checks[LINE_ITEMS_CHECK_NAME] == {"name": LINE_ITEMS_CHECK_NAME, "status": "fail", "rows": [1],
                                             "model_only_rows": 0}
    assert checks["line_items_sum_equals_line_total"]["status"] == "pass"  # on the XML's rows: 1000 + 500 = 1500
    assert ("page disagrees with the embedded invoice: line item 2: amount: page '250,00' vs embedded 500.00 EUR"
            in validation["review_reasons"]) and validation["needs_review"]


def test_a_row_the_xml_does_not_state_is_kept_apart_and_flagged(tmp_path):
    document = _output(_invoice(tmp_path), {
        ("Beratung", 1): "B-line_item_description", ("1.000,00", 2): "B-line_item_amount",
        ("Schulung", 1): "B-line_item_description", ("vor", 1): "I-line_item_description",
        ("Ort", 1): "I-line_item_description", ("500,00", 1): "B-line_item_amount",
        ("Gesamtbetrag", 1): "B-line_item_description", ("1.785,00", 1): "B-line_item_amount"})  # the total as a row
    assert [row["model_agrees"] for row in document["line_items"]] == [True, True]
    extra = document["model_only_line_items"][0]["fields"]
    assert (extra["description"]["value"], extra["amount"]["value"]) == ("Gesamtbetrag", "1.785,00")
    check = next(c for c in document["validation"]["checks"] if c["name"] == LINE_ITEMS_CHECK_NAME)
    assert (check["status"], check["rows"], check["model_only_rows"]) == ("fail", [], 1)
    assert any("1 line item(s) read on the page that the embedded invoice does not state: 'Gesamtbetrag 1.785,00'" in reason
               for reason in document["validation"]["review_reasons"])


def test_without_model_rows_nothing_is_compared_and_the_csv_exports_the_xml_rows(tmp_path):
    pdf = _invoice(tmp_path)
    target = tmp_path / "inv.csv"
    result = runner.invoke(app, ["run", str(pdf), "--model", "none", "--format", "csv", "--out", str(target)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "inv.line_items.csv").read_text())))
    assert [(r["description"], r["quantity"], r["amount.amount"]) for r in rows] == [
        ("Beratung", "1", "1000.00"), ("Schulung vor Ort", "2", "500.00")]
    output = json.loads(runner.invoke(app, ["run", str(pdf), "--model", "none"]).stdout)
    checks = {c["name"]: c["status"] for c in output["documents"][0]["validation"]["checks"]}
    assert checks[LINE_ITEMS_CHECK_NAME] == "skipped" and checks["line_items_sum_equals_line_total"] == "pass"
    page_only = json.loads(runner.invoke(app, ["run", str(pdf), "--model", "none", "--ignore-embedded"]).stdout)
    assert page_only["documents"] == []


def test_the_rows_sum_to_the_xmls_line_total_not_to_a_subtotal_after_an_allowance(tmp_path):
    """A 50.00 allowance on the whole invoice: the rows sum to the line total (1500.00), the tax basis is 1450.00."""
    xml = cii_xml(net="1450.00", line_total="1500.00", tax="275.50", total="1725.50", due_payable="1725.50",
                  lines=XML_ROWS)
    pdf = einvoice_pdf(tmp_path / "allowance.pdf", PRINTED, xml)
    output = json.loads(runner.invoke(app, ["run", str(pdf), "--model", "none"]).stdout)
    jsonschema.validate(output, load_schema())
    document = output["documents"][0]
    checks = {c["name"]: c for c in document["validation"]["checks"]}
    assert checks["line_items_sum_equals_line_total"] == {"name": "line_items_sum_equals_line_total", "status": "pass",
                                                          "expected": "1500.00", "observed": "1500.00"}
    assert "line_items_sum_equals_subtotal" not in checks
    assert document["embedded_invoice"]["line_total"] == "1500.00"


def test_sub_lines_are_not_summed_twice(shared_data):
    """CII EXTENDED sub-invoice lines: each group line's amount holds its detail lines' (3000.00 summed naively)."""
    pdf = shared_data("einvoices-more", "ferd-2.4", "Extended_SubInvoiceLines_Hardware_Bsp2_fx.pdf")
    output = json.loads(runner.invoke(app, ["run", str(pdf), "--model", "none"]).stdout)
    document = output["documents"][0]
    assert sum("parent_line" in row for row in document["line_items"]) == 4
    check = next(c for c in document["validation"]["checks"] if c["name"] == "line_items_sum_equals_line_total")
    assert (check["status"], check["observed"]) == ("pass", "1500.00")
