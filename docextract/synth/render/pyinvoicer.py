"""pyinvoicer 0.0.3 (PyPI, BSD-3-Clause): an HTML/CSS invoice filled with Jinja2 and printed by WeasyPrint.

The vendor's name large at the top left beside its logo; "INVOICE" and "# NUMBER" at the top right over "Date:"
and "Due Date:"; a row with "Bill To:" at the left, the client's name and address block in the middle and the
vendor's name and address block at the right, without a heading; a black-headed table (item, units, unit price,
amount), then "Total amount excl. of VAT", "VAT out of scope" and "Total amount incl. of VAT" rows; "Notes:" and a
note at the bottom. Amounts print as the package's Decimal arithmetic leaves them (``€25.00``, ``€24.6912``), with
``€`` (``$`` for dollars); dates as we give them.

pyinvoicer pins Jinja2 < 3 and WeasyPrint < 53, which docextract's own pins exclude: it is installed apart, without
its dependencies (``scripts/setup-render.sh``), and only its template and stylesheet are read; the variables are
the ones its ``HTMLRenderer`` passes. Its "VAT out of scope" row prints the VAT *rate* where a tax amount would
stand, so the content is rendered without VAT (a rate of 0: the row says 0 and the totals agree), as the row says.
"""

from __future__ import annotations

import base64
import html
import random
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from docextract.synth.render.base import (Renderer, Rendering, isolated_module_path, isolated_package_missing,
                                          isolated_package_version)
from docextract.synth.render.content import Address, RenderInvoice, TaxRate
from docextract.synth.render.logos import logo_png


def _template_folder() -> Path | None:
    package = isolated_module_path("pyinvoicer")  # its modules are never imported: they need Jinja2 2 and PyYAML
    return package / "templates" if package else None


missing = isolated_package_missing("pyinvoicer", "pyinvoicer==0.0.3", needs=("jinja2", "weasyprint"),
                                   files=("templates/invoice.html",))


def _detail(address: Address, extra: tuple[str, ...] = ()) -> str:
    """An ``<address>`` block's inner HTML, as the package's YAML ``detail`` holds it: lines apart by ``<br>``."""
    return "<br>".join(html.escape(line) for line in (*address.printed_lines(), *extra) if line)


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    import jinja2
    from weasyprint import HTML

    # the package's arithmetic: units x unit price, exact Decimal, no rounding; no VAT (see the module's note)
    items = tuple(replace(item, amount=item.quantity * item.unit_price, tax_rate=Decimal(0)) for item in invoice.items)
    subtotal = sum((item.amount for item in items), Decimal(0))
    currency = invoice.currency if invoice.currency in ("EUR", "USD") else "EUR"  # the two it has a sign for
    sign = {"EUR": "&euro;", "USD": "&dollar;"}[currency]
    with_tax_id = bool(invoice.vendor.tax_id) and rng.random() < 0.6
    vendor_extra = tuple(line for line in (invoice.vendor.email if rng.random() < 0.5 else "",
                                           f"VAT: {invoice.vendor.tax_id}" if with_tax_id else "") if line)
    logo = base64.b64encode(logo_png(invoice.vendor.name, rng)).decode() if rng.random() < 0.6 else None
    note = invoice.payment_terms if invoice.payment_terms and rng.random() < 0.6 else rng.choice((
        "Thank you for your business.", "Payment by bank transfer.", "Reverse charge: VAT out of scope."))
    folder = _template_folder()
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), autoescape=True)
    page = environment.get_template("invoice.html").render(
        company_name=invoice.vendor.name, company_detail=_detail(invoice.vendor.address, vendor_extra),
        client_name=invoice.customer.name, client_detail=_detail(invoice.customer.address),
        invoice_id=invoice.invoice_number, invoice_date=invoice.date_text(invoice.invoice_date),
        invoice_due_date=invoice.date_text(invoice.due_date) if invoice.due_date else "", footer_note=html.escape(note),
        currency=sign, items=[{"name": item.description, "units": item.quantity, "unit_price": item.unit_price,
                               "amount": item.amount} for item in items],
        total_excl_tax=subtotal, total_vat=Decimal(0), total_incl_tax=subtotal, logo=logo,
        css=(folder / "styles.css").read_text(encoding="utf-8"))
    target = scratch / "invoice.pdf"
    HTML(string=page, base_url=str(scratch)).write_pdf(target)
    invoice = replace(invoice, items=items, subtotal=subtotal, total_tax=Decimal(0), total=subtotal,
                      amount_due=subtotal, tax_rates=(TaxRate(Decimal(0), subtotal, Decimal(0)),), currency=currency,
                      purchase_order="", shipping_address=None, iban="", bic="",
                      payment_terms=note if note == invoice.payment_terms else "",
                      vendor=invoice.vendor if with_tax_id else replace(invoice.vendor, tax_id="", tax_id_value=""))
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "subtotal", "total"}
    optional = {"currency", "payment_terms"}
    if invoice.due_date:
        printed.add("due_date")
    if with_tax_id:
        printed.add("vendor_tax_id")
    return Rendering(target.read_bytes(), invoice, frozenset(printed), frozenset(optional), language="en",
                     options={"logo": logo is not None, "tax_id": with_tax_id, "currency": currency})


RENDERERS = (
    Renderer("pyinvoicer", "pyinvoicer 0.0.3 (PyPI; Jinja2 + WeasyPrint)", "BSD-3-Clause",
             "HTML/CSS invoice: vendor name large top left, INVOICE / # number / Date / Due Date top right, 'Bill To:' "
             "then the client's block and, right of it, the vendor's block without a heading, black-headed table, "
             "'Total amount excl./incl. of VAT' rows, notes; € or $, no VAT",
             render, missing, isolated_package_version("pyinvoicer"), max_items=25, tax_rates=1),
)
