"""The invoice an e-invoice PDF embeds: found among its attachments and read from CII, ZUGFeRD 1 and UBL."""

from datetime import date
from decimal import Decimal

import pytest
from einvoice_factory import cii_xml, einvoice_pdf, ubl_xml

from docextract.errors import InputError
from docextract.readers.einvoice import parse_invoice_xml, read_embedded_invoice

FX = ("einvoices", "XML-Rechnung", "FX")


def test_cii_factur_x_from_a_real_e_invoice(shared_data):
    invoice = read_embedded_invoice(shared_data(*FX, "EN16931_Einfach.pdf"))
    assert (invoice.attachment, invoice.syntax, invoice.type_code) == ("factur-x.xml", "CII", "380")
    assert invoice.profile == "urn:cen.eu:en16931:2017"
    assert (invoice.invoice_number, invoice.invoice_date, invoice.due_date) == ("471102", date(2018, 3, 5), None)
    assert (invoice.vendor_name, invoice.customer_name, invoice.vendor_tax_id) == ("Lieferant GmbH", "Kunden AG Mitte", "DE123456789")
    assert invoice.vendor_address.printed_lines() == ("Lieferantenstraße 20", "80333 München")
    assert invoice.vendor_address.country == "DE"
    assert (invoice.subtotal, invoice.total_tax, invoice.total, invoice.amount_due) == (
        Decimal("473.00"), Decimal("56.87"), Decimal("529.87"), Decimal("529.87"))
    assert invoice.currency == "EUR"
    assert invoice.payment_terms.startswith("Zahlbar innerhalb 30 Tagen netto bis 04.04.2018")
    assert [(i.description, i.quantity, i.unit_price, i.amount) for i in invoice.line_items] == [
        ("Trennblätter A4", Decimal("20.0000"), Decimal("9.9000"), Decimal("198.00")),
        ("Joghurt Banane", Decimal("50.0000"), Decimal("5.5000"), Decimal("275.00"))]
    fields = invoice.normalized_fields()
    assert fields["invoice_date"] == "2018-03-05" and fields["total"] == "529.87"
    assert "due_date" not in fields and "iban" not in fields  # what the XML does not state is absent


def test_zugferd_1_cross_industry_document(shared_data):
    invoice = read_embedded_invoice(shared_data("einvoices", "ZUGFeRDv1", "correct", "Intarsys", "ZUGFeRD_1p0_COMFORT_Einfach.pdf"))
    assert (invoice.attachment, invoice.syntax) == ("ZUGFeRD-invoice.xml", "ZUGFeRD1")
    assert (invoice.invoice_number, invoice.invoice_date, invoice.due_date) == ("471102", date(2013, 3, 5), date(2013, 4, 4))
    assert (invoice.iban, invoice.bic, invoice.currency) == ("DE08700901001234567890", "GENODEF1M04", "EUR")
    assert (invoice.total, invoice.amount_due, invoice.total_tax) == (Decimal("529.87"), Decimal("529.87"), Decimal("56.87"))
    assert len(invoice.line_items) == 2 and invoice.line_items[0].amount == Decimal("198.00")


def test_xrechnung_attachment_and_a_credit_note_in_cii(shared_data):
    xr = read_embedded_invoice(shared_data(*FX, "XRECHNUNG_Einfach.pdf"))
    assert xr.attachment == "xrechnung.xml" and xr.invoice_number == "471102"
    credit = read_embedded_invoice(shared_data(*FX, "EN16931_Rechnungskorrektur.pdf"))
    assert credit.type_code == "384" and credit.total == Decimal("-8.79")


@pytest.mark.parametrize("credit_note", [False, True])
def test_ubl_invoice_and_credit_note(tmp_path, credit_note):
    pdf = einvoice_pdf(tmp_path / "ubl.pdf", ["Rechnung UBL-7"], ubl_xml(credit_note=credit_note), name="xrechnung.xml")
    invoice = read_embedded_invoice(pdf)
    assert invoice.syntax == "UBL" and invoice.type_code == ("381" if credit_note else "380")
    assert (invoice.invoice_number, invoice.invoice_date, invoice.due_date) == ("UBL-7", date(2024, 3, 5), date(2024, 4, 4))
    assert (invoice.vendor_name, invoice.vendor_tax_id, invoice.customer_name) == ("Muster Software GmbH", "DE811234567", "Kunde AG")
    assert invoice.billing_address.printed_lines() == ("Marktplatz 1", "80331 München")
    assert (invoice.subtotal, invoice.total_tax, invoice.total, invoice.amount_due) == (
        Decimal("1000.00"), Decimal("190.00"), Decimal("1190.00"), Decimal("1190.00"))
    assert (invoice.iban, invoice.bic, invoice.purchase_order, invoice.payment_terms) == (
        "DE02120300000000202051", "BYLADEM1001", "PO-99", "Zahlbar innerhalb 30 Tagen")
    assert [(i.description, i.quantity, i.unit_price, i.amount) for i in invoice.line_items] == [
        ("Beratung", Decimal("8"), Decimal("125.00"), Decimal("1000.00"))]


def test_an_xml_attachment_under_another_name_is_found_by_its_root(tmp_path):
    pdf = einvoice_pdf(tmp_path / "a.pdf", ["Rechnung"], cii_xml(), name="rechnung-2024.xml")
    assert read_embedded_invoice(pdf).invoice_number == "RE-2024-0042"
    other = einvoice_pdf(tmp_path / "b.pdf", ["Rechnung"], b"<catalog><item/></catalog>", name="catalog.xml")
    assert read_embedded_invoice(other) is None  # an XML attachment that is no invoice


def test_no_attachment_gives_none(tmp_path):
    assert read_embedded_invoice(einvoice_pdf(tmp_path / "plain.pdf", ["Rechnung Nr. 1"], None)) is None


def test_broken_xml_is_one_line_naming_file_and_problem(tmp_path):
    pdf = einvoice_pdf(tmp_path / "broken.pdf", ["Rechnung"], cii_xml()[:-40])
    with pytest.raises(InputError) as caught:
        read_embedded_invoice(pdf)
    line = caught.value.one_line()
    assert "\n" not in line and str(pdf) in line and "factur-x.xml" in line and "not well-formed" in line


def test_entity_declarations_are_refused_before_parsing():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
            b'<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">'
            b'&lol2;</rsm:CrossIndustryInvoice>')
    with pytest.raises(InputError, match="document type"):
        parse_invoice_xml(bomb, "factur-x.xml")
    with pytest.raises(InputError, match="not a CII, ZUGFeRD 1 or UBL invoice"):
        parse_invoice_xml(b"<order/>", "factur-x.xml")
