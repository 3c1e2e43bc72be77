"""`docextract render`: other people's invoice renderers, labelled by construction.

The renderer these tests run is arca-factura-pdf (pure Python, in the dev extra); every other renderer needs
TeX Live, Node or a larger package (scripts/setup-render.sh) and is only listed here.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from fpdf import FPDF
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.labelled import LabelledDocument, read_jsonl
from docextract.data.validate import validate_files
from docextract.errors import EXIT_USAGE
from docextract.extraction.locate import amount_forms, compact, date_forms, locate_line_items_exactly
from docextract.extraction.normalize import parse_currency, parse_number
from docextract.readers import read_document
from docextract.synth.render import all_renderers
from docextract.synth.render.content import from_embedded
from docextract.synth.render.produce import Tally, content_rng, produce, synthetic_invoice

from einvoice_factory import PRINTED_INVOICE, cii_xml, einvoice_pdf

runner = CliRunner()
AMOUNTS = ("subtotal", "total_tax", "total", "amount_due")


def _arca():
    pytest.importorskip("factura_pdf", reason="arca-factura-pdf is not installed (pip install -e '.[dev]')")
    renderer = all_renderers()["arca-factura-pdf"]
    assert renderer.missing() is None
    return renderer


def _entities(record: dict) -> dict[tuple[str, int], list[str]]:
    """(label, entity) -> the words' texts, in page order."""
    out: dict[tuple[str, int], list[str]] = {}
    for page in record["pages"]:
        for word in page["words"]:
            if word.get("label"):
                out.setdefault((word["label"], word["entity"]), []).append(word["text"])
    return out


def _shows(label: str, texts: list[str], value: str) -> bool:
    """Whether the words of one entity print ``value`` (a field's normalised truth)."""
    from datetime import date

    joined = " ".join(texts)
    if label in AMOUNTS or label in ("line_item_amount", "line_item_unit_price"):
        bare = joined.strip("$€ -").replace("$", "")
        # or printed with more decimals than the truth keeps ("56590.0400": pyinvoicer's unrounded arithmetic)
        return bare in amount_forms(Decimal(value)) or parse_number(bare, "en_US") == Decimal(value)
    if label in ("invoice_date", "due_date"):
        return " ".join(joined.casefold().split()) in date_forms(date.fromisoformat(value))
    if label == "currency":  # "€" beside an amount says EUR
        return parse_currency(joined) == value
    return compact(joined) == compact(value)


def test_rendered_values_are_labelled_on_the_words_that_print_them(tmp_path):
    renderer = _arca()
    tally, records = Tally(), []
    for index in range(4):
        record = produce(renderer, synthetic_invoice(renderer, 7, index), f"arca-{index}",
                         content_rng(7, index, "layout"), tmp_path, tally)
        if record is not None:
            records.append(record)
    assert records, tally.to_dict()
    checked = 0
    for record in records:
        assert record["producer"] == "arca-factura-pdf" and record["group"].startswith("synth-7-arca-factura-pdf-")
        for (label, _), texts in _entities(record).items():
            if label in record["fields"] and not label.endswith("_address"):
                assert _shows(label, texts, record["fields"][label][0]), (label, texts, record["fields"][label])
                checked += 1
        for name in ("invoice_number", "vendor_name", "customer_name", "vendor_tax_id"):  # Spanish: dates, amounts by key only
            assert name in record["label_set"] and any(k[0] == name for k in _entities(record)), name
        if "line_item_amount" in record["label_set"]:
            rows: dict[int, dict[str, list[str]]] = {}
            for page in record["pages"]:
                for word in page["words"]:
                    if "row" in word:
                        rows.setdefault(word["row"], {}).setdefault(word["label"], []).append(word["text"])
            assert len(rows) == len(record["line_items"])
            for row, cells in rows.items():
                truth = record["line_items"][row]
                assert compact(" ".join(cells["line_item_description"])) == compact(truth["description"])
                assert _shows("line_item_amount", cells["line_item_amount"], truth["amount"])
    assert checked >= 20


@pytest.mark.parametrize("name", ["pyinvoice", "simple-html-invoice", "pyinvoicer", "isodoc", "tryton", "invoicing",
                                  "html-invoicer", "invoice-it", "gen-invoice"])
