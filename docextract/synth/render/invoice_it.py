"""@rimiti/invoice-it 3.6.0 (npm, MIT): an order and invoice generator whose Pug template is printed by WeasyPrint.

Its user configures the package, creates an invoice from a recipient and an emitter, sets its reference, date,
footer and articles, and asks for the HTML (the package prints it with html-pdf's PhantomJS, a download from
outside the registries: WeasyPrint prints the same HTML here). Its page: a logo box left and, right, "Invoice",
"Ref. : REFERENCE" and "Invoice date : DATE" (French: "Facture", "Réf. :", "Date facturation:"); two boxes side by
side without headings, the emitter's (grey: name, street, postcode and city, phone, e-mail) and the recipient's
(framed: company, contact person, street, postcode and city, phone, e-mail); "Amounts expressed in Euros" over a
framed table (Description, VAT, U.P, Qt, Total exc. VAT) drawn down to the foot of the page; "Note :" and its text
left of "Total exc. VAT", "Total VAT" and "Total inc. VAT"; the footer its user writes (here, as the package's own
example does: the company, its registration, NAF-APE code and VAT number). Amounts as JavaScript prints them with
two decimals cut, not rounded (``formatOutputNumber``); whole quantities only; dates as the ``date_format`` the user
sets (moment.js).

The amounts of the truth are the ones the package computed and printed (the driver returns them), the page's
Open Sans comes from Debian's ``fonts-open-sans`` instead of Google's font service.
"""

from __future__ import annotations

import base64
import io
import json
import random
import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from PIL import Image

from docextract.synth.render.base import RenderFailed, Renderer, Rendering, python_package_missing
from docextract.synth.render.content import Address, Item, RenderInvoice
from docextract.synth.render.logos import logo_png
from docextract.synth.render.node import npm_package_missing, npm_package_version, run_driver

PACKAGE = "@rimiti/invoice-it"
VERSION = "3.6.0"
GOOGLE_FONTS = re.compile(r'@import "https://fonts\.googleapis\.com[^"]*";')
# moment.js formats its user would set: the package's default and the one of its configuration example
DATE_FORMATS = {"en_GB": ("DD/MM/YYYY", "YYYY/MM/DD"), "fr_FR": ("DD/MM/YYYY",)}
LOGO_SIZE = (230, 70)
CONTACTS = ("Will Jameson", "Claire Martin", "Sophie Bernard", "James Wilson", "Emma Taylor", "Lucas Petit")


def _street_and_place(address: Address) -> tuple[dict[str, str], Address]:
    """The package's address fields (one street line: number and name, as its user fills them, then postcode and
    city) and the address as printed."""
    street = address.lines[0] if address.lines else ""
    fields = {"street_number": "", "street_name": street, "zip_code": address.postcode, "city": address.city}
    return fields, Address((street,) if street else (), address.postcode, address.city)


