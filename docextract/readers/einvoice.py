"""The invoice a PDF carries as an embedded XML file (ZUGFeRD, Factur-X, XRechnung, PDF/A-3 e-invoices).

An e-invoice is a PDF whose attachments include the invoice as structured data, in one of three syntaxes:

* UN/CEFACT Cross Industry Invoice (``rsm:CrossIndustryInvoice``): ZUGFeRD 2.x, Factur-X, XRechnung CII;
* ZUGFeRD 1.0's older Cross Industry Document (``rsm:CrossIndustryDocument``);
* OASIS UBL 2.1 ``Invoice`` and ``CreditNote`` (XRechnung UBL, Peppol).

:func:`read_embedded_invoice` finds the invoice attachment (``factur-x.xml``, ``zugferd-invoice.xml``,
``ZUGFeRD-invoice.xml``, ``xrechnung.xml``, or any ``.xml`` attachment whose root element is one of the three)
with pypdfium2 and parses it with the standard library's ElementTree into one :class:`EmbeddedInvoice`
whose fields use the invoice model's vocabulary (``docextract/vocabulary.py``), typed: ``datetime.date``,
``Decimal`` amounts, ISO 4217 currency codes. The XML may state more than the page prints; where it is
printed is for :mod:`docextract.extraction.locate` to find.

Untrusted XML: a document type declaration is refused outright (an invoice never needs one), so neither
entity expansion nor external entities can happen; expat would refuse expansion bombs anyway.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable

from docextract.errors import InputError
from docextract.readers.source import Source
from docextract.vocabulary import DOCUMENT_LABELS

KNOWN_NAMES = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml")
MAX_XML_BYTES = 50 * 1024 * 1024  # XRechnung files with base64 attachments inside reach a few MB

CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
ZF1_NS = "urn:ferd:CrossIndustryDocument:invoice:1p0"
UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
ROOTS = {
    f"{{{CII_NS}}}CrossIndustryInvoice": "CII",
    f"{{{ZF1_NS}}}CrossIndustryDocument": "ZUGFeRD1",
    f"{{{UBL_INVOICE_NS}}}Invoice": "UBL",
    f"{{{UBL_CREDIT_NOTE_NS}}}CreditNote": "UBL",
}
_RAM = {  # the reusable aggregate namespace of each CII generation (ZUGFeRD 1 uses version 12)
    "CII": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "ZUGFeRD1": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12",
}
_UBL_CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
_UBL_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_DOCTYPE = re.compile(rb"<!DOCTYPE|<!ENTITY", re.IGNORECASE)


@dataclass(frozen=True)
class PostalAddress:
    """A party's address as the XML states it: street lines, postcode, city, ISO 3166 country code."""

    lines: tuple[str, ...] = ()
    postcode: str = ""
    city: str = ""
    country: str = ""

    def printed_lines(self) -> tuple[str, ...]:
        """The lines an invoice usually prints: the street lines, then ``postcode city`` (no country)."""
        place = " ".join(p for p in (self.postcode, self.city) if p)
        return tuple(line for line in (*self.lines, place) if line)

    def __bool__(self) -> bool:
        return bool(self.printed_lines())


@dataclass(frozen=True)
class InvoiceLine:
    description: str = ""
    quantity: Decimal | None = None
    unit_price: Decimal | None = None  # net price per unit
    amount: Decimal | None = None  # the line's net total
    parent: str = ""  # a sub-line's parent line id (CII EXTENDED's ParentLineID): its amount is in its parent's

    def to_dict(self) -> dict[str, str | None]:
        return {"description": self.description,
                **{k: None if v is None else str(v) for k, v in
                   (("quantity", self.quantity), ("unit_price", self.unit_price), ("amount", self.amount))},
                **({"parent": self.parent} if self.parent else {})}


