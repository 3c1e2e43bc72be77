"""What kind of document a page is, and what an invoice model does with one that is not an invoice."""

import json
from pathlib import Path

from typer.testing import CliRunner

from docextract.cli import app
from docextract.document import Document
from docextract.extraction.doctype import document_type, model_document_types
from docextract.extraction.entities import normalize_value
from docextract.extraction.key_values import key_value_entities
from tests.layout_helpers import laid_out_page


def _page(rows: list[list[tuple[str, float]]]) -> Document:
    return laid_out_page(rows, line_spacing=16, source="in/doc.pdf")


INVOICE = [[("ACME Hosting B.V.", 40)], [("Invoice", 40)], [("Invoice number:", 40), ("INV-2024-0042", 200)],
           [("Invoice date:", 40), ("12.03.2024", 200)], [("Net amount", 40), ("100,00 EUR", 400)],
           [("VAT 21 %", 40), ("21,00 EUR", 400)], [("Total", 40), ("121,00 EUR", 400)]]
LETTER = [[("Dear Sir or Madam,", 40)], [("Hello World! Lorem ipsum dolor sit amet, consectetur adipiscing.", 40)],
          [("Meeting on 12.03.2024 in the hallway, room 4.", 40)], [("Kind regards", 40)], [("Jane Doe", 40)]]


def test_an_invoice_is_typed_by_its_keyed_values():
    decided = document_type(_page(INVOICE))
    assert decided.type == "invoice"
    assert "invoice_number" in decided.signals["keyed_fields"] and "total" in decided.signals["keyed_fields"]


def test_a_credit_note_keeps_its_title_and_its_amounts_their_sign():
    rows = [[("Credit note", 40)], *INVOICE[2:6], [("Total", 40), ("-121,00 EUR", 400)]]
    doc = _page(rows)
    assert document_type(doc).type == "credit_note"
    found = {e.label: e for e in key_value_entities(doc, [], ("total",), {}, "de_DE", 2024)}
    _, normalized, _ = normalize_value("total", found["total"].text(doc), "de_DE", "EUR")
    assert normalized == {"amount": "-121.00", "currency": "EUR"}


def test_a_credit_notes_tax_printed_without_its_minus_takes_the_sign_the_totals_give_it():
    from docextract.extraction.checks import signed_by_the_totals, validate_invoice

    def fields(subtotal: str, tax: str, total: str) -> dict:
        out = {}
        for label, text in (("subtotal", subtotal), ("total_tax", tax), ("total", total)):
            kind, normalized, extra = normalize_value(label, text, "de_DE", "EUR")
            out[label] = {"type": kind, "value": text, "normalized": normalized, "confidence": 0.9, **extra}
        return out

    # "Rechnungssumme ohne USt. -7,67", "Steuerbetrag 1,12", "Bruttosumme -8,79" (a ZUGFeRD Rechnungskorrektur)
    signed = signed_by_the_totals(fields("-7,67", "1,12", "-8,79"))
    assert signed["total_tax"]["normalized"] == {"amount": "-1.12", "currency": "EUR"}
    assert signed["total_tax"]["value"] == "1,12"  # as printed
    assert signed["total_tax"]["normalization"]["sign_from"] == "subtotal_plus_tax_equals_total"
    assert validate_invoice(signed, [])["checks"][1]["status"] == "pass"
    for as_printed in (fields("-7,67", "-1,12", "-8,79"), fields("7,67", "1,12", "8,79"),  # adds up already
                       fields("-7,67", "1,00", "-8,79")):  # adds up neither way: left for review
        assert signed_by_the_totals(as_printed) == as_printed


def test_a_letter_a_contract_and_a_receipt_are_not_invoices():
    assert document_type(_page(LETTER)).type == "other"
    prose = ("This Agreement is made between the Parties. Whereas the Parties wish to exchange Confidential "
             "Information, they hereby agree that each Party shall protect it. ") * 16
    words = prose.split()
    contract = _page([[(" ".join(words[i:i + 14]), 40)] for i in range(0, len(words), 14)])
    assert document_type(contract).type == "contract"
    receipt = _page([[("SUPERMART SDN BHD", 40)], [("Cashier: 03", 40)], [("Bread", 40), ("4.50", 300)],
                     [("Milk", 40), ("6.20", 300)], [("TOTAL", 40), ("10.70", 300)], [("CASH", 40), ("20.00", 300)],
                     [("CHANGE", 40), ("9.30", 300)]])
    assert document_type(receipt).type == "receipt"


def test_models_say_which_types_they_read():
    assert model_document_types(["invoice_number", "total", "vendor_name"]) == ("invoice", "credit_note", "receipt")
    assert model_document_types(["party", "jurisdiction", "term"]) == ("contract",)
    assert model_document_types(["question", "answer", "header"]) is None


def test_the_invoice_model_accepts_nothing_on_a_page_that_is_not_an_invoice(tmp_path):
    from pdf_factory import text_lines_pdf

    pdf = tmp_path / "letter.pdf"
    text_lines_pdf(pdf, [" ".join(text for text, _ in row) for row in LETTER] + ["ACME GmbH, Main Street 4, Berlin"],
                   width=595, height=400)
    result = CliRunner().invoke(app, ["run", str(pdf)])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)["documents"][0]
    assert document["document_type"]["type"] == "other"
    assert all(field["status"] == "review" for field in document["fields"].values())
    assert document["validation"]["needs_review"]
    assert document["validation"]["review_reasons"][0].startswith("document type: other")