def test_the_keyed_row_and_web_template_renderers_label_what_their_pages_print(tmp_path, name):
    renderer = all_renderers()[name]
    if renderer.missing():
        pytest.skip(renderer.missing())
    tally, records = Tally(), []
    for index in range(3):
        record = produce(renderer, synthetic_invoice(renderer, 5, index), f"{name}-{index}",
                         content_rng(5, index, f"layout:{name}"), tmp_path, tally)
        if record is not None:
            records.append(record)
    assert len(records) >= 2, tally.to_dict()
    for record in records:
        fields = record["fields"]
        for (label, _), texts in _entities(record).items():
            if label in fields and not label.endswith("_address"):
                assert _shows(label, texts, fields[label][0]), (label, texts, fields[label])
        # isodoc prints the number twice (our reference, payment reference): masked where the matcher cannot tell;
        # Tryton prints a logo instead of the company's name
        assert ({"customer_name", "billing_address", "total"} if name == "isodoc" else
                {"invoice_number", "invoice_date", "customer_name", "billing_address"} if name == "tryton" else
                {"invoice_number", "invoice_date", "vendor_name", "customer_name"}) <= set(fields)
        # the adapter's arithmetic is the package's (invoice-it cuts its float sums to two decimals, gen-invoice rounds
        # each float sum as it prints it: they may miss a cent)
        if {"subtotal", "total_tax", "total"} <= set(fields) and name not in ("invoice-it", "gen-invoice"):
            assert Decimal(fields["subtotal"][0]) + Decimal(fields["total_tax"][0]) == Decimal(fields["total"][0])
    if name == "invoice-it":  # the emitter's and the recipient's boxes, and the VAT number in the footer it is given
        assert all({"vendor_address", "billing_address", "subtotal", "total_tax", "total"} <= set(r["fields"])
                   for r in records)
    if name == "gen-invoice":  # the vendor's address right of its name, the customer's in the "Billed to:" box
        assert all({"vendor_address", "billing_address", "subtotal", "total"} <= set(r["fields"]) for r in records)
    if name == "simple-html-invoice":  # the template's "Seller:" block left of its flush-right "Buyer" block
        assert all({"vendor_address", "billing_address"} <= set(r["fields"]) for r in records)
    if name == "tryton":  # its labels in the module's own translation of the page's language
        from docextract.synth.render.tryton import _translations

        for record in records:
            language = record["render"]["options"]["language"]
            text = " ".join(word["text"] for page in record["pages"] for word in page["words"])
            assert _translations(language).get("Invoice No:", "Invoice No:").split()[0] in text, language


def _table_pdf(path: Path) -> None:
    """A table whose VAT column equals the unit price on one row (5 x 58,34 = 291,70; VAT 20 % = 58,34)."""
    pdf = FPDF(unit="pt", format=(600, 300))
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    columns = (30, 60, 260, 330, 410, 490)
    rows = (("Pos", "Description", "Qty", "Price", "Net", "VAT"),
            ("1", "Screen 27 inch", "5", "58,34", "291,70", "58,34"),
            ("2", "Cable set", "2", "10,00", "20,00", "4,00"),
            ("3", "Installation", "1", "80,00", "80,00", "16,00"))
    for n, row in enumerate(rows):
        for x, text in zip(columns, row):
            pdf.text(x, 40 + 20 * n, text)
    pdf.output(str(path))


def test_a_value_standing_twice_on_a_row_goes_to_its_column(tmp_path):
    _table_pdf(tmp_path / "table.pdf")
    document = read_document(tmp_path / "table.pdf")
    items = [{"description": "Screen 27 inch", "quantity": Decimal(5), "unit_price": Decimal("58.34"),
              "amount": Decimal("291.70")},
             {"description": "Cable set", "quantity": Decimal(2), "unit_price": Decimal("10"), "amount": Decimal(20)},
             {"description": "Installation", "quantity": Decimal(1), "unit_price": Decimal(80), "amount": Decimal(80)}]
    cells = locate_line_items_exactly(document, items)
    assert cells is not None
    first = cells[0]
    price = document.word(first["unit_price"][0])
    assert price.text == "58,34" and price.box.x0 < 400  # the price column, not the VAT column at x=490
    assert document.word(first["quantity"][0]).text == "5"
    # quantity 1 of the last row: the position number "3" is not mistaken for it, the amount is the Net column
    assert document.word(cells[2]["quantity"][0]).text == "1"
    assert document.word(cells[2]["amount"][0]).box.x0 > 400
    assert locate_line_items_exactly(document, [{"description": "Not on the page", "quantity": None, "unit_price": None,
                                         "amount": Decimal(1)}]) is None


def test_render_command_writes_producer_and_group_that_validate(tmp_path):
    _arca()
    out = tmp_path / "out"
    out.mkdir()
    (out / "render-report.json").write_text(json.dumps({"renderers": {"dinbrief": {"written": 5}}}))
    result = runner.invoke(app, ["render", str(out), "--renderer", "arca-factura-pdf", "--count", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / "arca-factura-pdf.jsonl").read_text().splitlines()]
    assert len(records) == 2
    assert all(r["producer"] == "arca-factura-pdf" and r["group"].startswith("synth-3-arca-") for r in records)
    assert all((out / r["source"]).is_file() for r in records)
    assert not [issue for issue in validate_files([out / "arca-factura-pdf.jsonl"]) if issue.severity == "error"]
    docs = list(read_jsonl(out / "arca-factura-pdf.jsonl"))
    assert {doc.producer for doc in docs} == {"arca-factura-pdf"}
    report = json.loads((out / "render-report.json").read_text())
    assert report["renderers"]["arca-factura-pdf"]["written"] == 2
    assert report["renderers"]["arca-factura-pdf"]["run"]["seed"] == 3
    assert report["renderers"]["dinbrief"] == {"written": 5}  # an earlier run's renderer stays in the report


