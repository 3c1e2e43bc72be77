"""PyInvoice (PyPI, MIT): the reportlab invoice of CiCiApp, every value in a row under its key.

An "Invoice" heading at the right over rows "Invoice id:", "Invoice date:", "Invoice due date:"; a "Service
Provider" and a "Client" table side by side, each a column of keyed rows ("Name:", "Street:", "City:", "State:",
"Country:", "Post code:", the provider's "Vat/Tax number:", the client's "Email:" and "Client id:"); a "Detail"
table (name, description, units, unit price, amount) whose last rows are "Subtotal", "Vat/Tax (19%)" and
"Total"; an optional "Transaction" table (gateway, id, date, amount paid), a bottom line and a red "PAID" stamp.
Amounts are plain decimals without a currency; dates ISO (``2024-03-15``, or ``2024-03-15 09:30``).

The parties' addresses are keyed rows, not lines: where the matcher finds them they are labelled, else left out
of the label set (optional), never a drop.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from docextract.synth.render.base import (Renderer, Rendering, import_isolated, isolated_package_missing,
                                          isolated_package_version)
from docextract.synth.render.content import CENT, Address, RenderInvoice, TaxRate

GATEWAYS = ("Paypal", "Stripe", "Bank transfer", "Visa **** 4242", "SEPA direct debit")


def _time(day: dt.date, rng: random.Random) -> dt.date | dt.datetime:
    """The day, or the day with a time (the package prints a datetime as ``2024-03-15 09:30``)."""
    return dt.datetime.combine(day, dt.time(rng.randint(7, 18), rng.choice((0, 15, 30, 45)))) if rng.random() < 0.3 \
        else day


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    models = import_isolated("pyinvoice.models")  # installed apart: its wheel also installs a package "tests"
    SimpleInvoice = import_isolated("pyinvoice.templates").SimpleInvoice  # noqa: N806 - the package's class
    ClientInfo, InvoiceInfo, ServiceProviderInfo = models.ClientInfo, models.InvoiceInfo, models.ServiceProviderInfo  # noqa: N806
    PyItem, Transaction = models.Item, models.Transaction  # noqa: N806

    # the package's arithmetic: whole units x unit price, exact; one tax rate on the exact subtotal, half-up
    items = tuple(replace(item, quantity=max(Decimal(1), item.quantity.to_integral_value(ROUND_HALF_UP)))
                  for item in invoice.items)
    items = tuple(replace(item, amount=item.quantity * item.unit_price) for item in items)
    rate = invoice.single_rate if invoice.single_rate is not None else rng.choice((Decimal(19), Decimal(20)))
    with_tax = bool(rate) and rng.random() < 0.8
    subtotal = sum((item.amount for item in items), Decimal(0))
    tax = subtotal * rate / 100 if with_tax else Decimal(0)
    total = (subtotal + tax).quantize(CENT, ROUND_HALF_UP)
    items = tuple(replace(item, tax_rate=rate if with_tax else Decimal(0)) for item in items)
    invoice = replace(invoice, items=items, subtotal=subtotal.quantize(CENT, ROUND_HALF_UP),
                      total_tax=tax.quantize(CENT, ROUND_HALF_UP), total=total, amount_due=total,
                      tax_rates=(TaxRate(rate if with_tax else Decimal(0), subtotal.quantize(CENT),
                                         tax.quantize(CENT, ROUND_HALF_UP)),))

    def keyed(cls, who, address: Address, **extra):
        return cls(name=who.name, street=", ".join(address.lines) or None, city=address.city.rstrip(",") or None,
                   state=None, country=address.country or None, post_code=address.postcode or None, **extra)

    target = scratch / "invoice.pdf"
    document = SimpleInvoice(str(target))
    document.is_paid = rng.random() < 0.2
    document.invoice_info = InvoiceInfo(invoice.invoice_number, _time(invoice.invoice_date, rng),
                                        invoice.due_date)
    with_tax_id = bool(invoice.vendor.tax_id) and rng.random() < 0.7
    document.service_provider_info = keyed(ServiceProviderInfo, invoice.vendor, invoice.vendor.address,
                                           vat_tax_number=invoice.vendor.tax_id if with_tax_id else None)
    document.client_info = keyed(ClientInfo, invoice.customer, invoice.customer.address,
                                 email=invoice.customer.email or None,
                                 client_id=f"C{rng.randint(1000, 99999)}" if rng.random() < 0.5 else None)
    for item in items:
        document.add_item(PyItem(item.description, item.unit or "", int(item.quantity), item.unit_price))
    if with_tax:
        document.set_item_tax_rate(f"{rate.normalize():f}")  # "19", not Decimal's "1.9E+1"
    with_transaction = rng.random() < 0.3
    if with_transaction:
        document.add_transaction(Transaction(rng.choice(GATEWAYS), rng.randint(10 ** 7, 10 ** 9),
                                             _time(invoice.invoice_date, rng), total))
    if invoice.payment_terms and rng.random() < 0.5:
        document.set_bottom_tip(invoice.payment_terms)
    document.finish()
    printed = {"invoice_number", "invoice_date", "vendor_name", "customer_name", "subtotal", "total"}
    optional = {"vendor_address", "billing_address"}  # keyed rows, not an address block
    if invoice.due_date:
        printed.add("due_date")
    if with_tax_id:
        printed.add("vendor_tax_id")
    if with_tax:
        printed.add("total_tax")
    if document._bottom_tip:
        optional.add("payment_terms")
    invoice = replace(invoice, purchase_order="", shipping_address=None, iban="", bic="", currency="",
                      payment_terms=document._bottom_tip or "",
                      vendor=invoice.vendor if with_tax_id else replace(invoice.vendor, tax_id="", tax_id_value=""))
    return Rendering(target.read_bytes(), invoice, frozenset(printed), frozenset(optional), language="en",
                     item_cells=("quantity", "unit_price", "amount"),
                     options={"with_tax": with_tax, "paid_stamp": document.is_paid, "transaction": with_transaction})


RENDERERS = (
    Renderer("pyinvoice", "PyInvoice 0.1.7 (PyPI, reportlab)", "MIT",
             "keyed rows everywhere: invoice id/date/due date under an 'Invoice' heading, Service Provider and Client "
             "tables of Name/Street/City/Country/Post code rows, a Detail table ending in Subtotal, Vat/Tax and "
             "Total rows, optional transaction table and PAID stamp; amounts without a currency, ISO dates",
             render, isolated_package_missing("pyinvoice", "PyInvoice==0.1.7", needs=("reportlab",)), isolated_package_version("pyinvoice"),
             max_items=12, tax_rates=1),  # a longer table breaks over a page, which the package's table class refuses
)
