"""billwright (PyPI, Apache-2.0): Swiss invoices typeset from HTML/CSS templates with WeasyPrint.

A wordmark and contact column at the top, a sender line over the recipient's window address (name, street,
postcode and city, country), a meta block at the right (date, invoice number, UID), the title with a rule, a
salutation and cover text, an item table (position, quantity, unit, description, unit price, line total), a
totals table (net price, MWST/VAT at one rate, invoice total) and the payment terms as a sentence; a running
footer with the address and the bank account on every page. German (Swiss spelling) or English, amounts in
Swiss form ``CHF 1’234.50``, its Inter font. Rendered without the Swiss QR payment part.
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from docextract.synth.render.base import Renderer, Rendering, python_package_missing, python_package_version
from docextract.synth.render.content import Address, RenderInvoice
from docextract.synth.render.logos import logo_png

UNITS = {"h": "hours", "Std.": "hours", "hrs": "hours", "Tag": "days", "day": "days", "days": "days"}
PALETTES = ({"accent": "#1f3a5f"}, {"accent": "#7a1f2b"}, {"accent": "#2e6b3a"}, {"accent": "#444444"}, {})


def _split_street(line: str) -> tuple[str, str]:
    street, _, number = line.rpartition(" ")
    return (street, number) if street and any(c.isdigit() for c in number) else (line, "")


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    import billwright
    from billwright.load import load_brand
    from billwright.model import Address as BwAddress, Bill, Client, Company, LineItem
    from billwright.render import render_bill

    language = "en" if invoice.language == "en" else "de"
    rate = rng.choice((Decimal("8.1"), Decimal("7.7"), Decimal("2.6"))) if rng.random() < 0.6 else None
    # the package's arithmetic: each line quantity x price rounded half-up, VAT on the rounded net total
    items = tuple(replace(item, tax_rate=rate or Decimal(0)) for item in invoice.computed_as().items)
    invoice = invoice.with_items(items)
    tax = (invoice.subtotal * (rate or 0) / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    invoice = replace(invoice, total_tax=tax, total=invoice.subtotal + tax, amount_due=invoice.subtotal + tax,
                      currency="CHF")

    def address(name: str, where: Address) -> BwAddress:
        street, number = _split_street(where.lines[0] if where.lines else "")
        return BwAddress(name=name[:70], street=street[:70], house_number=number[:16], postal_code=where.postcode[:16],
                         city=where.city[:35], country=rng.choice(("CH", "CH", "DE", "AT")))

    vendor_address = address(invoice.vendor.name, invoice.vendor.address)
    customer_address = address(invoice.customer.name, invoice.customer.address)
    company = Company(name=invoice.vendor.name, person=rng.choice(("Dr. Alex Muster", "Sandra Keller", "Marc Weber",
                                                                   "Jane Roberts")),
                      address=vendor_address, email=invoice.vendor.email, iban=invoice.iban or "CH9300762011623852957",
                      bank=rng.choice(("", "Zürcher Kantonalbank", "PostFinance", "UBS Switzerland AG")),
                      uid=invoice.vendor.tax_id if rng.random() < 0.5 else "", vat_registered=rate is not None,
                      vat_rate=rate or Decimal(0), default_language=language)
    client = Client(key="client", address=customer_address, language=language)
    bill = Bill(number=invoice.invoice_number, date=invoice.invoice_date, client=client, language=language,
                terms_days=rng.choice((10, 14, 30)),
                items=tuple(LineItem(description=item.description, quantity=item.quantity,
                                     unit=UNITS.get(item.unit, rng.choice(("items", "hours", "flat"))),
                                     unit_price=item.unit_price) for item in items))
    package = Path(billwright.__file__).parent
    brand = load_brand(package / "example")
    palette = rng.choice(PALETTES)
    with_logo = rng.random() < 0.5
    # the wordmark is the vendor's name (the example profile's "billwright" would be a second, false issuer)
    brand = brand.model_copy(update={"colors": {**brand.colors, **palette},
                                     "wordmark": {"line2": vendor_address.name, "dot": ""},
                                     "mark": logo_png(vendor_address.name, rng, data_url=True) if with_logo else ""})
    target = scratch / "bill.pdf"
    render_bill(bill, company, brand, package / "assets", target, with_qr=False)
    street = lambda a: f"{a.street} {a.house_number}".strip()  # noqa: E731 - the package's street_line
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "total"}
    optional = {"subtotal", "iban", "vendor_tax_id", "currency"} | ({"total_tax"} if rate else set())
    invoice = replace(
        invoice, due_date=None, purchase_order="", payment_terms="", shipping_address=None,
        iban=company.iban.replace(" ", ""),
        vendor=replace(invoice.vendor, name=vendor_address.name,
                       address=Address((street(vendor_address),), vendor_address.postal_code, vendor_address.city)),
        customer=replace(invoice.customer, name=customer_address.name,
                         address=Address((street(customer_address),), customer_address.postal_code,
                                         customer_address.city)))
    if not company.uid:
        invoice = replace(invoice, vendor=replace(invoice.vendor, tax_id="", tax_id_value=""))
    return Rendering(target.read_bytes(), invoice, frozenset(printed), frozenset(optional), language=language,
                     options={"language": language, "vat_rate": str(rate) if rate else None, "palette": palette,
                              "logo": with_logo})


RENDERERS = (
    Renderer("billwright", "billwright 0.4.0 (PyPI)", "Apache-2.0",
             "Swiss HTML/CSS invoice printed by WeasyPrint: wordmark, sender line over the window address, meta "
             "block (date, number), title rule, item table, net/MWST/total, terms sentence, running footer; "
             "German or English, CHF 1’234.50",
             render, python_package_missing("billwright", "weasyprint"), python_package_version("billwright"),
             locales=("de_DE", "de_DE", "en_GB", "en_US", "fr_FR"), max_items=30, tax_rates=1),
)
