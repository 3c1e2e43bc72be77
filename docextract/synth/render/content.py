"""What a renderer prints: one invoice's values, typed, whoever chose them.

:class:`RenderInvoice` is the content every renderer adapter reads: parties, dates, line items, totals per
tax rate, as ``Decimal`` and ``date`` values (the renderers format them themselves, each its own way), plus
the texts a renderer that takes strings prints (dates and amounts as the content's locale writes them).
It comes from two places:

* :func:`from_synthetic`: the synthetic generator's :class:`~docextract.synth.content.InvoiceContent` (its
  vendors, customers, addresses, items, locales, currencies, credit notes);
* :func:`from_embedded`: a real e-invoice's embedded XML (:class:`docextract.readers.einvoice.EmbeddedInvoice`,
  read duck-typed: this package may not import the readers), its line items and totals as the XML states them.

:meth:`RenderInvoice.field_values` gives the typed values :func:`docextract.extraction.locate.locate_fields`
looks for on the rendered page; an :class:`Address` has the attributes that matcher reads (``lines``,
``postcode``, ``city``, ``country``), like the readers' ``PostalAddress``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from docextract.synth import wordlists as w
from docextract.synth.content import LOCALE_FORMATS, InvoiceContent, format_date, format_number

CENT = Decimal("0.01")
_COUNTRY_LINES = frozenset(name for names in w.COUNTRY_NAMES.values() for name in names)


@dataclass(frozen=True)
class Address:
    """Street lines, then postcode and city (printed ``postcode city`` on one line), and a country name."""

    lines: tuple[str, ...] = ()
    postcode: str = ""
    city: str = ""
    country: str = ""  # printed on its own line by renderers that have one; never located
    place_line: str = ""  # how the content prints postcode and city ("Portland, OR 97205"); default "postcode city"

    @property
    def place(self) -> str:
        return self.place_line or " ".join(p for p in (self.postcode, self.city) if p)

    def printed_lines(self) -> tuple[str, ...]:
        return tuple(line for line in (*self.lines, self.place) if line)

    def __bool__(self) -> bool:
        return bool(self.printed_lines())


@dataclass(frozen=True)
class Party:
    name: str
    address: Address = field(default_factory=Address)
    tax_id: str = ""  # as printed
    tax_id_value: str = ""  # compact (what `fields` holds)
    email: str = ""
    phone: str = ""


@dataclass(frozen=True)
class Item:
    description: str
    quantity: Decimal
    unit_price: Decimal  # net, per unit
    amount: Decimal  # net, the line's total
    tax_rate: Decimal = Decimal(0)  # percent
    unit: str = ""


@dataclass(frozen=True)
class TaxRate:
    rate: Decimal  # percent
    basis: Decimal
    tax: Decimal


@dataclass(frozen=True)
class RenderInvoice:
    """One invoice's content for the renderers. ``group`` names the content (shared by all its renderings)."""

    group: str
    origin: str  # "synthetic" | "einvoice"
    locale: str  # one of content.LOCALES (an e-invoice: by its language and currency)
    language: str
    currency: str  # ISO 4217
    document_type: str  # "invoice" | "credit_note"
    invoice_number: str
    invoice_date: dt.date
    due_date: dt.date | None
    purchase_order: str
    vendor: Party
    customer: Party
    shipping_address: Address | None
    items: tuple[Item, ...]
    tax_rates: tuple[TaxRate, ...]
    subtotal: Decimal
    total_tax: Decimal
    total: Decimal
    amount_due: Decimal
    payment_terms: str = ""
    iban: str = ""  # compact
    bic: str = ""
    notes: tuple[str, ...] = ()
    date_style: str = "iso"  # content.format_date style, for renderers that print the strings we give
    grouping: bool = True

    @property
    def is_credit_note(self) -> bool:
        return self.document_type == "credit_note"

    @property
    def single_rate(self) -> Decimal | None:
        """The one tax rate of every line, or None when lines differ (renderers with one rate need it)."""
        rates = {item.tax_rate for item in self.items}
        return rates.pop() if len(rates) == 1 else None

    def date_text(self, day: dt.date) -> str:
        return format_date(day, self.date_style)

    def money_text(self, value: Decimal, places: int = 2) -> str:
        return format_number(value, LOCALE_FORMATS[self.locale], places=places, grouping=self.grouping)

    def with_items(self, items: tuple[Item, ...]) -> RenderInvoice:
        """The same invoice with other items and the totals recomputed from them (one basis per rate)."""
        return replace(self, items=items, **_totals(items))

    def computed_as(self, rounding: str = ROUND_HALF_UP, exact: bool = False) -> RenderInvoice:
        """The totals as a renderer that computes them prints them: line amount = quantity x unit price,
        rounded with ``rounding`` (``decimal.ROUND_HALF_EVEN`` where a renderer formats with ``f"{x:.2f}"``);
        ``exact``: the net total, each rate's tax and the grand total rounded from the unrounded sums (a
        renderer that keeps full precision until it prints), else from the rounded line amounts."""
        lines = tuple(replace(i, amount=(i.quantity * i.unit_price).quantize(CENT, rounding)) for i in self.items)
        if not exact:
            return replace(self, items=lines, **_totals(lines, rounding))
        by_rate: dict[Decimal, Decimal] = {}
        for item in self.items:
            by_rate[item.tax_rate] = by_rate.get(item.tax_rate, Decimal(0)) + item.quantity * item.unit_price
        taxes = {rate: basis * rate / 100 for rate, basis in by_rate.items()}
        rates = tuple(TaxRate(rate, by_rate[rate].quantize(CENT, rounding), taxes[rate].quantize(CENT, rounding))
                      for rate in sorted(by_rate, reverse=True))
        net = sum(by_rate.values(), Decimal(0))
        total = (net + sum(taxes.values(), Decimal(0))).quantize(CENT, rounding)
        return replace(self, items=lines, tax_rates=rates, subtotal=net.quantize(CENT, rounding),
                       total_tax=sum(taxes.values(), Decimal(0)).quantize(CENT, rounding), total=total, amount_due=total)

    def field_values(self, printed: frozenset[str] | set[str]) -> dict[str, Any]:
        """The typed values of the ``printed`` fields that this invoice has (what the matcher looks for)."""
        values: dict[str, Any] = {
            "invoice_number": self.invoice_number, "invoice_date": self.invoice_date, "due_date": self.due_date,
            "purchase_order": self.purchase_order, "vendor_name": self.vendor.name,
            "vendor_address": self.vendor.address, "vendor_tax_id": self.vendor.tax_id_value,
            "customer_name": self.customer.name, "billing_address": self.customer.address,
            "shipping_address": self.shipping_address, "subtotal": self.subtotal, "total_tax": self.total_tax,
            "total": self.total, "amount_due": self.amount_due, "currency": self.currency,
            "payment_terms": self.payment_terms, "iban": self.iban,
        }
        return {k: v for k, v in values.items() if k in printed and v not in (None, "") and not (
            isinstance(v, Address) and not v)}


