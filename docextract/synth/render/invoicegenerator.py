"""InvoiceGenerator (PyPI, BSD): the Czech-made reportlab invoice ("Faktura") with boxed provider and client.

A title line with the number at the top, the provider's box (name, street, postcode and city, VAT id, a logo)
and the client's box beside the dates (issue, due, taxable), a payment box (account, IBAN, SWIFT), a framed
item table (description, units, price per one, total, with tax: VAT %, total with tax), a VAT breakdown
table (rate, tax, without VAT, with VAT) and the creator's signature line. In English or the package's Czech
catalogue (``INVOICE_LANG``); amounts formatted by Babel in the content's locale (``€1,234.56``,
``1.234,56 €``, ``1 234,56 €``, ``CHF 1’234.56``), dates in the language's medium form.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from decimal import ROUND_HALF_EVEN
from pathlib import Path

from docextract.synth.render.base import Renderer, Rendering, python_package_missing, python_package_version
from docextract.synth.render.content import RenderInvoice
from docextract.synth.render.logos import logo_png

BABEL_LOCALES = {"en_US": "en_US", "en_GB": "en_GB", "de_DE": "de_DE", "fr_FR": "fr_FR", "nl_NL": "nl_NL",
                 "it_IT": "it_IT", "es_ES": "es_ES"}


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    language = "cs" if rng.random() < 0.3 else "en"
    os.environ["INVOICE_LANG"] = language  # read by the package at every label
    from InvoiceGenerator.api import Client, Creator, Invoice, Item, Provider
    from InvoiceGenerator.pdf import SimpleInvoice

    invoice = invoice.computed_as(ROUND_HALF_EVEN, exact=True)  # Decimal sums, Babel rounds half-even
    with_tax = any(item.tax_rate for item in invoice.items) and rng.random() < 0.85
    logo = None
    if rng.random() < 0.5:
        logo = scratch / "logo.png"
        logo.write_bytes(logo_png(invoice.vendor.name, rng))

    def party(cls, who, address, **extra):
        return cls(summary=who.name, address=", ".join(address.lines), city=address.city, zip_code=address.postcode,
                   country=address.country, email=who.email, phone=who.phone, vat_id=who.tax_id, **extra)

    provider = party(Provider, invoice.vendor, invoice.vendor.address, logo_filename=str(logo) if logo else None,
                     bank_account=invoice.iban[4:14] if invoice.iban else "", bank_code=invoice.bic or "")
    client = party(Client, invoice.customer, invoice.customer.address)
    document = Invoice(client, provider, Creator(rng.choice(("J. Novák", "A. Smith", "M. Dupont", "K. Weber"))))
    document.number = invoice.invoice_number
    document.date = invoice.invoice_date
    document.payback = invoice.due_date
    document.iban = invoice.iban or None
    document.swift = invoice.bic or None
    document.use_tax = with_tax
    document.currency = invoice.currency
    document.currency_locale = BABEL_LOCALES[invoice.locale]
    if invoice.payment_terms and rng.random() < 0.5:
        document.paytype = invoice.payment_terms
    for item in invoice.items:
        document.add_item(Item(item.quantity, item.unit_price, description=item.description, unit=item.unit,
                               tax=item.tax_rate if with_tax else 0))
    pdf_path = scratch / "invoice.pdf"
    SimpleInvoice(document).gen(str(pdf_path), generate_qr_code=False)
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "total"}
    optional = {"currency"}
    if invoice.due_date:
        printed.add("due_date")
    if invoice.vendor.tax_id:
        printed.add("vendor_tax_id")
    if invoice.iban:
        printed.add("iban")
    if document.paytype:
        optional.add("payment_terms")
    if with_tax:
        # breakdown rows under "Without VAT" / "Tax" column heads; "Total with tax" names tax as much as total
        optional.update({"subtotal", "total_tax", "total"})
        printed.discard("total")
    else:
        invoice = replace(invoice, total=invoice.subtotal, total_tax=invoice.subtotal * 0)
    invoice = replace(invoice, amount_due=invoice.total)
    return Rendering(pdf_path.read_bytes(), invoice, frozenset(printed), frozenset(optional), language=language,
                     options={"language": language, "with_tax": with_tax, "logo": logo is not None,
                              "babel_locale": document.currency_locale})


RENDERERS = (
    Renderer("invoicegenerator", "InvoiceGenerator 1.2.0 (PyPI)", "BSD",
             "Czech-style reportlab invoice: title with number, provider and client boxes, dates, payment box, framed "
             "item table, VAT breakdown, creator line; English or Czech, Babel-formatted amounts",
             render, python_package_missing("InvoiceGenerator"), python_package_version("InvoiceGenerator"),
             max_items=40),
)
