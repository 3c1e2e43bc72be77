"""`docextract convert einvoice`: e-invoices' embedded values located on their pages as labelled data,
grouped by invoice, and split by group."""

import json

from einvoice_factory import PRINTED_INVOICE, cii_xml, einvoice_pdf
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.einvoice import LABEL_FIELDS, assign_groups, convert_einvoices, scenario_name
from docextract.data.labelled import read_jsonl
from docextract.data.splitting import split_every
from docextract.data.validate import ERROR, validate_files
from docextract.vocabulary import DOCUMENT_LABELS

runner = CliRunner()


def words_of(ldoc, label):
    """Each entity of ``label``: its words' texts joined, in reading order."""
    entities = {}
    for ref in ldoc.document.ordered_words():
        if ldoc.label(ref) == label:
            entities.setdefault(ldoc.entity(ref), []).append(ldoc.document.word(ref).text)
    return [" ".join(words) for words in entities.values()]


def test_label_fields_are_the_invoice_models_document_labels():
    assert LABEL_FIELDS == DOCUMENT_LABELS


def test_real_e_invoice_values_are_labelled_where_printed(shared_data, tmp_path):
    pdf = shared_data("einvoices", "XML-Rechnung", "FX", "EN16931_Einfach.pdf")
    docs, report = convert_einvoices(pdf)
    (doc,) = docs
    assert words_of(doc, "invoice_number") == ["471102"]
    assert words_of(doc, "invoice_date") == ["05.03.2018"]  # "vom 05.03.2018"; the delivery date of that day stays O
    assert words_of(doc, "total") == ["529,87"] and words_of(doc, "amount_due") == ["529,87"]
    assert words_of(doc, "subtotal") == ["473,00", "473,00"]  # Positionssumme and Rechnungssumme ohne USt.
    assert words_of(doc, "total_tax") == ["56,87"]
    assert words_of(doc, "vendor_tax_id") == ["DE123456789"]
    assert not words_of(doc, "line_item_amount") and "198,00" not in words_of(doc, "subtotal")
    assert doc.fields["total"] == ("529.87",) and doc.fields["invoice_date"] == ("2018-03-05",)
    # label_set is exactly what was located: the XML states no due date or IBAN, so they are not claimed
    assert set(doc.label_set) == set(doc.fields) and "due_date" not in doc.label_set and "iban" not in doc.label_set
    assert doc.group == "einfach" and doc.id == "EN16931_Einfach"
    assert report.expected["total"] == 1 and report.unmatched["total"] == 0
    out = tmp_path / "e.jsonl"
    runner.invoke(app, ["convert", "einvoice", str(pdf), str(out)], catch_exceptions=False)
    assert [i for i in validate_files([out]) if i.severity == ERROR] == []
    assert json.loads(out.read_text())["group"] == "einfach"


def test_unlocated_fields_are_reported_and_left_out_of_the_label_set(tmp_path):
    # The XML states an IBAN and an order number the page never prints, and a total the page prints otherwise.
    pdf = einvoice_pdf(tmp_path / "inv.pdf", PRINTED_INVOICE,
                       cii_xml(iban="DE02120300000000202051", order="PO-777", total="1290.00", due_payable="1290.00"))
    (doc,), report = convert_einvoices(pdf)
    assert {"iban", "purchase_order", "total", "amount_due"}.isdisjoint(doc.label_set)
    assert {"invoice_number", "invoice_date", "subtotal", "total_tax", "vendor_name", "billing_address"} <= set(doc.label_set)
    assert words_of(doc, "subtotal") == ["1.000,00"]  # the net total, not the line item of the same amount
    assert words_of(doc, "invoice_date") == ["5. März 2024"]  # not "Lieferdatum: 05.03.2024"
    assert words_of(doc, "vendor_address") == ["Hauptstraße 5 10115 Berlin"]
    assert report.unmatched_reasons["iban: not printed"] == 1 and report.unmatched["total"] == 1
    assert report.unmatched_reasons["purchase_order: not printed"] == 1


def test_group_names_and_merging_by_invoice_identity():
    assert scenario_name("zugferd_2p1_EN16931_Einfach") == "einfach"
    assert scenario_name("ZUGFeRD_1p0_BASIC_Einfach") == scenario_name("EN16931_Einfach") == "einfach"
    assert scenario_name("EN16931_1_Teilrechnung_fx") == "1_teilrechnung"
    assert scenario_name("zugferd_2p1_BASIC-WL_Buchungshilfe") == "buchungshilfe"
    assert scenario_name("PDF_DESIGN_FR") == scenario_name("PDF_DESIGN_DE") == "pdf_design"
    same = ("inv1", "acme", "10.00")
    groups = assign_groups(["a", "b", "c", "d"], [same, same, ("inv2", "acme", "10.00"), None])
    assert groups == ["a", "a", "c", "d"]  # b is a by its invoice identity


def test_split_keeps_every_group_on_one_side(tmp_path):
    pdf = einvoice_pdf(tmp_path / "inv.pdf", PRINTED_INVOICE, cii_xml())
    (doc,), _ = convert_einvoices(pdf)
    docs = [doc.__class__(f"doc{i:02d}", doc.document, doc.labels, doc.entities, doc.label_set, doc.fields,
                          group=f"g{i % 7}") for i in range(21)]
    train, val = split_every(docs, 3)
    assert {d.group for d in train}.isdisjoint({d.group for d in val})
    assert {d.group for d in val} == {"g2", "g5"} and len(val) == 6
    plain = [doc.__class__(f"doc{i:02d}", doc.document, doc.labels, doc.entities, doc.label_set) for i in range(9)]
    assert [d.id for d in split_every(plain, 3)[1]] == ["doc02", "doc05", "doc08"]  # no groups: the former rule
    # the command reads the groups back from the JSONL
    from docextract.data.labelled import write_jsonl
    write_jsonl(docs, tmp_path / "all.jsonl")
    result = runner.invoke(app, ["split", str(tmp_path / "all.jsonl"), str(tmp_path / "t.jsonl"), str(tmp_path / "v.jsonl"),
                                 "--every", "3"])
    assert result.exit_code == 0, result.output
    assert {d.group for d in read_jsonl(tmp_path / "v.jsonl")} == {"g2", "g5"}


def test_renderings_of_one_invoice_form_one_group(shared_data):
    root = shared_data("einvoices")
    pdfs = [root / "XML-Rechnung" / "FX" / "EN16931_Einfach.pdf",
            root / "ZUGFeRDv1" / "correct" / "Intarsys" / "ZUGFeRD_1p0_BASIC_Einfach.pdf",
            root / "XML-Rechnung" / "FX" / "EN16931_Einfach_DueDate.pdf",  # same number, seller and total
            root / "XML-Rechnung" / "FX" / "EN16931_Miete.pdf"]
    docs, report = convert_einvoices(pdfs)
    assert [d.group for d in docs] == ["einfach", "einfach", "einfach", "miete"]
    assert report.notes["invoice groups"] == 2