@dataclass(frozen=True)
class EmbeddedInvoice:
    """One embedded invoice in the invoice model's field vocabulary; absent values are None (or empty).

    ``subtotal`` is the tax basis (net total after document-level allowances and charges; what
    ``subtotal + total_tax = total`` uses); ``line_total`` the sum of the line items' net amounts (equal to
    it unless the invoice has document-level allowances or charges). ``amount_due`` is what is left to pay
    (the total minus prepaid amounts). ``vendor_tax_id`` is the seller's VAT id, else its tax number.
    """

    attachment: str  # the attachment's file name
    syntax: str  # "CII", "ZUGFeRD1" or "UBL"
    profile: str = ""  # the guideline / customization id (e.g. urn:cen.eu:en16931:2017)
    type_code: str = ""  # UNTDID 1001: 380 invoice, 381 credit note, 384 corrected invoice, 875-877 partial ...
    invoice_number: str = ""
    invoice_date: date | None = None
    due_date: date | None = None
    purchase_order: str = ""
    vendor_name: str = ""
    vendor_address: PostalAddress = field(default_factory=PostalAddress)
    vendor_tax_id: str = ""
    customer_name: str = ""
    billing_address: PostalAddress = field(default_factory=PostalAddress)
    shipping_address: PostalAddress = field(default_factory=PostalAddress)  # the ship-to party's, when stated
    line_total: Decimal | None = None
    subtotal: Decimal | None = None
    total_tax: Decimal | None = None
    total: Decimal | None = None
    amount_due: Decimal | None = None
    currency: str = ""
    payment_terms: str = ""
    iban: str = ""
    bic: str = ""
    line_items: tuple[InvoiceLine, ...] = ()

    def field_values(self) -> dict[str, Any]:
        """Field name -> typed value (str, date, Decimal, or PostalAddress), only the fields the XML states."""
        values = {name: getattr(self, name) for name in (*DOCUMENT_LABELS, "bic")}
        return {name: value for name, value in values.items()
                if value is not None and value != "" and not (isinstance(value, PostalAddress) and not value)}

    def normalized_fields(self) -> dict[str, str]:
        """Field name -> the normalised string ``docextract synth`` writes (ISO dates, decimal amounts, codes)."""
        return {name: normalized_text(value) for name, value in self.field_values().items()}

    def line_item_amounts(self) -> set[Decimal]:
        """Every amount printed in the line items (net amounts and unit prices), as absolute values."""
        return {abs(v) for item in self.line_items for v in (item.amount, item.unit_price) if v is not None}

    def summary(self) -> dict[str, Any]:
        """What the output reports about the XML itself (``documents[].embedded_invoice``)."""
        return {"attachment": self.attachment, "syntax": self.syntax, "profile": self.profile,
                "type_code": self.type_code, "line_items": [item.to_dict() for item in self.line_items],
                "line_total": None if self.line_total is None else normalized_text(self.line_total)}