def _logo(name: str, rng: random.Random) -> str:
    """A logo the size of the package's placeholder (230 x 70 pixels), which the template prints unscaled."""
    image = Image.open(io.BytesIO(logo_png(name, rng)))
    image.thumbnail(LOGO_SIZE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _run(options: dict, scratch: Path) -> tuple[str, dict]:
    """The package's HTML page, and what it computed and printed (the driver's JSON beside the page)."""
    page = run_driver("invoice-it.js", options, scratch, output="invoice.html").decode("utf-8")
    return page, json.loads((scratch / "invoice.html.json").read_text(encoding="utf-8"))


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    from weasyprint import HTML

    # a French package whose page says "Amounts expressed in Euros" (and prints postcode before city): euro invoices,
    # synthetic ones of British and French content
    if invoice.origin == "einvoice" and invoice.currency != "EUR":
        raise RenderFailed("invoice-it prints its amounts 'expressed in Euros' only")
    lang = "fr" if invoice.language == "fr" else "en"
    # whole quantities (the package refuses others), at the content's unit prices and rates
    items = tuple(replace(item, quantity=max(Decimal(1), item.quantity.to_integral_value())) for item in invoice.items)
    vendor, customer = invoice.vendor, invoice.customer
    vendor_fields, vendor_address = _street_and_place(vendor.address)
    customer_fields, customer_address = _street_and_place(customer.address)
    contact = rng.choice(CONTACTS) if rng.random() < 0.5 else ""
    first, _, last = contact.partition(" ")
    with_logo = rng.random() < 0.5
    note = invoice.payment_terms if invoice.payment_terms and rng.random() < 0.5 else ""
    registration = f"{rng.randint(10**13, 10**14 - 1)}"
    footer = f"{vendor.name} - {'SIRET' if lang == 'fr' else 'Registration'}: {registration} <br> NAF-APE: " \
             f"{rng.randint(1000, 9999)}{rng.choice('ABCZ')}"
    if vendor.tax_id:
        footer += f" - {'Num. TVA' if lang == 'fr' else 'Num. VAT'}: {vendor.tax_id}"
    date_format = rng.choice(DATE_FORMATS.get(invoice.locale, ("DD/MM/YYYY",)))
    options = {
        "lang": lang, "date_format": date_format, "date": invoice.invoice_date.isoformat(),
        "reference": invoice.invoice_number, "note": note, "footer": footer,
        "logo": _logo(vendor.name, rng) if with_logo else "",
        "emitter": {"name": vendor.name, **vendor_fields, "phone": vendor.phone, "mail": vendor.email},
        "recipient": {"company_name": customer.name, "first_name": first, "last_name": last, **customer_fields,
                      "phone": customer.phone, "mail": customer.email},
        "articles": [{"description": item.description, "tax": float(item.tax_rate), "price": float(item.unit_price),
                      "qt": int(item.quantity)} for item in items],
    }
    page, computed = _run(options, scratch)
    target = scratch / "invoice.pdf"
    HTML(string=GOOGLE_FONTS.sub("", page), base_url=str(scratch)).write_pdf(target)
    # the truth is what the package printed: its cut (not rounded) line totals and sums
    printed_items = tuple(Item(item.description, Decimal(cells["qt"]), Decimal(cells["price"]), Decimal(cells["total"]),
                               Decimal(cells["tax"]), item.unit) for item, cells in zip(items, computed["articles"]))
    invoice = replace(invoice.with_items(printed_items), currency="EUR", subtotal=Decimal(computed["subtotal"]),
                      total_tax=Decimal(computed["total_tax"]), total=Decimal(computed["total"]),
                      amount_due=Decimal(computed["total"]), vendor=replace(vendor, address=vendor_address),
                      customer=replace(customer, address=customer_address), due_date=None, purchase_order="",
                      payment_terms=note, shipping_address=None, iban="", bic="")
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "subtotal", "total_tax", "total"}
    if vendor.tax_id:
        printed.add("vendor_tax_id")
    if note:
        printed.add("payment_terms")
    return Rendering(target.read_bytes(), invoice, frozenset(printed), frozenset({"currency"}), language=lang,
                     item_cells=("unit_price", "quantity", "amount"),
                     options={"lang": lang, "date_format": date_format, "logo": with_logo, "contact": bool(contact),
                              "note": bool(note)})


def _missing() -> str | None:
    return npm_package_missing(PACKAGE)() or python_package_missing("weasyprint")()


RENDERERS = (
    Renderer("invoice-it", f"{PACKAGE} {VERSION} (npm; its Pug invoice template printed by WeasyPrint)", "MIT",
             "logo box left, 'Invoice' / 'Ref. :' / 'Invoice date :' right; the emitter's grey box and the "
             "recipient's framed box side by side without headings; 'Amounts expressed in Euros' over a framed "
             "table (Description, VAT, U.P, Qt, Total exc. VAT); 'Note :' beside the three totals; a legal footer "
             "with the VAT number; English or French, 2856.27, dates as moment.js formats them",
             render, _missing, npm_package_version(PACKAGE), locales=("en_GB", "fr_FR", "fr_FR"), max_items=15),
)