def test_the_example_invoice_is_an_invoice():
    example = Path(__file__).resolve().parents[2] / "examples" / "invoice.pdf"
    result = CliRunner().invoke(app, ["run", str(example)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["documents"][0]["document_type"]["type"] == "invoice"


def test_a_quotation_an_order_confirmation_and_a_delivery_note_are_no_invoices():
    # they print an invoice's keys and amounts under their own title: a payer books nothing from them
    body = INVOICE[4:]
    for title in ("Quotation", "Angebot Nr. 2024-017", "Devis N° 2024-0456", "Offerte", "Lieferschein",
                  "Order confirmation", "QUOTE #88"):
        rows = [[("ACME Hosting B.V.", 40)], [(title, 40)], [("Bill to", 40)], [("Kunden AG", 40)],
                [("Date:", 40), ("12.03.2024", 200)], *body]
        decided = document_type(_page(rows))
        assert decided.type == "other", title
        assert decided.reasons[0].startswith("title of no invoice")
    # an invoice that names its delivery note as a key, or an invoice title beside a quotation's, stays an invoice
    rows = [*INVOICE[:4], [("Lieferschein-Nr.:", 40), ("4711", 200)], *INVOICE[4:]]
    assert document_type(_page(rows)).type == "invoice"
    rows = [*INVOICE[:2], [("Quotation", 300)], *INVOICE[2:]]
    assert document_type(_page(rows)).type == "invoice"
    # "Bill to" is a party's heading, no invoice's title
    rows = [[("Quotation", 40)], [("Bill to", 40)], [("Kunden AG", 40)], *body]
    assert document_type(_page(rows)).signals["invoice_titles"] == []


def test_nordic_and_portuguese_titles_type_the_invoice_and_their_quotations_other():
    # (one strong key alone, a total, makes an invoice only under a title)
    assert document_type(_page([[("Fjellsport AS", 40)], INVOICE[-1]])).type == "other"
    for title in ("FAKTURA", "Lasku", "Fatura"):
        decided = document_type(_page([[("Fjellsport AS", 40), (title, 420)], INVOICE[-1]]))
        assert decided.type == "invoice", title
        assert decided.signals["invoice_titles"] == [title.lower()]
    for title in ("Tilbud", "Offert", "Orçamento", "Følgeseddel"):
        assert document_type(_page([[("Fjellsport AS", 40)], [(title, 40)], *INVOICE[4:]])).type == "other", title


def test_polish_and_czech_titles_type_the_invoice_the_credit_note_and_their_quotations_other():
    for title in ("Faktura VAT nr FV/2024/04/015", "FAKTURA - DAŇOVÝ DOKLAD č. 2024041", "Vyúčtování služeb - daňový doklad"):
        decided = document_type(_page([[("Drukarnia Wisła Sp. z o.o.", 40)], [(title, 40)], INVOICE[-1]]))
        assert decided.type == "invoice", title
    for title in ("Faktura korygująca nr 3/2024", "Opravný daňový doklad č. 12"):
        assert document_type(_page([[(title, 40)], *INVOICE[2:]])).type == "credit_note", title
    for title in ("Oferta nr 17/2024", "Cenová nabídka", "Dodací list č. 55"):
        assert document_type(_page([[("Drukarnia Wisła Sp. z o.o.", 40)], [(title, 40)], *INVOICE[4:]])).type == "other", title


def test_an_erp_reports_title_that_names_its_module_first_is_an_invoices():
    # Business Central's "Verkauf - Rechnung" over a key column that also keys a delivery note ("Lieferscheinnr.
    # VL-098331"): an invoice, not a delivery note
    rows = [[("Verkauf - Rechnung", 400)], [("Rechnungsnr.", 300), ("VR-103218", 420)],
            [("Lieferscheinnr.", 300), ("VL-098331", 420)], [("Rechnungsdatum: 15.11.2024", 40)],
            [("Summe netto", 300), ("8.534,30", 450)], [("Gesamtbetrag", 300), ("10.155,82", 450)]]
    assert document_type(_page(rows)).type == "invoice"


def test_an_architects_note_dhonoraires_is_an_invoice_whose_title_says_its_number():
    # a French liberal profession's invoice: "NOTE D'HONORAIRES N° NH-2024-07", under a file reference "N/Réf. : 2023-14"
    doc = _page([[("Atelier Vasseur Architecture", 40)], [("N/Réf. : 2023-14 / CV", 40)],
                 [("NOTE D'HONORAIRES N° NH-2024-07", 150)], [("Total honoraires HT", 300), ("4 450,00 €", 480)]])
    decided = document_type(doc)
    assert decided.type == "invoice"
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ("invoice_number", "subtotal"), {}, "fr_FR", 2024)}
    assert found["invoice_number"] == "NH-2024-07" and found["subtotal"].startswith("4 450,00")
