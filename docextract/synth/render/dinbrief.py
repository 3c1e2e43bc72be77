"""dinbrief (PyPI; BSD-2-Clause OR MIT OR Apache-2.0): German business letters after DIN 5008 / DIN 676 (reportlab).

A window-envelope letter: the sender on one small line above the recipient's address, an info box at the
top right (we fill it with key/value pairs, the key above its value), the date right-aligned, a subject
line, then the package's item table (position, description, unit price, quantity, line total), its totals
table (net sum, one VAT row per rate, gross sum) and optionally its bank-transfer form. Labels in English,
or German through the package's own translation catalogue (what it shows under Django with ``LANGUAGE_CODE
= "de"``), numbers ``1234.50`` or German ``1.234,50``. The words around the values we add (infobox keys,
subject, payment sentence) come from the synthetic generator's vocabulary in the invoice's language.
"""

from __future__ import annotations

import gettext
import random
from dataclasses import replace
from decimal import ROUND_HALF_EVEN
from io import BytesIO
from pathlib import Path
from xml.sax.saxutils import escape

from docextract.synth.render.base import Renderer, Rendering, python_package_missing, python_package_version
from docextract.synth.render.content import RenderInvoice
from docextract.synth.vocab import VOCAB

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}


def _german_number(value, decimal_places=None) -> str:
    text = f"{value:,.{decimal_places or 0}f}"
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def _patch_language(german: bool) -> None:
    """Point the package's gettext and number_format at German (its catalogue) or back at English."""
    import dinbrief
    from dinbrief import optional_django
    from dinbrief.invoice import bank_transfer_form, item_table, total_table

    if german:
        catalogue = gettext.translation("django", str(Path(dinbrief.__file__).parent / "locale"), ["de"])
        translate, numbers = catalogue.gettext, _german_number
    else:
        translate, numbers = optional_django.gettext, optional_django.number_format
    for module in (item_table, total_table, bank_transfer_form):
        module._ = translate
        module.number_format = numbers


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    from dinbrief.document import Document
    from dinbrief.invoice import BankTransferForm, Invoice, Item, ItemTable, TotalTable
    from dinbrief.styles import styles
    from dinbrief.template import BriefTemplate
    from reportlab.platypus import Paragraph, Spacer

    german = invoice.language == "de" or (invoice.language != "en" and rng.random() < 0.5)
    words = VOCAB["de" if german else "en"]  # the package speaks German or English: our words too
    invoice = invoice.computed_as(ROUND_HALF_EVEN, exact=True)  # f"{Decimal:.2f}" of unrounded sums
    symbol = SYMBOLS.get(invoice.currency, invoice.currency) if rng.random() < 0.7 else invoice.currency
    _patch_language(german)
    units = rng.random() < 0.4  # printed glued to the unit price ("2.003,10/Std."): that cell is then not labelled
    items = [Item(n, item.description, price=item.unit_price, unit=item.unit if units else "", quantity=item.quantity,
                  vat_rate=item.tax_rate / 100) for n, item in enumerate(invoice.items, start=1)]
    package_invoice = Invoice(items=items, currency=symbol)

    def key(name: str) -> str:
        return escape(rng.choice(words[name]).rstrip(":"))

    info = [(key("invoice_number"), invoice.invoice_number)]
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "subtotal", "total"}
    if invoice.purchase_order and rng.random() < 0.7:
        info.append((key("purchase_order"), invoice.purchase_order))
        printed.add("purchase_order")
    if invoice.vendor.tax_id and rng.random() < 0.7:
        info.append((key("tax_id"), invoice.vendor.tax_id))
        printed.add("vendor_tax_id")
    infobox = []
    for name, value in info:
        infobox += [Paragraph(name, styles["InfoboxTitle"]), Paragraph(escape(value), styles["InfoboxText"])]
    date_text = invoice.date_text(invoice.invoice_date)
    if rng.random() < 0.5:
        infobox += [Paragraph(key("invoice_date"), styles["InfoboxTitle"]), Paragraph(date_text, styles["InfoboxText"])]
        date_line = ""
    else:
        date_line = date_text
    title = rng.choice(words["credit_title" if invoice.is_credit_note else "title"])
    content = [Paragraph(f"{escape(title)} {escape(invoice.invoice_number)}", styles["Subject"]),
               Paragraph(escape(rng.choice(words["salutation_line"])), styles["Greeting"]),
               Paragraph(escape(rng.choice(words["intro"])), styles["Message"]), Spacer(0, 12),
               ItemTable(BriefTemplate(), package_invoice), TotalTable(BriefTemplate(), package_invoice)]
    if not any(rate.rate for rate in invoice.tax_rates):
        printed -= {"total"}  # without VAT the package prints the one sum under "Sum (net)"
    elif len(invoice.tax_rates) == 1:
        printed.add("total_tax")
    if invoice.due_date:
        content.append(Paragraph(f"{key('due_date')}: {invoice.date_text(invoice.due_date)}", styles["Text"]))
        printed.add("due_date")
    if invoice.payment_terms:
        content.append(Paragraph(escape(invoice.payment_terms), styles["Text"]))
        printed.add("payment_terms")
    form = bool(invoice.iban) and rng.random() < 0.5
    if form:
        content += [Spacer(0, 14), BankTransferForm(invoice.vendor.name, invoice.iban, invoice.bic or "", invoice.invoice_number,
                                                    invoice.total, currency=invoice.currency, currency_label=symbol)]
        printed.add("iban")
    sender = [invoice.vendor.name, *invoice.vendor.address.printed_lines()]
    recipient = [invoice.customer.name, *invoice.customer.address.printed_lines()]
    document = Document(sender=sender, recipient=recipient, infobox=infobox, date=date_line, content=content,
                        title=f"{title} {invoice.invoice_number}", author=invoice.vendor.name)
    buffer = BytesIO()
    BriefTemplate().render(document, buffer)
    if not date_line:
        printed.add("invoice_date")
    invoice = replace(invoice, amount_due=invoice.total)
    cells = ("quantity", "amount") if units and any(item.unit for item in invoice.items) else (
        "quantity", "unit_price", "amount")
    return Rendering(buffer.getvalue(), invoice, frozenset(printed), frozenset({"currency"}), item_cells=cells,
                     language="de" if german else "en",
                     options={"german": german, "currency_shown": symbol, "bank_form": form,
                              "date_in_infobox": not date_line})


RENDERERS = (
    Renderer("dinbrief", "dinbrief 0.5.2 (PyPI)", "BSD-2-Clause OR MIT OR Apache-2.0",
             "DIN 5008 window-envelope letter: sender line over the address, key-over-value info box top right, "
             "date right-aligned, subject, item table, net/VAT/gross totals, optional bank-transfer form",
             render, python_package_missing("dinbrief"), python_package_version("dinbrief"),
             locales=("de_DE", "de_DE", "de_DE", "en_GB", "en_US"), credit_notes=False, max_items=40),
)
