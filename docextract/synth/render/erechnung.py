"""erechnung (PyPI, MIT): German e-invoices (ZUGFeRD/Factur-X) whose visible page is a DIN 5008 letter (reportlab).

The package computes the totals itself (German rules: each line rounded, VAT per rate), lays out a DIN 5008
letter: the recipient window with a sender line, an info block (invoice number, dates, customer number) at the
right, a subject and cover text, a zebra item table (pos., description, quantity and unit, unit price, VAT %,
amount), a totals block (net, VAT per rate, gross, amount due) and notes (payment terms, bank details), with a
legal footer on every page. German or US English (``Language.EN``), its own Arimo font or DejaVu, grey or
coloured table heads, with or without a logo. Rendered as a plain PDF (``pdf_bytes``): the XML it can embed is
not needed here, the values are ours.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from docextract.synth.render.base import Renderer, Rendering, python_package_missing, python_package_version
from docextract.synth.render.content import Address, RenderInvoice
from docextract.synth.render.logos import logo_png

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans"
UNITS = {"h": "h", "Std.": "h", "hrs": "h", "kg": "kg", "m": "m", "l": "l", "Tag": "day", "day": "day", "days": "day"}
COUNTRIES = {"de_DE": "DE", "nl_NL": "NL", "it_IT": "IT", "es_ES": "ES", "fr_FR": "FR", "en_GB": "GB", "en_US": "US"}


def _street(address: Address) -> tuple[str, str]:
    """("Hauptstraße", "12") from the first street line "Hauptstraße 12" (the package prints "street number")."""
    line = address.lines[0] if address.lines else ""
    street, _, number = line.rpartition(" ")
    return (street, number) if street and any(c.isdigit() for c in number) else (line, "")


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    import erechnung as er

    from stdnum import iban as iban_number

    invoice = invoice.computed_as()  # lines rounded half-up, then VAT per rate: the package's rule
    if invoice.iban and not iban_number.is_valid(invoice.iban):
        invoice = replace(invoice, iban="")  # the package refuses an IBAN whose check digits are wrong
    english = invoice.language == "en" or rng.random() < 0.2
    # one street line: the package prints "street number", then postcode and city
    street, number = _street(invoice.vendor.address)
    country = COUNTRIES[invoice.locale]
    vendor_address = Address((f"{street} {number}".strip(),), invoice.vendor.address.postcode,
                             invoice.vendor.address.city)
    seller = er.Seller(name=invoice.vendor.name, street=street, house_number=number,
                       postal_code=invoice.vendor.address.postcode, city=invoice.vendor.address.city, country=country,
                       vat_id=invoice.vendor.tax_id_value or "", tax_number="" if invoice.vendor.tax_id_value else
                       f"{rng.randint(100, 299)}/{rng.randint(100, 999)}/{rng.randint(10000, 99999)}",
                       iban=invoice.iban, bic=invoice.bic or ("COBADEFFXXX" if invoice.iban else ""),
                       account_holder=invoice.vendor.name if invoice.iban else "", email=invoice.vendor.email or
                       "billing@example.com", phone=invoice.vendor.phone)
    c_street, c_number = _street(invoice.customer.address)
    company = rng.random() < 0.7
    customer_kwargs = {"company": invoice.customer.name} if company else {}
    if not company:
        first, _, last = invoice.customer.name.partition(" ")
        customer_kwargs = {"first_name": first, "last_name": last or first}
    customer = er.Customer(**customer_kwargs, street=c_street, house_number=c_number,
                           postal_code=invoice.customer.address.postcode, city=invoice.customer.address.city,
                           country=country, email="buyer@example.com",
                           customer_type=er.CustomerType.B2B if company else er.CustomerType.B2C)
    customer_name = invoice.customer.name if company else " ".join(
        p for p in (customer_kwargs["first_name"], customer_kwargs["last_name"]) if p)
    items = [er.LineItem(description=item.description, quantity=item.quantity, unit_price=item.unit_price,
                         tax_rate=item.tax_rate, unit=UNITS.get(item.unit, "pcs")) for item in invoice.items]
    logo = None
    if rng.random() < 0.5:
        logo = scratch / "logo.png"
        logo.write_bytes(logo_png(invoice.vendor.name, rng))
    font = er.Font(f"{DEJAVU}.ttf", f"{DEJAVU}-Bold.ttf") if rng.random() < 0.4 and Path(f"{DEJAVU}.ttf").exists() \
        else None
    tint = tuple(rng.randint(120, 230) for _ in range(3))
    brand = er.BrandStyle(header_fill=tint, bar_color=tuple(max(0, v - 90) for v in tint)) if rng.random() < 0.5 \
        else er.BrandStyle()
    document = er.Invoice(seller=seller, customer=customer, line_items=items, invoice_number=invoice.invoice_number,
                          currency=invoice.currency if invoice.currency == "EUR" else "EUR",
                          issue_date=invoice.invoice_date, service_date=invoice.invoice_date,
                          due_date=invoice.due_date, logo=logo is not None, logo_path=str(logo) if logo else None,
                          font=font, brand_style=brand, language=er.Language.EN if english else er.Language.DE,
                          fold_marks=rng.random() < 0.7,
                          payment_method=None if invoice.iban else er.PaymentMethod.CASH)
    pdf = document.pdf_bytes()
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "subtotal", "total", "vendor_tax_id"}
    optional = {"total_tax", "amount_due", "currency", "due_date", "iban"}
    if not invoice.vendor.tax_id_value:
        printed.discard("vendor_tax_id")
    invoice = replace(invoice, currency="EUR", vendor=replace(invoice.vendor, address=vendor_address),
                      customer=replace(invoice.customer, name=customer_name, address=Address(
                          (f"{c_street} {c_number}".strip(),), invoice.customer.address.postcode,
                          invoice.customer.address.city)), shipping_address=None, purchase_order="",
                      payment_terms="")
    return Rendering(pdf, invoice, frozenset(printed), frozenset(optional), language="en" if english else "de",
                     options={"english": english, "logo": logo is not None, "dejavu": font is not None,
                              "tinted": brand != er.BrandStyle()})


RENDERERS = (
    Renderer("erechnung", "erechnung 0.3.0 (PyPI)", "MIT",
             "DIN 5008 e-invoice letter: recipient window, info block right, subject and cover text, zebra item "
             "table, net/VAT/gross/amount-due block, notes with bank details, legal footer; German or US English",
             render, python_package_missing("erechnung"), python_package_version("erechnung"),
             locales=("de_DE", "de_DE", "de_DE", "nl_NL", "it_IT", "es_ES"), max_items=40),
)
