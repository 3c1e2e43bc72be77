"""Small e-invoices for the tests: a page of text (fpdf2) with an invoice XML embedded as an attachment.

The XML is written here from the values given, in the CII (Factur-X / ZUGFeRD 2) or UBL syntax, so a
test can print one thing on the page and state another in the XML.
"""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

CII_HEAD = ('<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" '
            'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" '
            'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">')


def cii_xml(*, number="RE-2024-0042", issued="20240305", due="", seller="Muster Software GmbH",
            seller_street="Hauptstraße 5", seller_postcode="10115", seller_city="Berlin", vat_id="DE811234567",
            buyer="Kunde AG", buyer_street="Marktplatz 1", buyer_postcode="80331", buyer_city="München",
            currency="EUR", net="1000.00", tax="190.00", total="1190.00", due_payable="1190.00",
            iban="", order="", terms="", lines=(("Beratung", "1", "1000.00", "1000.00"),),
            line_total: str | None = None) -> bytes:
    items = "".join(
        f"<ram:IncludedSupplyChainTradeLineItem><ram:SpecifiedTradeProduct><ram:Name>{d}</ram:Name>"
        f"</ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice>"
        f"<ram:ChargeAmount>{p}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>"
        f"<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode=\"C62\">{q}</ram:BilledQuantity>"
        f"</ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement>"
        f"<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>{a}</ram:LineTotalAmount>"
        f"</ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>"
        f"</ram:IncludedSupplyChainTradeLineItem>" for d, q, p, a in lines)
    order_xml = (f"<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>{order}</ram:IssuerAssignedID>"
                 f"</ram:BuyerOrderReferencedDocument>") if order else ""
    due_xml = (f"<ram:DueDateDateTime><udt:DateTimeString format=\"102\">{due}</udt:DateTimeString>"
               f"</ram:DueDateDateTime>") if due else ""
    terms_xml = (f"<ram:SpecifiedTradePaymentTerms>{f'<ram:Description>{terms}</ram:Description>' if terms else ''}"
                 f"{due_xml}</ram:SpecifiedTradePaymentTerms>") if (terms or due) else ""
    iban_xml = (f"<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode>"
                f"<ram:PayeePartyCreditorFinancialAccount><ram:IBANID>{iban}</ram:IBANID>"
                f"</ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>") if iban else ""
    xml = (
        f'<?xml version="1.0" encoding="UTF-8"?>{CII_HEAD}'
        f"<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017"
        f"</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>"
        f"<rsm:ExchangedDocument><ram:ID>{number}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime>"
        f'<udt:DateTimeString format="102">{issued}</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>'
        f"<rsm:SupplyChainTradeTransaction>{items}<ram:ApplicableHeaderTradeAgreement>"
        f"<ram:SellerTradeParty><ram:Name>{seller}</ram:Name><ram:PostalTradeAddress>"
        f"<ram:PostcodeCode>{seller_postcode}</ram:PostcodeCode><ram:LineOne>{seller_street}</ram:LineOne>"
        f"<ram:CityName>{seller_city}</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>"
        f'<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">{vat_id}</ram:ID></ram:SpecifiedTaxRegistration>'
        f"</ram:SellerTradeParty><ram:BuyerTradeParty><ram:Name>{buyer}</ram:Name><ram:PostalTradeAddress>"
        f"<ram:PostcodeCode>{buyer_postcode}</ram:PostcodeCode><ram:LineOne>{buyer_street}</ram:LineOne>"
        f"<ram:CityName>{buyer_city}</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>"
        f"</ram:BuyerTradeParty>{order_xml}</ram:ApplicableHeaderTradeAgreement><ram:ApplicableHeaderTradeDelivery/>"
        f"<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>{currency}</ram:InvoiceCurrencyCode>"
        f"{iban_xml}{terms_xml}<ram:SpecifiedTradeSettlementHeaderMonetarySummation>"
        f"<ram:LineTotalAmount>{line_total or net}</ram:LineTotalAmount><ram:TaxBasisTotalAmount>{net}</ram:TaxBasisTotalAmount>"
        f'<ram:TaxTotalAmount currencyID="{currency}">{tax}</ram:TaxTotalAmount>'
        f"<ram:GrandTotalAmount>{total}</ram:GrandTotalAmount><ram:DuePayableAmount>{due_payable}</ram:DuePayableAmount>"
        f"</ram:SpecifiedTradeSettlementHeaderMonetarySummation></ram:ApplicableHeaderTradeSettlement>"
        f"</rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>"
    )
    return xml.encode("utf-8")