def test_render_lists_every_renderer_and_refuses_unknown_ones(tmp_path):
    listed = runner.invoke(app, ["render", "--list"])
    assert listed.exit_code == 0
    names = {line.split("\t")[0] for line in listed.output.splitlines()}
    assert names == set(all_renderers()) and len(names) >= 10
    unknown = runner.invoke(app, ["render", str(tmp_path), "--renderer", "no-such-renderer"])
    assert unknown.exit_code == EXIT_USAGE and "unknown renderer" in unknown.output


def test_a_renderer_that_is_not_installed_says_why():
    for renderer in all_renderers().values():
        reason = renderer.missing()
        assert reason is None or ("install" in reason or "setup-render" in reason), (renderer.name, reason)


def test_a_renderer_installed_apart_needs_its_dependencies_from_docextracts_environment(tmp_path, monkeypatch):
    from docextract.synth.render.base import isolated_package_missing

    (tmp_path / "somerenderer").mkdir()
    (tmp_path / "somerenderer" / "__init__.py").write_text("")
    monkeypatch.setenv("DOCEXTRACT_RENDER_PYTHON", str(tmp_path))
    assert isolated_package_missing("somerenderer", "somerenderer==1.0")() is None
    reason = isolated_package_missing("somerenderer", "somerenderer==1.0", needs=("no_such_module_here",))()
    assert reason is not None and "no_such_module_here" in reason and "install" in reason
    assert "somerenderer==1.0" in isolated_package_missing("absent", "somerenderer==1.0")()
    # installed without the template the adapter reads: not installed as it needs to be
    assert "not installed" in isolated_package_missing("somerenderer", "somerenderer==1.0",
                                                       files=("templates/page.html",))()
    (tmp_path / "somerenderer" / "templates").mkdir()
    (tmp_path / "somerenderer" / "templates" / "page.html").write_text("<html></html>")
    assert isolated_package_missing("somerenderer", "somerenderer==1.0", files=("templates/page.html",))() is None


def test_producer_round_trips_and_is_validated(tmp_path):
    record = {"id": "a", "label_set": ["total"], "producer": "dinbrief", "group": "synth-0-000001",
              "pages": [{"number": 1, "width": 100.0, "height": 100.0, "words": [
                  {"text": "9,90", "box": [1, 1, 20, 10], "label": "total", "entity": 0}]}]}
    doc = LabelledDocument.from_dict(record)
    assert doc.producer == "dinbrief" and doc.to_dict()["producer"] == "dinbrief"
    assert doc.with_document(doc.document).producer == "dinbrief"
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({**record, "producer": ""}) + "\n" + json.dumps({**record, "id": "b", "group": 3}) + "\n")
    issues = [str(i) for i in validate_files([path]) if i.severity == "error"]
    assert any("producer" in i for i in issues) and any("group" in i for i in issues)


def test_real_e_invoice_content_keeps_the_group_convert_gives_it(tmp_path):
    from docextract.data.einvoice import convert_einvoices, distinct_invoices

    folder = tmp_path / "einvoices"
    folder.mkdir()
    einvoice_pdf(folder / "zugferd_2p1_BASIC_Muster.pdf", PRINTED_INVOICE, cii_xml())
    einvoice_pdf(folder / "zugferd_2p1_EN16931_Muster.pdf", PRINTED_INVOICE, cii_xml())  # the same invoice
    einvoice_pdf(folder / "factur-x_Other.pdf", PRINTED_INVOICE, cii_xml(number="RE-7", total="99.00"))
    found = distinct_invoices(folder)
    assert len(found) == 2
    converted, _ = convert_einvoices(folder)
    groups = {Path(doc.id).name: doc.group for doc in converted}
    for group, path, _ in found:
        assert groups[Path(path).stem] == group
    content = from_embedded(found[0][2], found[0][0])
    assert content is not None and content.origin == "einvoice" and content.group == found[0][0]
    assert content.items and content.total == found[0][2].total


def test_each_renderer_prints_its_own_reproducible_synthetic_content():
    renderers = all_renderers()
    a = synthetic_invoice(renderers["microinvoice"], 0, 5)
    b = synthetic_invoice(renderers["jspdf-invoice-template"], 0, 5)
    assert a.group == "synth-0-microinvoice-000005" and b.group == "synth-0-jspdf-invoice-template-000005"
    assert a.vendor != b.vendor  # no content (so no group) shared between renderers
    assert synthetic_invoice(renderers["microinvoice"], 0, 5) == a
