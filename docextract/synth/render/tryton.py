"""Tryton's customer invoice report (trytond_account_invoice 8.2, PyPI, GPL-3.0): an ERP's own invoice layout.

Tryton prints an invoice from ``invoice.fodt``, a LibreOffice document with Genshi directives that relatorio fills
and LibreOffice turns into a PDF: the company's header lines (its address, as the company's settings hold them)
centred at the top, its name (or logo) at the left; the invoice address block at the right, with the customer's
tax identifier under it; "Invoice No: NUMBER", "Description:", "Reference:", "Date:" and the company's tax
identifier at the left; a table of description, quantity with its unit symbol, unit price with the price's four
decimals (``€12.5000``), tax references "[1]" and amount; under it a tax table (tax, base, amount) beside "Total
(excl. taxes):", "Taxes:" and "Total:"; the payment term, a date/amount table of the amounts to pay (the due date),
the comment, and the company's footer lines. Labels in the module's own translations (the locale's ``.po``),
dates and money as Tryton's language records write them (``1.234,56 €``, ``€1,234.56``, ``€ 1 234,56``).

The report is driven as Tryton's ``Report.render`` drives it: relatorio's OpenDocument template with Genshi's
``Translator`` filter fed the module's translations, the record and Tryton's ``format_*`` helpers given as plain
values; ``soffice --headless --convert-to pdf`` prints it. relatorio, Genshi and the module are installed apart
(``scripts/setup-render.sh``); LibreOffice Writer comes from Debian (``libreoffice-writer-nogui``).
"""

from __future__ import annotations

import datetime as dt
import io
import os
import random
import re
import subprocess
import tempfile
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from types import SimpleNamespace

from PIL import Image

from docextract.synth.render.base import (RenderFailed, Renderer, Rendering, import_isolated, isolated_module_path,
                                          isolated_package_missing, isolated_package_version, program_missing)
from docextract.synth.render.content import Address, RenderInvoice
from docextract.synth.render.logos import logo_png

MODULE = "trytond/modules/account_invoice"
PRICE = Decimal("0.0001")


@dataclass(frozen=True)
class _Lang:
    """The fields of Tryton's ``ir.lang`` records (``trytond/ir/lang.xml``) its money and date formats read."""

    date: str
    decimal: str
    thousands: str
    symbol_first: bool  # p_cs_precedes
    space: bool  # p_sep_by_space


_LANGS = {
    "en": _Lang("%m/%d/%Y", ".", ",", True, False),
    "de": _Lang("%d.%m.%Y", ",", ".", False, True),
    "fr": _Lang("%d.%m.%Y", ",", " ", False, True),
    "es": _Lang("%d/%m/%Y", ",", ".", False, True),
    "it": _Lang("%d/%m/%Y", ",", ".", True, True),
    "nl": _Lang("%d-%m-%Y", ",", " ", True, True),
}
_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}  # Tryton's currency records; others print their code
# the tax's description, as an accountant names the tax record
_TAX_NAMES = {"en": ("VAT {rate}%", "VAT {rate} %", "Sales tax {rate}%"), "de": ("MwSt. {rate}%", "USt {rate} %"),
              "fr": ("TVA {rate} %", "TVA collectée {rate}%"), "es": ("IVA {rate}%", "IVA {rate} %"),
              "it": ("IVA {rate}%", "IVA {rate} %"), "nl": ("BTW {rate}%", "Btw {rate} %")}