def ubl_xml(*, credit_note: bool = False) -> bytes:
    """A small UBL 2.1 invoice (or credit note) with every field the reader takes."""
    root = "CreditNote" if credit_note else "Invoice"
    line = "CreditNoteLine" if credit_note else "InvoiceLine"
    quantity = "CreditedQuantity" if credit_note else "InvoicedQuantity"
    type_code = "<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>" if credit_note else "<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>"
    due = "" if credit_note else "<cbc:DueDate>2024-04-04</cbc:DueDate>"
    payment_due = "<cbc:PaymentDueDate>2024-04-04</cbc:PaymentDueDate>" if credit_note else ""
    xml = f"""<?xml version="1.0" encoding="UTF-8"?>
<{root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:{root}-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
  <cbc:ID>UBL-7</cbc:ID>
  <cbc:IssueDate>2024-03-05</cbc:IssueDate>
  {due}{type_code}
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:OrderReference><cbc:ID>PO-99</cbc:ID></cac:OrderReference>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PartyName><cbc:Name>Trading Name</cbc:Name></cac:PartyName>
    <cac:PostalAddress><cbc:StreetName>Hauptstraße 5</cbc:StreetName><cbc:CityName>Berlin</cbc:CityName>
      <cbc:PostalZone>10115</cbc:PostalZone><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country>
    </cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>DE 811 234 567</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Muster Software GmbH</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cac:PostalAddress><cbc:StreetName>Marktplatz 1</cbc:StreetName><cbc:CityName>München</cbc:CityName>
      <cbc:PostalZone>80331</cbc:PostalZone><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country>
    </cac:PostalAddress>
    <cac:PartyLegalEntity><cbc:RegistrationName>Kunde AG</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>{payment_due}
    <cac:PayeeFinancialAccount><cbc:ID>DE02 1203 0000 0000 2020 51</cbc:ID>
      <cac:FinancialInstitutionBranch><cbc:ID>BYLADEM1001</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount>
  </cac:PaymentMeans>
  <cac:PaymentTerms><cbc:Note>Zahlbar innerhalb 30 Tagen</cbc:Note></cac:PaymentTerms>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">190.00</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">1000.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">1000.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">1190.00</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">1190.00</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  <cac:{line}><cbc:ID>1</cbc:ID><cbc:{quantity} unitCode="HUR">8</cbc:{quantity}>
    <cbc:LineExtensionAmount currencyID="EUR">1000.00</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Beratung</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">125.00</cbc:PriceAmount></cac:Price>
  </cac:{line}>
</{root}>"""
    return xml.encode("utf-8")


def einvoice_pdf(path: Path, lines: list[str], xml: bytes | None, *, name: str = "factur-x.xml",
                 width: float = 595, height: float = 842) -> Path:
    """A one-page PDF printing ``lines`` (left column; a line may be "KEY | VALUE" to print the value at
    x = 300, a key/value table), with ``xml`` attached as ``name`` (no attachment when None)."""
    pdf = FPDF(unit="pt", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.core_fonts_encoding = "cp1252"  # WinAnsi, as the core fonts are declared: prints the euro sign
    pdf.set_font("Helvetica", size=10)
    pdf.add_page()
    for i, line in enumerate(lines):
        key, sep, value = line.partition(" | ")
        baseline = 60 + 16 * i
        pdf.text(40, baseline, key)
        if sep:
            pdf.text(300, baseline, value)
    if xml is not None:
        pdf.embed_file(bytes=xml, basename=name, mime_type="text/xml")
    pdf.output(str(path))
    return path


# What the standard test invoice prints: the XML's values in German formats, with distractors (a delivery
# date on the invoice day, a line item whose amount equals the net total, the total again as amount due).
PRINTED_INVOICE = [
    "Muster Software GmbH",
    "Hauptstraße 5",
    "10115 Berlin",
    "USt-IdNr.: DE 811 234 567",
    "Kunde AG",
    "Marktplatz 1",
    "80331 München",
    "Rechnung Nr. | RE-2024-0042",
    "Rechnungsdatum: | 5. März 2024",
    "Lieferdatum: | 05.03.2024",
    "Pos Beschreibung Menge Preis | Betrag",
    "1 Beratung 1 1.000,00 | 1.000,00",
    "Nettobetrag | 1.000,00 EUR",
    "MwSt. 19% | 190,00 EUR",
    "Gesamtbetrag | 1.190,00 EUR",
    "Zahlbetrag | 1.190,00 EUR",
    "Seite 1 von 1",
]
