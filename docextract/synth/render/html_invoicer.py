"""html-invoicer 1.0.3 (npm, ISC; janouma): a French freelancer's HTML invoice, printed by WeasyPrint.

The package's CLI fills ``example/template.html`` (ES6 template strings: ``${id}``, ``${date}``, ``${qty}``,
``${price}``, ``${taxeFreeSum}``, ``${vat}``, ``${sum}``) from a data module and prints it with Puppeteer. Its page: a
centred "Facture" title; the issuer's name and address at the left and, at the right, "N° de facture", "Date de
facturation", "N° d'identification SIREN" and "N° d'enregistrement TVA" each beside its value; "À:" over the client's
name, address and "SIRET:"; "Objet:" and the subject; a bordered table (Description, Unités, Tarif, Total Net,
TVA (20%), Total TTC) ending in "Total de la facture" with the net, VAT and gross sums, and "Total à payer" under the
table; "Par virement sur le compte:" over a picture of the bank details. Names and addresses are set with
``text-transform: capitalize``; amounts as ``toLocaleString('fr')`` writes them (``14 640,00 €``, a narrow no-break
space between the groups), dates ``25/11/2019``.

The template is an example its user edits: the issuer, its SIREN and VAT number, the client, the subject and the
item row are written into it here (one row per item, as the row is written), and the VAT rate in its heading. Only
the package's files are read (``scripts/setup-render.sh`` installs it with npm, without Puppeteer's browser), and
WeasyPrint prints the page instead of Puppeteer's Chromium.
"""

from __future__ import annotations

import html
import random
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from docextract.synth.render.base import Renderer, Rendering, python_package_missing
from docextract.synth.render.content import CENT, RenderInvoice
from docextract.synth.render.node import node_dir, npm_package_version

PACKAGE = "html-invoicer"
VERSION = "1.0.3"
SUBJECTS = ("prestation de conseil", "développement logiciel", "maintenance annuelle", "formation",
            "travaux de rénovation", "fourniture de matériel")
ROW = """      <tr>
        <th class="border left-align semi-bold">Entourloupes & arnaques</th>
        <td class="border right-align">${qty}</td>
        <td class="border right-align">${price} €</td>
        <td class="border right-align">${taxeFreeSum} €</td>
        <td class="border right-align">${vat} €</td>
        <td class="border right-align">${sum} €</td>
      </tr>
"""


def _example() -> Path:
    return node_dir() / "node_modules" / PACKAGE / "example"


def _fr(value: Decimal) -> str:
    """``Number.toLocaleString('fr', {minimumFractionDigits: 2})``: groups apart by U+202F, a decimal comma."""
    whole, _, cents = f"{value:,.2f}".partition(".")
    return whole.replace(",", "\u202f") + "," + cents


def _replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise RuntimeError(f"the html-invoicer template changed: {old[:40]!r} is not there once")
    return text.replace(old, new)


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    from weasyprint import HTML

    rate = invoice.single_rate if invoice.single_rate else Decimal(20)  # the heading's one rate
    items = tuple(replace(item, tax_rate=rate) for item in invoice.items)
    invoice = invoice.with_items(items).computed_as()
    folder = _example()
    page = (folder / "template.html").read_text(encoding="utf-8")
    vendor, customer = invoice.vendor, invoice.customer

    def address(lines: tuple[str, ...]) -> str:
        return " <br>\n          ".join(html.escape(line) for line in lines)

    rows = "".join(
        ROW.replace("Entourloupes & arnaques", html.escape(item.description))
        .replace("${qty}", f"{item.quantity.normalize():f}".replace(".", ","))
        .replace("${price}", _fr(item.unit_price)).replace("${taxeFreeSum}", _fr(item.amount))
        .replace("${vat}", _fr((item.amount * rate / 100).quantize(CENT, ROUND_HALF_UP)))
        .replace("${sum}", _fr((item.amount * (100 + rate) / 100).quantize(CENT, ROUND_HALF_UP)))
        for item in invoice.items)
    siren = f"{rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}"
    siret = f"{rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(10, 99):05d}"
    with_tax_id = bool(vendor.tax_id)
    for old, new in (
            ("guillaume debailly", html.escape(vendor.name)),
            ("35 rue de la malverse <br>\n          75000 PARIS", address(vendor.address.printed_lines())),
            ("000 000 007", siren), ("FR00123456789", html.escape(vendor.tax_id) if with_tax_id else "-"),
            ("bureau des légendes", html.escape(customer.name)),
            ("36 boulevard des orfèvres<br>\n      75000 PARIS <br>",
             address(customer.address.printed_lines()) + " <br>"),
            ("B 700 000 000", siret),
            ("prestation d'espionnage", html.escape(rng.choice(SUBJECTS))),
            ("TVA (20%)", f"TVA ({rate.normalize():f}%)".replace(".", ",")),
            (ROW, rows),
            ("${id}", html.escape(invoice.invoice_number)),
            ("${date}", invoice.invoice_date.strftime("%d/%m/%Y"))):
        page = _replace_once(page, old, new)
    # the totals row and the caption: the net, the VAT and the gross sums
    page = page.replace("${taxeFreeSum}", _fr(invoice.subtotal)).replace("${vat}", _fr(invoice.total_tax))
    page = page.replace("${sum}", _fr(invoice.total))
    target = scratch / "invoice.pdf"
    HTML(string=page, base_url=str(folder)).write_pdf(target)
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "total"}
    if with_tax_id:
        printed.add("vendor_tax_id")
    # the net and VAT sums stand in the table's last row under the items' columns: with one item (or one item's
    # amounts equal to them) the matcher cannot tell them from the item's, and masks them
    optional = {"currency", "subtotal", "total_tax"}
    invoice = replace(invoice, currency="EUR", due_date=None, purchase_order="", payment_terms="",
                      shipping_address=None, iban="", bic="")
    return Rendering(target.read_bytes(), invoice, frozenset(printed), frozenset(optional), language="fr",
                     options={"rate": str(rate)})


def _missing() -> str | None:
    if not (_example() / "template.html").is_file():
        return f"the npm package {PACKAGE}@{VERSION} is not installed in {node_dir()} (scripts/setup-render.sh)"
    return python_package_missing("weasyprint")()


RENDERERS = (
    Renderer("html-invoicer", f"{PACKAGE} {VERSION} (npm; its HTML template printed by WeasyPrint)", "ISC",
             "French freelancer's invoice: 'Facture' title, issuer left, 'N° de facture' / 'Date de facturation' / "
             "SIREN / 'N° d'enregistrement TVA' beside their values right, 'À:' over the client, 'Objet:', bordered "
             "table (Unités, Tarif, Total Net, TVA, Total TTC) with 'Total de la facture' and 'Total à payer'",
             render, _missing, npm_package_version(PACKAGE), locales=("fr_FR",), max_items=12, tax_rates=1),
)