def _totals(items: tuple[Item, ...], rounding: str = ROUND_HALF_UP) -> dict[str, Any]:
    by_rate: dict[Decimal, Decimal] = {}
    for item in items:
        by_rate[item.tax_rate] = by_rate.get(item.tax_rate, Decimal("0.00")) + item.amount
    rates = tuple(TaxRate(rate, basis, (basis * rate / 100).quantize(CENT, rounding))
                  for rate, basis in sorted(by_rate.items(), reverse=True))
    subtotal = sum((r.basis for r in rates), Decimal("0.00"))
    tax = sum((r.tax for r in rates), Decimal("0.00"))
    return {"tax_rates": rates, "subtotal": subtotal, "total_tax": tax, "total": subtotal + tax,
            "amount_due": subtotal + tax}


# ---------------------------------------------------------------- synthetic content


def _synthetic_address(lines: tuple[str, ...], locale: str) -> Address:
    """The generator's printed lines as street lines + postcode and city (+ a country line)."""
    lines = tuple(lines)
    country = ""
    if lines and lines[-1] in _COUNTRY_LINES:
        country, lines = lines[-1], lines[:-1]
    if locale == "en_GB" and len(lines) >= 3:  # "12 High St", "London", "EC1A 1BB": one place line here
        return Address(lines[:-2], lines[-1], lines[-2], country, f"{lines[-2]} {lines[-1]}")
    *street, place = lines
    if "," in place:  # "Springfield, IL 62701"
        city, _, postcode = place.partition(",")
        return Address(tuple(street), postcode.strip(), city.strip() + ",", country, place)
    postcode, _, city = place.partition(" ")
    return Address(tuple(street), postcode, city, country)