# A party's tax identifier prints its type's name (trytond_party 8.2's selection, in its translations), then the code;
# the type as Tryton guesses it from the code; an untyped identifier prints no name
_IDENTIFIER_TYPES = (
    (re.compile(r"(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK) ?\w"),
     {"en": "European VAT Number", "de": "Europäische USt-IdNr.", "fr": "Numéro de TVA européen",
      "nl": "Europees BTW-nummer", "es": "Identificador fiscal Europeo"}),
    (re.compile(r"GB ?\d"), {"en": "United Kingdom (and Isle of Man) VAT Number",
                            "de": "Britische (und Isle of Man) Umsatzsteuer-Identifikationsnummer (VAT)",
                            "fr": "Numéro de TVA britannique (et mannois)",
                            "nl": "BTW-nummer van het Verenigd Koninkrijk (en Isle of Man)",
                            "es": "Identificador fiscal del Reino Unido"}),
    (re.compile(r"CHE"), {"en": "Swiss VAT Number", "de": "Schweizer Mehrwertsteuernummer (VAT, MWST, TVA, IVA, TPV)",
                          "fr": "Numéro de TVA suisse", "nl": "Zwitsers BTW-nummer",
                          "es": "Identificador fiscal Suizo"}),
    (re.compile(r"\d{2}-\d{7}$"), {"en": "U.S. Employer Identification Number",
                                  "de": "US-amerikanische Angestelltenidentifikationsnummer (EIN)",
                                  "fr": "Numéro d'identification d'employé américain",
                                  "nl": "Amerikaans werkgeversidentificatienummer",
                                  "es": "Identificador de empresario de los EUA"}),
)
_DATE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{2,4}")
_DESCRIPTIONS = ("Services {month}", "Consulting {month}", "Order {order}", "Maintenance contract", "")
# LibreOffice keeps a profile per user; one per process lets two workers convert at once without a lock
_PROFILE = Path(tempfile.gettempdir()) / f"docextract-soffice-{os.getpid()}"


def _number(value: Decimal, lang: _Lang, digits: int) -> str:
    """``Lang.format('%.Nf', value, grouping=True, monetary=True)``: groups of three, the language's separators."""
    whole, _, fraction = f"{abs(value):,.{digits}f}".partition(".")
    text = whole.replace(",", lang.thousands) + (lang.decimal + fraction if digits else "")
    return ("-" if value < 0 else "") + text


def _money(value: Decimal, lang: _Lang, currency: str, digits: int = 2) -> str:
    """``Lang.currency``: the amount, then the symbol before or after it, apart by a space where the language says."""
    amount = _number(abs(value), lang, digits)
    symbol = _SYMBOLS.get(currency, currency)
    space = " " if lang.space or symbol == currency else ""
    text = symbol + space + amount if lang.symbol_first else amount + space + symbol
    return ("-" if value < 0 else "") + text


def _translations(language: str) -> dict[str, str]:
    """The report's strings in ``language`` from the module's ``locale/LANG.po`` (English: the template's own)."""
    if language == "en":
        return {}
    po = (isolated_module_path(MODULE) / "locale" / f"{language}.po").read_text(encoding="utf-8")
    entries = re.findall(r'msgctxt "([^"]*)"\nmsgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"', po)
    return {msgid: msgstr for context, msgid, msgstr in entries if context == "report:account.invoice:" and msgstr}


def _logo(name: str, rng: random.Random) -> tuple[bytes, str, str, str]:
    """What Tryton's ``Company.get_logo_cm(7, 3.5)`` gives: the PNG fitted into 7 x 3.5 cm, its size in cm."""
    data = logo_png(name, rng)
    width, height = Image.open(io.BytesIO(data)).size
    scale = min(7 / width, 3.5 / height)
    return data, "image/png", f"{width * scale:.2f}cm", f"{height * scale:.2f}cm"


class _Line(SimpleNamespace):
    unit_price = SimpleNamespace(digits=(16, 4))  # the template prints unit prices with the field's 4 digits


