"""gen-invoice 0.0.3 (PyPI, MIT): Adam Rehn's template-based invoice generator, its default HTML template and
stylesheet filled as its ``InvoiceGenerator.generate`` fills them, printed by WeasyPrint.

A CSS grid of two columns: at the left the payee's (vendor's) name as a heading, "Invoice #NUMBER", "Date:" and
"Purchase order:"; at the right the payee's address lines, "Identifier (ABN/VAT number/etc.):", "Email:" and
"Phone:"; then two framed boxes side by side, "Billed to:" with the payer's name and address and "Pay to:" with the
bank ("Name:", "Bank:", "SWIFT Code:", "Bank code (BSB/sort code/etc.):", "Account Number:") and "Balance due:";
a ruled table (item description, quantity, unit price, total) whose grey rows are "Subtotal", "Tax (GST/VAT/sales
tax/etc.)" and "Total". Amounts as the machine's locale formats currency (``locale.currency(..., grouping=True)``:
``$1,234.56``, ``£1,234.56``, ``€1,234.56``, ``1.234,56 €``); dates as ISO (the package prints today's date as
``%Y-%m-%d``; the invoice's date is given through its documented ``context_overrides``).

The package's module imports ``pkg_resources`` (setuptools) at the top and prints through electron-pdf (a browser
download from outside the registries): it is installed apart, without its dependencies
(``scripts/setup-render.sh``), and only its template and stylesheet are read; the context and arithmetic are its
``generate``'s: one tax rate applied to the sum of the lines, floats, line totals quantity x price.
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from docextract.synth.render.base import (Renderer, Rendering, isolated_module_path, isolated_package_missing,
                                          isolated_package_version)
from docextract.synth.render.content import RenderInvoice, TaxRate

BANKS = ("Commonwealth Bank", "Westpac", "Barclays", "HSBC UK", "Deutsche Bank", "Bank of Ireland", "Chase")
# locale.currency(value, symbol=True, grouping=True) under glibc's locales: (symbol, before, thousands, decimal)
CURRENCY_LOCALES = {
    "en_US": ("USD", "$", True, ",", "."), "en_AU": ("AUD", "$", True, ",", "."),
    "en_GB": ("GBP", "£", True, ",", "."), "en_IE": ("EUR", "€", True, ",", "."),
    "de_DE": ("EUR", "€", False, ".", ","),
}
LOCALE_FOR_CURRENCY = {"USD": ("en_US",), "GBP": ("en_GB",), "EUR": ("en_IE", "de_DE"), "AUD": ("en_AU",)}


def _defaults_folder() -> Path | None:
    package = isolated_module_path("gen_invoice")  # never imported: it needs setuptools' pkg_resources and PyYAML
    return package / "defaults" if package else None


missing = isolated_package_missing("gen_invoice", "gen-invoice==0.0.3", needs=("jinja2", "weasyprint"),
                                   files=("defaults/default.html", "defaults/default.css"))


def locale_currency(value: float, locale_name: str) -> str:
    """What ``locale.currency(value, symbol=True, grouping=True)`` prints under ``locale_name`` (these locales are
    not installed everywhere, and setlocale would change the whole process)."""
    _, symbol, before, thousands, decimal = CURRENCY_LOCALES[locale_name]
    number = f"{abs(value):,.2f}".replace(",", "\0").replace(".", decimal).replace("\0", thousands)
    text = f"{symbol}{number}" if before else f"{number} {symbol}"
    return f"-{text}" if value < 0 else text


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    import jinja2
    from weasyprint import HTML

    locale_name = rng.choice(LOCALE_FOR_CURRENCY.get(invoice.currency, ("en_US", "en_AU", "en_GB")))
    currency = CURRENCY_LOCALES[locale_name][0]
    rate = invoice.single_rate if invoice.single_rate is not None else invoice.items[0].tax_rate
    # generate(): each CSV row's quantity is an int unless it has a ".", its total price x quantity (floats)
    lines = [{"description": item.description, "units": item.unit if rng.random() < 0.5 else "",
              "quantity": float(item.quantity) if item.quantity != item.quantity.to_integral_value() else int(item.quantity),
              "price": float(item.unit_price)} for item in invoice.items]
    for line in lines:
        line["total"] = line["price"] * line["quantity"]
    net = sum(line["total"] for line in lines)
    tax = net * float(rate / 100)
    total = net + tax
    with_tax_id = bool(invoice.vendor.tax_id) and rng.random() < 0.7
    with_po = bool(invoice.purchase_order) and rng.random() < 0.6
    international = bool(invoice.iban)
    payee = {"name": invoice.vendor.name, "address": list(invoice.vendor.address.printed_lines()),
             "identifier": invoice.vendor.tax_id if with_tax_id else "",
             "email": invoice.vendor.email if rng.random() < 0.5 else "",
             "phone": invoice.vendor.phone if rng.random() < 0.5 else "",
             "bank": {"holder": invoice.vendor.name, "bank": rng.choice(BANKS), "swift": invoice.bic or "-",
                      "code": f"{rng.randint(100, 999)}-{rng.randint(100, 999)}",
                      "account": invoice.iban or str(rng.randint(10_000_000, 99_999_999))}}
    # "Balance due:" prints the payer file's "due" as written: a date or a sentence
    due_is_date = invoice.due_date is not None and (not invoice.payment_terms or rng.random() < 0.5)
    due = invoice.due_date.isoformat() if due_is_date else invoice.payment_terms or "On receipt"
    payer = {"name": invoice.customer.name, "address": list(invoice.customer.address.printed_lines()), "due": due}
    context = {
        "invoice": True, "quote": False, "domestic": not international, "international": international,
        "number": invoice.invoice_number, "date": invoice.invoice_date.strftime("%Y-%m-%d"), "expiry": None,
        "purchase_order": invoice.purchase_order if with_po else None, "payee": payee, "payer": payer,
        "sections": [{"description": "", "lines": lines, "total": net}], "tax": tax, "total": total,
        "css": (_defaults_folder() / "default.css").read_text(encoding="utf-8"),
    }
    environment = jinja2.Environment(autoescape=False)  # as the package's (its values are plain text here)
    environment.filters["currency"] = lambda value: locale_currency(value, locale_name)
    page = environment.from_string((_defaults_folder() / "default.html").read_text(encoding="utf-8")).render(context)
    target = scratch / "invoice.pdf"
    HTML(string=page, base_url=str(scratch)).write_pdf(target)

    def printed(value: float) -> Decimal:
        return Decimal(f"{value:.2f}")  # what the filter prints

    items = tuple(replace(item, amount=printed(line["total"]), tax_rate=rate) for item, line in zip(invoice.items, lines))
    subtotal, total_tax, grand = printed(net), printed(tax), printed(total)
    invoice = replace(
        invoice, items=items, subtotal=subtotal, total_tax=total_tax, total=grand, amount_due=grand,
        tax_rates=(TaxRate(rate, subtotal, total_tax),), currency=currency, shipping_address=None, bic="",
        purchase_order=invoice.purchase_order if with_po else "",
        due_date=invoice.due_date if due_is_date else None, payment_terms="" if due_is_date else due,
        vendor=invoice.vendor if with_tax_id else replace(invoice.vendor, tax_id="", tax_id_value=""))
    fields = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
              "subtotal", "total"}
    optional = {"currency"}
    if tax > 0:
        fields.add("total_tax")
    if with_tax_id:
        fields.add("vendor_tax_id")
    if with_po:
        fields.add("purchase_order")
    if invoice.iban:
        fields.add("iban")
    fields.add("due_date" if due_is_date else "payment_terms")
    return Rendering(target.read_bytes(), invoice, frozenset(fields), frozenset(optional), language="en",
                     options={"locale": locale_name, "tax_id": with_tax_id, "purchase_order": with_po,
                              "due": "date" if due_is_date else "terms"})


RENDERERS = (
    Renderer("gen-invoice", "gen-invoice 0.0.3 (PyPI; its default Jinja2 template, printed by WeasyPrint)", "MIT",
             "two-column grid: vendor's name as heading, 'Invoice #NUMBER', Date, Purchase order left; vendor's "
             "address lines, 'Identifier (ABN/VAT number/etc.):', email, phone right; framed 'Billed to:' and 'Pay to:' "
             "boxes (bank, account, 'Balance due:'); ruled table with grey Subtotal / Tax / Total rows; one tax rate, "
             "$1,234.56 / £ / € / 1.234,56 €, ISO dates",
             render, missing, isolated_package_version("gen_invoice"), max_items=20, tax_rates=1),
)
