"""The simple HTML invoice template (sparksuite's simple-html-invoice-template, MIT), as invoicepy 0.1.2 (PyPI,
MIT) ships it, filled with Jinja2 and printed by WeasyPrint.

A logo top left and "Invoice: NAME", "Date:", "Due:" top right; "Seller:" and "Buyer" blocks side by side (name,
street, "city, postcode", country, a free line under the seller); a grey-headed table (product, quantity, price,
VAT %, total) and at its foot "Total w/o VAT:", "VAT", "Total:" over their amounts, the amounts in one cell; the
bank name, "IBAN:" and "SWIFT/BIC:" at the bottom. English, or English and Lithuanian side by side
(``simple_lt.html``); amounts ``€1234.50`` (the currency's symbol, or its code, before the number), ISO dates.

invoicepy itself pins Click < 8, pydantic < 2 and WeasyPrint 53, which docextract's own pins exclude: it is
installed apart, without its dependencies (``scripts/setup-render.sh``, :func:`~.base.isolated_python_dir`), and
only its two template files are read; the template's variables come from :class:`_Invoice` here, which computes
what invoicepy's model computes (floats).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from docextract.synth.render.base import (Renderer, Rendering, isolated_module_path, isolated_package_missing,
                                          isolated_package_version)
from docextract.synth.render.content import Address, RenderInvoice, TaxRate
from docextract.synth.render.logos import logo_png

BANKS = ("Deutsche Bank", "Swedbank", "ING Bank", "Barclays", "Revolut Bank UAB", "Luminor Bank AS")


def _template_folder() -> Path | None:
    package = isolated_module_path("invoicepy")  # its modules are never imported: they need pydantic 1
    return package / "templates" if package else None


missing = isolated_package_missing("invoicepy", "invoicepy==0.1.2", needs=("jinja2", "weasyprint"),
                                   files=("templates/simple.html",))


@dataclass
class _Line:
    name: str
    qty: float
    price: float
    vat: int

    @property
    def total(self) -> float:
        return self.qty * self.price

    @property
    def vat_amount(self) -> float:
        return self.total * (self.vat / 100)


@dataclass
class _Invoice:
    """What the template reads of invoicepy's ``Invoice`` model, computed the same way (floats)."""

    name: str
    create_date: Any
    due_date: Any
    currency: str
    symbol: str | None
    company: Any
    customer: Any
    lines: list[_Line]

    def get_currency_symbol(self) -> str | None:
        return self.symbol

    def has_vat_lines(self) -> bool:
        return any(line.vat > 0 for line in self.lines)

    @property
    def total_wo_tax(self) -> float:
        return sum(line.total for line in self.lines)

    @property
    def total_tax(self) -> float:
        return sum(line.vat_amount for line in self.lines)

    @property
    def total_inc_tax(self) -> float:
        return self.total_wo_tax + self.total_tax


def _printed(value: float) -> Decimal:
    return Decimal("%.2f" % value)  # the template's own formatting


class _Namespace(dict):
    __getattr__ = dict.get  # Jinja2 reads attributes; a missing one is None, as in invoicepy's optional fields


def _address(address: Address) -> _Namespace:
    # the template prints the second line first ("Suite 360" over "378 Park Road"): the street last
    return _Namespace(first_line=address.lines[-1] if address.lines else "",
                      second_line=", ".join(address.lines[:-1]) or None, city=address.city.rstrip(","),
                      post_code=address.postcode, country=address.country or "")


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    import jinja2
    from weasyprint import HTML

    symbols = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF", "CZK": "Kč", "PLN": "zł"}  # invoicepy's map
    template_name = "simple_lt.html" if rng.random() < 0.3 else "simple.html"
    # whole percent rates (the model's field is an int), one per line; quantities as the content has them
    lines = [_Line(item.description, float(item.quantity), float(item.unit_price), int(item.tax_rate))
             for item in invoice.items]
    logo = scratch / "logo.png"
    logo.write_bytes(logo_png(invoice.vendor.name, rng))
    with_tax_id = bool(invoice.vendor.tax_id) and rng.random() < 0.6
    company = _Namespace(name=invoice.vendor.name, address=_address(invoice.vendor.address), logo=str(logo),
                         extra_info=f"VAT: {invoice.vendor.tax_id}" if with_tax_id else None,
                         payment_information=_Namespace(bank_name=rng.choice(BANKS), iban=invoice.iban or "-",
                                                        swift=invoice.bic or "-"))
    customer = _Namespace(name=invoice.customer.name, address=_address(invoice.customer.address))
    document = _Invoice(invoice.invoice_number, invoice.invoice_date, invoice.due_date, invoice.currency,
                        symbols.get(invoice.currency), company, customer, lines)
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_template_folder())),
                                     autoescape=jinja2.select_autoescape())
    html = environment.get_template(template_name).render(invoice=document, default_logo=str(logo))
    target = scratch / "invoice.pdf"
    HTML(string=html, base_url=str(scratch)).write_pdf(target)

    with_tax = document.has_vat_lines()
    items = tuple(replace(item, tax_rate=Decimal(line.vat), unit_price=_printed(line.price), amount=_printed(line.total))
                  for item, line in zip(invoice.items, lines))
    subtotal, tax, total = (_printed(document.total_wo_tax), _printed(document.total_tax),
                            _printed(document.total_inc_tax))
    invoice = replace(
        invoice, items=items, subtotal=subtotal, total_tax=tax, total=total if with_tax else subtotal,
        amount_due=total if with_tax else subtotal, tax_rates=(TaxRate(Decimal(0), subtotal, tax),),
        purchase_order="", shipping_address=None, payment_terms="", bic="",
        vendor=replace(invoice.vendor, address=_place_comma(invoice.vendor.address),
                       **({} if with_tax_id else {"tax_id": "", "tax_id_value": ""})),
        customer=replace(invoice.customer, address=_place_comma(invoice.customer.address)))
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "total"}
    optional = {"currency"}
    if invoice.due_date:
        printed.add("due_date")
    if with_tax:
        printed.update({"subtotal", "total_tax"})
    if with_tax_id:
        printed.add("vendor_tax_id")
    if template_name == "simple_lt.html":  # its wrapped two-language labels stand a line off their amounts
        optional |= printed & {"subtotal", "total_tax", "total"}
        printed -= optional
    if invoice.iban:
        printed.add("iban")
    return Rendering(target.read_bytes(), invoice, frozenset(printed), frozenset(optional), language="en",
                     item_cells=("quantity", "unit_price", "amount"),
                     options={"template": template_name, "with_tax": with_tax, "tax_id": with_tax_id})


def _place_comma(address: Address) -> Address:
    """The address as the template prints it: street lines, then "city, postcode"."""
    city = address.city.rstrip(",")
    return replace(address, place_line=f"{city}, {address.postcode}" if city and address.postcode else city or
                   address.postcode)


RENDERERS = (
    Renderer("simple-html-invoice", "invoicepy 0.1.2 (PyPI; sparksuite's simple-html-invoice-template)", "MIT",
             "the web's common simple HTML invoice printed by WeasyPrint: logo, 'Invoice: NAME' / Date / Due top "
             "right, Seller and Buyer blocks, grey-headed table with VAT %, totals stacked in one cell, bank lines; "
             "English or English/Lithuanian, €1234.50, ISO dates",
             render, missing, isolated_package_version("invoicepy"), max_items=30),
)