def normalized_text(value: Any) -> str:
    """A typed field value as the labelled data and the output write it."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):  # two decimals at least, as parse_amount writes a printed amount
        return f"{value:.2f}" if value == value.quantize(Decimal("0.01")) else str(value)
    if isinstance(value, PostalAddress):
        return ", ".join(value.printed_lines())
    return str(value)


# ---------------------------------------------------------------- finding the attachment


def read_embedded_invoice(path: str | Path | Source, password: str | None = None) -> EmbeddedInvoice | None:
    """The invoice embedded in the PDF at ``path`` (or in a :class:`Source`'s bytes), or None when it carries none.

    A PDF whose invoice attachment is not well-formed XML raises :class:`InputError` naming the file and
    the problem. A file pypdfium2 cannot open gives None (reading its pages reports that problem).
    """
    pdf = Source.of(path)
    found = invoice_attachment(pdf, password)
    if found is None:
        return None
    name, data = found
    return parse_invoice_xml(data, name, path=pdf.name)


def invoice_attachment(path: str | Path | Source, password: str | None = None) -> tuple[str, bytes] | None:
    """``(name, bytes)`` of the PDF's invoice attachment: a known name first, else any XML attachment whose
    root is an invoice syntax docextract reads."""
    import pypdfium2 as pdfium

    source = Source.of(path)
    try:
        pdf = pdfium.PdfDocument(source.for_pdfium(), password=password)
    except (pdfium.PdfiumError, OSError):
        return None
    try:
        attachments = []
        for index in range(pdf.count_attachments()):
            attachment = pdf.get_attachment(index)
            name = attachment.get_name() or ""
            if name.lower().endswith(".xml"):
                attachments.append((name, attachment))
        if not attachments:
            return None
        attachments.sort(key=lambda item: item[0].lower() not in KNOWN_NAMES)  # known names first, stable
        for name, attachment in attachments:
            try:
                data = bytes(attachment.get_data())
            except pdfium.PdfiumError as exc:
                if name.lower() in KNOWN_NAMES:
                    raise InputError(f"embedded invoice {name} cannot be read ({exc})", path=source.name,
                                     stage="embedded") from None
                continue
            if name.lower() in KNOWN_NAMES or _root_syntax(data) is not None:
                return name, data
        return None
    finally:
        pdf.close()


def _root_syntax(data: bytes) -> str | None:
    """The invoice syntax of an XML file's root element, None when it is no invoice (or no XML)."""
    import xml.etree.ElementTree as ET

    if _DOCTYPE.search(data[:4096]):
        return None
    try:
        for _, element in ET.iterparse(io.BytesIO(data), events=("start",)):
            return ROOTS.get(element.tag)
    except ET.ParseError:
        return None
    return None


# ---------------------------------------------------------------- parsing


def parse_invoice_xml(data: bytes, name: str = "invoice.xml", *, path: str | None = None) -> EmbeddedInvoice:
    """Parse CII, ZUGFeRD 1 or UBL invoice XML. Malformed XML, a document type declaration or an unknown
    root element raise :class:`InputError` (``path`` names the PDF, ``name`` the attachment)."""
    import xml.etree.ElementTree as ET

    where = path or name
    if len(data) > MAX_XML_BYTES:
        raise InputError(f"embedded invoice {name} is larger than {MAX_XML_BYTES // (1024 * 1024)} MB", path=where,
                         code="RESOURCE_LIMIT", stage="embedded")
    if _DOCTYPE.search(data):
        raise InputError(f"embedded invoice {name} declares a document type or entities (refused: an invoice needs "
                         "none, and entities can expand without bound)", path=where, stage="embedded")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise InputError(f"embedded invoice {name} is not well-formed XML ({exc})", path=where,
                         stage="embedded") from None
    syntax = ROOTS.get(root.tag)
    if syntax is None:
        raise InputError(f"embedded invoice {name} has root element {_local(root.tag)!r}, not a CII, ZUGFeRD 1 or "
                         "UBL invoice", path=where, stage="embedded")
    if syntax == "UBL":
        return _parse_ubl(root, name)
    return _parse_cii(root, name, syntax)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _text(element) -> str:
    return " ".join((element.text or "").split()) if element is not None else ""


def _multiline(element) -> str:
    """Text keeping its line breaks (payment terms), each line's spaces collapsed."""
    if element is None or not element.text:
        return ""
    lines = [" ".join(line.split()) for line in element.text.splitlines()]
    return "\n".join(line for line in lines if line)


def _decimal(element) -> Decimal | None:
    text = _text(element)
    try:
        return Decimal(text) if text else None
    except InvalidOperation:
        return None  # a value the XML gets wrong is treated as absent, not as a broken file


def _date_102(element) -> date | None:
    """A CII date: ``DateTimeString format="102"`` (YYYYMMDD); other formats (months, weeks) give None."""
    if element is None:
        return None
    text = _text(element)
    fmt = element.get("format", "102")
    if fmt == "102" and re.fullmatch(r"\d{8}", text):
        try:
            return date(int(text[:4]), int(text[4:6]), int(text[6:]))
        except ValueError:
            return None
    return _iso_date(text)


def _iso_date(text: str) -> date | None:
    match = re.match(r"^(\d{4})-(\d{2})-(\d{2})", text.strip())
    if not match:
        return None
    try:
        return date(*map(int, match.groups()))
    except ValueError:
        return None


def _currency(text: str) -> str:
    text = text.strip().upper()
    return text if _CURRENCY.match(text) else ""


def _compact_id(text: str) -> str:
    return "".join(text.split()).upper()


def _in_currency(elements: list, currency: str) -> Any:
    """The element whose currencyID is the invoice currency (a tax total may be stated twice), else the first."""
    for element in elements:
        if element.get("currencyID") in (None, "", currency):
            return element
    return elements[0] if elements else None


def _parse_cii(root, name: str, syntax: str) -> EmbeddedInvoice:
    ns = {"rsm": CII_NS if syntax == "CII" else ZF1_NS, "ram": _RAM[syntax]}
    v1 = syntax == "ZUGFeRD1"
    find: Callable[[str], Any] = lambda p, base=root: base.find(p, ns)  # noqa: E731
    header = "rsm:HeaderExchangedDocument" if v1 else "rsm:ExchangedDocument"
    context = "rsm:SpecifiedExchangedDocumentContext" if v1 else "rsm:ExchangedDocumentContext"
    transaction = find("rsm:SpecifiedSupplyChainTradeTransaction" if v1 else "rsm:SupplyChainTradeTransaction")
    if transaction is None:
        transaction = root  # an empty invoice: every value absent
    agreement = transaction.find("ram:ApplicableSupplyChainTradeAgreement" if v1 else "ram:ApplicableHeaderTradeAgreement", ns)
    settlement = transaction.find("ram:ApplicableSupplyChainTradeSettlement" if v1 else "ram:ApplicableHeaderTradeSettlement", ns)
    ship_to = transaction.find(("ram:ApplicableSupplyChainTradeDelivery" if v1 else "ram:ApplicableHeaderTradeDelivery")
                               + "/ram:ShipToTradeParty", ns)
    summation_path = ("ram:SpecifiedTradeSettlementMonetarySummation" if v1
                      else "ram:SpecifiedTradeSettlementHeaderMonetarySummation")
    empty = root.makeelement("empty", {})
    agreement = agreement if agreement is not None else empty
    settlement = settlement if settlement is not None else empty
    summation = settlement.find(summation_path, ns)
    summation = summation if summation is not None else empty
    currency = _currency(_text(settlement.find("ram:InvoiceCurrencyCode", ns)))

    def amount(tag: str) -> Decimal | None:
        return _decimal(_in_currency(summation.findall(f"ram:{tag}", ns), currency))

    seller = agreement.find("ram:SellerTradeParty", ns)
    buyer = agreement.find("ram:BuyerTradeParty", ns)
    terms = settlement.findall("ram:SpecifiedTradePaymentTerms", ns)
    due = next((d for d in (_child_date(t.find("ram:DueDateDateTime", ns)) for t in terms) if d), None)
    iban, bic = "", ""
    for means in settlement.findall("ram:SpecifiedTradeSettlementPaymentMeans", ns):
        iban = iban or _compact_id(_text(means.find("ram:PayeePartyCreditorFinancialAccount/ram:IBANID", ns)))
        bic = bic or _compact_id(_text(means.find("ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID", ns)))
    order = agreement.find("ram:BuyerOrderReferencedDocument/" + ("ram:ID" if v1 else "ram:IssuerAssignedID"), ns)
    issue = find(f"{header}/ram:IssueDateTime")
    return EmbeddedInvoice(
        attachment=name, syntax=syntax,
        profile=_text(find(f"{context}/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID")),
        type_code=_text(find(f"{header}/ram:TypeCode")),
        invoice_number=_text(find(f"{header}/ram:ID")),
        invoice_date=_child_date(issue),
        due_date=due,
        purchase_order=_text(order),
        vendor_name=_text(seller.find("ram:Name", ns)) if seller is not None else "",
        vendor_address=_cii_address(seller, ns),
        vendor_tax_id=_cii_tax_id(seller, ns),
        customer_name=_text(buyer.find("ram:Name", ns)) if buyer is not None else "",
        billing_address=_cii_address(buyer, ns),
        shipping_address=_cii_address(ship_to, ns),
        line_total=amount("LineTotalAmount"),
        subtotal=amount("TaxBasisTotalAmount"),
        total_tax=amount("TaxTotalAmount"),
        total=amount("GrandTotalAmount"),
        amount_due=amount("DuePayableAmount"),
        currency=currency,
        payment_terms="\n".join(t for t in (_multiline(term.find("ram:Description", ns)) for term in terms) if t),
        iban=iban, bic=bic,
        line_items=tuple(_cii_line(item, ns, v1) for item in transaction.findall("ram:IncludedSupplyChainTradeLineItem", ns)),
    )


def _child_date(element) -> date | None:
    """The date inside a CII ``...DateTime`` element (its one ``udt:DateTimeString`` child)."""
    return _date_102(element[0]) if element is not None and len(element) else None


def _cii_address(party, ns: dict[str, str]) -> PostalAddress:
    address = party.find("ram:PostalTradeAddress", ns) if party is not None else None
    if address is None:
        return PostalAddress()
    lines = tuple(t for t in (_text(address.find(f"ram:{tag}", ns)) for tag in ("LineOne", "LineTwo", "LineThree")) if t)
    return PostalAddress(lines, _text(address.find("ram:PostcodeCode", ns)), _text(address.find("ram:CityName", ns)),
                         _text(address.find("ram:CountryID", ns)))


def _cii_tax_id(party, ns: dict[str, str]) -> str:
    """The party's VAT id (scheme VA), else its tax number (scheme FC)."""
    if party is None:
        return ""
    ids = {element.get("schemeID", ""): _text(element) for element in party.findall("ram:SpecifiedTaxRegistration/ram:ID", ns)}
    return _compact_id(ids.get("VA") or "") or (ids.get("FC") or "").strip()


def _cii_line(item, ns: dict[str, str], v1: bool) -> InvoiceLine:
    agreement = item.find("ram:SpecifiedSupplyChainTradeAgreement" if v1 else "ram:SpecifiedLineTradeAgreement", ns)
    delivery = item.find("ram:SpecifiedSupplyChainTradeDelivery" if v1 else "ram:SpecifiedLineTradeDelivery", ns)
    settlement = item.find("ram:SpecifiedSupplyChainTradeSettlement" if v1 else "ram:SpecifiedLineTradeSettlement", ns)
    summation = "ram:SpecifiedTradeSettlementMonetarySummation" if v1 else "ram:SpecifiedTradeSettlementLineMonetarySummation"
    return InvoiceLine(
        description=_text(item.find("ram:SpecifiedTradeProduct/ram:Name", ns)),
        quantity=_decimal(delivery.find("ram:BilledQuantity", ns)) if delivery is not None else None,
        unit_price=(_decimal(agreement.find("ram:NetPriceProductTradePrice/ram:ChargeAmount", ns))
                    if agreement is not None else None),
        amount=_decimal(settlement.find(f"{summation}/ram:LineTotalAmount", ns)) if settlement is not None else None,
        parent=_text(item.find("ram:AssociatedDocumentLineDocument/ram:ParentLineID", ns)),
    )


def _parse_ubl(root, name: str) -> EmbeddedInvoice:
    credit_note = _local(root.tag) == "CreditNote"
    ns = {"cac": _UBL_CAC, "cbc": _UBL_CBC}
    find: Callable[[str], Any] = lambda p, base=root: base.find(p, ns)  # noqa: E731
    currency = _currency(_text(find("cbc:DocumentCurrencyCode")))
    totals = find("cac:LegalMonetaryTotal")

    def total(tag: str) -> Decimal | None:
        return _decimal(totals.find(f"cbc:{tag}", ns)) if totals is not None else None

    tax_amounts = [t.find("cbc:TaxAmount", ns) for t in root.findall("cac:TaxTotal", ns)]
    means = root.findall("cac:PaymentMeans", ns)
    due = _iso_date(_text(find("cbc:DueDate")))
    if due is None:  # a UBL credit note states its due date on the payment means
        due = next((d for d in (_iso_date(_text(m.find("cbc:PaymentDueDate", ns))) for m in means) if d), None)
    seller, buyer = find("cac:AccountingSupplierParty/cac:Party"), find("cac:AccountingCustomerParty/cac:Party")
    lines = root.findall("cac:CreditNoteLine" if credit_note else "cac:InvoiceLine", ns)
    quantity_tag = "cbc:CreditedQuantity" if credit_note else "cbc:InvoicedQuantity"
    return EmbeddedInvoice(
        attachment=name, syntax="UBL",
        profile=_text(find("cbc:CustomizationID")),
        type_code=_text(find("cbc:CreditNoteTypeCode" if credit_note else "cbc:InvoiceTypeCode")) or ("381" if credit_note else "380"),
        invoice_number=_text(find("cbc:ID")),
        invoice_date=_iso_date(_text(find("cbc:IssueDate"))),
        due_date=due,
        purchase_order=_text(find("cac:OrderReference/cbc:ID")),
        vendor_name=_ubl_party_name(seller, ns),
        vendor_address=_ubl_address(seller, ns),
        vendor_tax_id=_compact_id(_text(seller.find("cac:PartyTaxScheme/cbc:CompanyID", ns))) if seller is not None else "",
        customer_name=_ubl_party_name(buyer, ns),
        billing_address=_ubl_address(buyer, ns),
        shipping_address=_ubl_address(find("cac:Delivery/cac:DeliveryLocation"), ns, "cac:Address"),
        line_total=total("LineExtensionAmount"),
        subtotal=total("TaxExclusiveAmount"),
        total_tax=_decimal(_in_currency([t for t in tax_amounts if t is not None], currency)),
        total=total("TaxInclusiveAmount"),
        amount_due=total("PayableAmount"),
        currency=currency,
        payment_terms="\n".join(t for t in (_multiline(n) for n in root.findall("cac:PaymentTerms/cbc:Note", ns)) if t),
        iban=next((i for i in (_compact_id(_text(m.find("cac:PayeeFinancialAccount/cbc:ID", ns))) for m in means) if i), ""),
        bic=next((b for b in (_compact_id(_text(m.find("cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID", ns)))
                              for m in means) if b), ""),
        line_items=tuple(InvoiceLine(
            description=_text(line.find("cac:Item/cbc:Name", ns)),
            quantity=_decimal(line.find(quantity_tag, ns)),
            unit_price=_decimal(line.find("cac:Price/cbc:PriceAmount", ns)),
            amount=_decimal(line.find("cbc:LineExtensionAmount", ns)),
        ) for line in lines),
    )


def _ubl_party_name(party, ns: dict[str, str]) -> str:
    if party is None:
        return ""
    return (_text(party.find("cac:PartyLegalEntity/cbc:RegistrationName", ns))
            or _text(party.find("cac:PartyName/cbc:Name", ns)))


def _ubl_address(party, ns: dict[str, str], tag: str = "cac:PostalAddress") -> PostalAddress:
    address = party.find(tag, ns) if party is not None else None
    if address is None:
        return PostalAddress()
    lines = [_text(address.find(f"cbc:{tag}", ns)) for tag in ("StreetName", "AdditionalStreetName")]
    lines += [_text(line) for line in address.findall("cac:AddressLine/cbc:Line", ns)]
    return PostalAddress(tuple(line for line in lines if line), _text(address.find("cbc:PostalZone", ns)),
                         _text(address.find("cbc:CityName", ns)),
                         _text(address.find("cac:Country/cbc:IdentificationCode", ns)))