def _address_lines(name: str, address: Address) -> str:
    """``Address.full_address`` by Tryton's default format: the party's name, street, place, COUNTRY."""
    return "\n".join((name, *address.printed_lines(), *((address.country.upper(),) if address.country else ())))


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    Template = import_isolated("relatorio.templates.opendocument").Template  # noqa: N806 - the library's class
    Translator = import_isolated("genshi.filters").Translator  # noqa: N806

    language = invoice.language if invoice.language in _LANGS else "en"
    lang = _LANGS[language]
    invoice = invoice.computed_as(ROUND_HALF_EVEN)  # Tryton rounds each line, then each tax on its base
    # unit prices print with the price field's four decimals: the truth states them so, as the matcher reads them
    invoice = replace(invoice, items=tuple(replace(item, unit_price=item.unit_price.quantize(PRICE))
                                           for item in invoice.items))
    vendor, customer = invoice.vendor, invoice.customer
    tax_word = rng.choice(_TAX_NAMES[language])
    taxes, lines = [], []
    for number, rate in enumerate(invoice.tax_rates, start=1):
        percent = f"{rate.rate.normalize():f}".replace(".", lang.decimal)
        taxes.append(SimpleNamespace(sequence_number=number, description=tax_word.format(rate=percent),
                                     base=rate.basis, amount=rate.tax, legal_notice=""))
    tax_numbers = {rate.rate: number for number, rate in enumerate(invoice.tax_rates, start=1)}
    for item in invoice.items:
        whole = item.quantity == item.quantity.to_integral_value()
        unit = SimpleNamespace(symbol=item.unit or ("u" if whole else "h"), digits=0 if whole else 2)
        lines.append(_Line(type="line", product_name="", description=item.description, quantity=item.quantity,
                           unit=unit, unit_price=item.unit_price, amount=item.amount,
                           invoice_taxes=[SimpleNamespace(sequence_number=tax_numbers[item.tax_rate])]
                           if item.tax_rate in tax_numbers and item.tax_rate else []))

    address = vendor.address
    # the company's header and footer are its own settings: the address over the page, or on one footer line
    header_address = rng.random() < 0.7
    contact = [text for text in (vendor.phone and f"Tel. {vendor.phone}", vendor.email) if text and rng.random() < 0.6]
    header = [*address.printed_lines(), *contact] if header_address else contact
    footer_address = " - ".join((vendor.name, *address.printed_lines())) if not header_address else ""
    with_iban = bool(invoice.iban) and rng.random() < 0.7
    iban = " ".join(invoice.iban[i:i + 4] for i in range(0, len(invoice.iban), 4))
    bank = " - ".join(part for part in (f"IBAN {iban}" if with_iban else "",
                                        f"BIC {invoice.bic}" if with_iban and invoice.bic else "") if part)
    footer = [text for text in (footer_address, bank) if text]
    with_tax_id = bool(vendor.tax_id) and rng.random() < 0.75
    with_customer_tax_id = bool(customer.tax_id) and rng.random() < 0.5
    with_logo = rng.random() < 0.4
    with_reference = bool(invoice.purchase_order) and rng.random() < 0.6
    with_due = invoice.due_date is not None and rng.random() < 0.85
    # a payment term is a record shared by many invoices ("30 days net"): one that names a date is not Tryton's
    with_terms = bool(invoice.payment_terms) and not _DATE.search(invoice.payment_terms) and rng.random() < 0.6
    # a note that states a date or an amount would print the due date twice (the matcher then cannot tell them)
    comment = next((note for note in invoice.notes if not re.search(r"\d", note)), "") if rng.random() < 0.5 else ""
    month = invoice.invoice_date.strftime("%m/%Y")
    description = rng.choice(_DESCRIPTIONS).format(month=month, order=invoice.purchase_order or "")

    def identifier(tax_id: str):
        names = next((names for shape, names in _IDENTIFIER_TYPES if shape.match(tax_id)), {"en": ""})
        return SimpleNamespace(type_string=names.get(language, names["en"]), code=tax_id)

    company = SimpleNamespace(header="\n".join(header), footer="\n".join(footer), header_used="\n".join(header),
                              footer_used="\n".join(footer), rec_name=vendor.name,
                              logo=with_logo, get_logo_cm=lambda w, h: _logo(vendor.name, rng))
    record = SimpleNamespace(
        company=company, party=SimpleNamespace(lang=language), type="out", state="posted",
        invoice_address=SimpleNamespace(full_address=_address_lines(customer.name, customer.address)),
        party_tax_identifier=identifier(customer.tax_id) if with_customer_tax_id else None,
        tax_identifier=identifier(vendor.tax_id) if with_tax_id else None,
        number=invoice.invoice_number, description=description, origins="",
        reference=invoice.purchase_order if with_reference else "", invoice_date=invoice.invoice_date,
        lines=lines, taxes=taxes, untaxed_amount=invoice.subtotal, tax_amount=invoice.total_tax,
        total_amount=invoice.total, currency=SimpleNamespace(code=invoice.currency, digits=2),
        payment_term=SimpleNamespace(description=invoice.payment_terms) if with_terms else None,
        lines_to_pay=[SimpleNamespace(maturity_date=invoice.due_date, amount_second_currency=None, reconciliation=None,
                                      debit=invoice.total, credit=Decimal(0))] if with_due else [],
        customer_payment_reference=None, payment_means=[], comment=comment,
        set_lang=lambda _: "")

    translations = _translations(language)
    template = Template(source=None, filepath=str(isolated_module_path(MODULE) / "invoice.fodt"))
    translator = Translator(lambda text: translations.get(text, text))
    template.filters.append(translator)  # after the directives, as Tryton's Report._callback_loader adds it
    template.add_directives(Translator.NAMESPACE, translator)

    def money(value, _lang, currency, digits=None, **_):
        return _money(value, lang, currency.code, 2 if digits is None else digits)

    context = dict(
        records=[record], invoice=record, set_lang=lambda _: "", today=invoice.invoice_date, datetime=dt,
        format_date=lambda day, _lang: day.strftime(lang.date), format_currency=money,
        format_number=lambda value, _lang, digits=2, **_: _number(value, lang, digits),
        format_number_symbol=lambda value, _lang, symbol, digits=2, **_: (
            f"{_number(value, lang, digits)} {symbol.symbol}"))
    source = scratch / "invoice.fodt"
    source.write_bytes(template.generate(**context).render().getvalue())
    try:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{_PROFILE}", "--headless", "--norestore",
                        "--convert-to", "pdf", "--outdir", str(scratch), str(source)],
                       check=True, capture_output=True, timeout=180)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        raise RenderFailed(f"LibreOffice could not print the report: {error}") from error
    target = scratch / "invoice.pdf"
    if not target.is_file():
        raise RenderFailed("LibreOffice wrote no PDF")

    printed = {"invoice_number", "invoice_date", "customer_name", "billing_address", "subtotal", "total"}
    # keyed by a word the matcher may not tie; the due date stands under the payment table's "Date" heading, which
    # the matcher reads as the invoice date's key
    optional = {"currency", "payment_terms", "purchase_order", "iban", "due_date"}
    # the logo stands where the name would: the name is then printed only in a footer line, if there
    (optional if with_logo else printed).add("vendor_name")
    if invoice.total_tax:
        printed.add("total_tax")
    if with_tax_id:
        printed.add("vendor_tax_id")
    (printed if header_address else optional).add("vendor_address")  # the footer's line: name - street - place
    invoice = replace(invoice, due_date=invoice.due_date if with_due else None, shipping_address=None,
                      purchase_order=invoice.purchase_order if with_reference else "",
                      payment_terms=invoice.payment_terms if with_terms else "",
                      iban=invoice.iban if with_iban else "", bic=invoice.bic if with_iban else "",
                      vendor=vendor if with_tax_id else replace(vendor, tax_id="", tax_id_value=""))
    return Rendering(target.read_bytes(), invoice, frozenset(printed), frozenset(optional), language=language,
                     options={"language": language, "logo": with_logo, "header_address": header_address,
                              "reference": with_reference, "due": with_due})


def _missing() -> str | None:
    for module, requirement in (("relatorio", "relatorio==1.0.0"), ("genshi", "Genshi==0.7.12"),
                                ("puremagic", "puremagic==1.30")):
        reason = isolated_package_missing(module, requirement, needs=("lxml",))()
        if reason:
            return reason
    reason = isolated_package_missing(MODULE, "trytond_account_invoice==8.2.0", files=("invoice.fodt",))()
    return reason or program_missing("soffice", "Debian: apt-get install libreoffice-writer-nogui")


RENDERERS = (
    Renderer("tryton", "trytond_account_invoice 8.2.0 (PyPI; relatorio + LibreOffice)", "GPL-3.0-or-later",
             "Tryton ERP's customer invoice report: company header lines centred, its name or logo left, invoice "
             "address block right, 'Invoice No:' / Description / Reference / Date and the company's tax identifier "
             "left, item table with unit symbols and 4-decimal unit prices, tax table beside the totals, payment "
             "term and amounts-to-pay table with due dates, footer lines; labels in 6 languages from its .po files",
             render, _missing, isolated_package_version("trytond_account_invoice"), max_items=20),
)