def from_synthetic(content: InvoiceContent, group: str) -> RenderInvoice:
    """The generator's invoice as render content (its discounts, prepayments and rounding left out: the
    totals are recomputed from the items, one basis per tax rate, as the generator computes them)."""
    loc = content.locale
    items = tuple(Item(li.description, li.quantity_value, li.unit_price_value, li.amount_value, li.tax_rate_value,
                       li.unit) for li in content.line_items)
    vendor, customer = content.vendor, content.customer
    notes = tuple(" ".join(part for part, _ in note) for note in content.notes)
    base = RenderInvoice(
        group=group, origin="synthetic", locale=loc, language=content.language, currency=content.currency,
        document_type=content.document_type, invoice_number=content.invoice_number,
        invoice_date=content.invoice_date_value, due_date=content.due_date_value,
        purchase_order=content.purchase_order,
        vendor=Party(vendor.name, _synthetic_address(vendor.address, loc), vendor.tax_id, vendor.tax_id_normalized,
                     vendor.email, vendor.phone),
        customer=Party(customer.name, _synthetic_address(customer.address, loc)),
        shipping_address=_synthetic_address(content.shipping_address, loc) if content.shipping_address else None,
        items=items, tax_rates=(), subtotal=Decimal(0), total_tax=Decimal(0), total=Decimal(0),
        amount_due=Decimal(0), payment_terms=content.payment_terms, iban=content.iban.replace(" ", ""),
        notes=notes, date_style=content.date_style, grouping=content.grouping)
    return base.with_items(items)


# ---------------------------------------------------------------- a real e-invoice's values

_LANGUAGE_LOCALE = {"de": "de_DE", "fr": "fr_FR", "en": "en_GB", "nl": "nl_NL", "it": "it_IT", "es": "es_ES"}


def _embedded_address(address: Any) -> Address:
    if not address:
        return Address()
    return Address(tuple(address.lines), address.postcode, address.city, "")


def from_embedded(invoice: Any, group: str, locale: str = "de_DE") -> RenderInvoice | None:
    """A real e-invoice's XML values (an ``EmbeddedInvoice``) as render content; None when it lacks what
    every renderer prints (number, date, seller, buyer, grand total, line items with amounts)."""
    items = tuple(Item(line.description or "-", line.quantity if line.quantity is not None else Decimal(1),
                       line.unit_price if line.unit_price is not None else line.amount, line.amount)
                  for line in invoice.line_items if line.amount is not None)
    if not (invoice.invoice_number and invoice.invoice_date and invoice.vendor_name and invoice.customer_name
            and invoice.total is not None and items):
        return None
    subtotal = invoice.subtotal if invoice.subtotal is not None else sum((i.amount for i in items), Decimal(0))
    tax = invoice.total_tax if invoice.total_tax is not None else invoice.total - subtotal
    rate = (tax / subtotal * 100).quantize(Decimal("0.1"), ROUND_HALF_UP).normalize() if subtotal else Decimal(0)
    items = tuple(replace(item, tax_rate=rate) for item in items)
    credit = invoice.type_code == "381" or invoice.total < 0
    date_style = {"de_DE": "de_numeric", "fr_FR": "eu_slash", "en_GB": "eu_slash"}.get(locale, "iso")
    return RenderInvoice(
        group=group, origin="einvoice", locale=locale, language=LOCALE_FORMATS[locale].language,
        currency=invoice.currency or "EUR", document_type="credit_note" if credit else "invoice",
        invoice_number=invoice.invoice_number, invoice_date=invoice.invoice_date, due_date=invoice.due_date,
        purchase_order=invoice.purchase_order,
        vendor=Party(invoice.vendor_name, _embedded_address(invoice.vendor_address), invoice.vendor_tax_id,
                     invoice.vendor_tax_id.replace(" ", "")),
        customer=Party(invoice.customer_name, _embedded_address(invoice.billing_address)),
        shipping_address=_embedded_address(invoice.shipping_address) or None,
        items=items, tax_rates=(TaxRate(rate, subtotal, tax),), subtotal=subtotal, total_tax=tax,
        total=invoice.total, amount_due=invoice.amount_due if invoice.amount_due is not None else invoice.total,
        payment_terms=" ".join(invoice.payment_terms.split()), iban=invoice.iban.replace(" ", ""), bic=invoice.bic,
        date_style=date_style)
