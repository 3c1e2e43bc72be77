"""Locating known invoice values among a page's words: as printed, attributed by their key words."""

from datetime import date
from decimal import Decimal

import pytest
from einvoice_factory import einvoice_pdf

from docextract.extraction.locate import AMBIGUOUS, NOT_PRINTED, amount_forms, date_forms, locate_fields
from docextract.layout import analyze_layout
from docextract.readers import read_document
from docextract.readers.einvoice import PostalAddress


def page(tmp_path, lines):
    return analyze_layout(read_document(einvoice_pdf(tmp_path / "page.pdf", lines, None)))


def texts(doc, location):
    return [" ".join(doc.word(r).text for r in occurrence) for occurrence in location.occurrences]


def test_amount_and_date_surface_forms():
    assert {"1234,56", "1.234,56", "1,234.56", "1 234,56", "1234.56", "1'234.56"} <= amount_forms(Decimal("1234.56"))
    assert amount_forms(Decimal("-8.79")) == amount_forms(Decimal("8.79"))  # credit notes print either sign
    assert "9,9000" in amount_forms(Decimal("9.9000")) and "9,90" in amount_forms(Decimal("9.9000"))
    forms = date_forms(date(2018, 3, 5))
    assert {"05.03.2018", "5.3.2018", "05/03/2018", "03/05/2018", "2018-03-05", "20180305", "5. märz 2018",
            "march 5, 2018", "05.03.18"} <= forms
    assert {"1 octobre 2023", "1er octobre 2023", "october 1, 2023"} <= date_forms(date(2023, 10, 1))


def test_amounts_go_to_the_field_their_key_names(tmp_path):
    doc = page(tmp_path, ["Pos Beschreibung | Betrag", "1 Beratung 1 1.000,00 | 1.000,00",
                          "Nettobetrag | 1.000,00 EUR", "MwSt. 19% | 190,00 EUR", "Gesamtbetrag | 1.190,00 EUR",
                          "Zahlbetrag | 1.190,00 EUR"])
    values = {"subtotal": Decimal("1000.00"), "total_tax": Decimal("190.00"), "total": Decimal("1190.00"),
              "amount_due": Decimal("1190.00"), "currency": "EUR"}
    found = locate_fields(doc, values, line_item_amounts=[Decimal("1000.00")])
    assert texts(doc, found["subtotal"]) == ["1.000,00"] and found["subtotal"].occurrences[0][0].word_index > 8
    assert texts(doc, found["total_tax"]) == ["190,00"]
    rows = {name: doc.word(found[name].occurrences[0][0]).box.top for name in ("total", "amount_due")}
    assert rows["total"] < rows["amount_due"]  # Gesamtbetrag -> total, Zahlbetrag -> amount_due
    assert texts(doc, found["currency"]) == ["EUR"] * 4  # beside each located total


def test_a_total_without_tax_said_w_o_or_without_is_the_subtotal(tmp_path):
    doc = page(tmp_path, ["Total w/o VAT: | €100.00", "VAT | €19.00", "Total: | €119.00"])
    values = {"subtotal": Decimal("100.00"), "total_tax": Decimal("19.00"), "total": Decimal("119.00")}
    found = locate_fields(doc, values)
    assert [texts(doc, found[name]) for name in values] == [["€100.00"], ["€19.00"], ["€119.00"]]
    doc = page(tmp_path, ["Total without tax | 100.00", "Tax | 19.00", "Total | 119.00"])
    assert texts(doc, locate_fields(doc, values)["subtotal"]) == ["100.00"]


def test_a_total_said_exc_or_inc_vat_is_the_subtotal_or_the_total(tmp_path):
    # @rimiti/invoice-it's totals: "Total exc. VAT", "Total VAT", "Total inc. VAT"
    doc = page(tmp_path, ["Total exc. VAT | 599.97", "Total VAT | 30.00", "Total inc. VAT | 629.97"])
    values = {"subtotal": Decimal("599.97"), "total_tax": Decimal("30.00"), "total": Decimal("629.97")}
    found = locate_fields(doc, values)
    assert [texts(doc, found[name]) for name in values] == [["599.97"], ["30.00"], ["629.97"]]
    from docextract.extraction.field_keywords import closing_keys, key_tokens
    assert [closing_keys(key_tokens(key)) for key in ("Total exc. VAT", "Total inc. VAT")] == [
        (frozenset({"subtotal"}), 3), (frozenset({"total"}), 3)]


def test_a_shared_amount_without_its_own_key_goes_to_total_and_a_line_item_amount_needs_a_key(tmp_path):
    doc = page(tmp_path, ["1 Beratung | 250,00", "Summe | 250,00"])
    values = {"subtotal": Decimal("250.00"), "total": Decimal("250.00"), "amount_due": Decimal("250.00")}
    found = locate_fields(doc, values, line_item_amounts=[Decimal("250.00")])
    assert len(found["total"].occurrences) == 1  # "Summe": a weak total key; the line item's 250,00 stays O
    assert found["subtotal"].reason == AMBIGUOUS and found["amount_due"].reason == AMBIGUOUS


def test_dates_by_key_and_in_any_printed_form(tmp_path):
    doc = page(tmp_path, ["Lieferdatum: | 05.03.2018", "Rechnungsdatum: | 5. März 2018",
                          "Fällig am: | March 5, 2018", "Zahlbar innerhalb 14 Tagen, Skonto bis 15.03.2018"])
    found = locate_fields(doc, {"invoice_date": date(2018, 3, 5), "due_date": date(2018, 3, 15)})
    assert texts(doc, found["invoice_date"]) == ["5. März 2018"]  # not the delivery date, not the due date's row
    assert found["due_date"].reason == AMBIGUOUS  # printed only as a discount deadline


def test_ids_names_and_addresses_tolerantly(tmp_path):
    doc = page(tmp_path, ["MUSTER SOFTWARE GMBH", "Hauptstrasse 5", "DE 10115 Berlin", "USt-IdNr.: DE 811 234 567",
                          "Rechnung Nr. 4 71102", "Referenz 2013-471102", "IBAN DE02 1203 0000 0000 2020 51"])
    values = {"vendor_name": "Muster Software GmbH", "vendor_tax_id": "DE811234567", "invoice_number": "471102",
              "iban": "DE02120300000000202051", "vendor_address": PostalAddress(("Hauptstraße 5",), "10115", "Berlin", "DE"),
              "purchase_order": "PO-1"}
    found = locate_fields(doc, values)
    assert texts(doc, found["vendor_name"]) == ["MUSTER SOFTWARE GMBH"]
    assert texts(doc, found["vendor_tax_id"]) == ["DE 811 234 567"]
    assert texts(doc, found["invoice_number"]) == ["4 71102"]  # split by the renderer; not inside 2013-471102
    assert texts(doc, found["iban"]) == ["DE02 1203 0000 0000 2020 51"]
    assert texts(doc, found["vendor_address"]) == ["Hauptstrasse 5 DE 10115 Berlin"]
    assert found["vendor_address"].printed == "Hauptstrasse 5, DE 10115 Berlin"
    assert found["purchase_order"].reason == NOT_PRINTED and not found["purchase_order"].found


@pytest.mark.parametrize("line,printed", [("Total TTC | 1 234,56 €", "1 234,56"), ("Amount due | $1,234.56", "$1,234.56"),
                                          ("Gutschrift Gesamtbetrag | -1.234,56 EUR", "-1.234,56")])
def test_number_formats(tmp_path, line, printed):
    doc = page(tmp_path, [line])
    found = locate_fields(doc, {"total": Decimal("1234.56")})
    assert texts(doc, found["total"]) == [printed]
