"""Invoice renderers from npm, run by Node: microinvoice, jspdf-invoice-template-nodejs, @h1dd3nsn1p3r/pdf-invoice.

The packages live outside the repository, in ``$DOCEXTRACT_RENDER_NODE`` (default
``~/.cache/docextract-render/node``, where scripts/setup-render.sh installs them); a small driver script per
package (``js/``) reads the options we build as JSON and writes the PDF.

* **microinvoice** (MIT, PDFKit): a grey header band with the title and key/value pairs at the right, "Bill
  To" / "Bill From" blocks of lines with their tax ids, an item table whose last two columns sit at fixed
  positions, key/value totals, legal lines. Every word is ours (labels from the generator's vocabulary in the
  invoice's language, amounts and dates printed as the content's locale prints them).
* **jspdf-invoice-template** (ISC, jsPDF): business block top right with a logo, "invoice issued for" block
  left, number and dates, a bordered or plain table with configurable columns, additional total rows
  (label, amount, currency), a note and footer; every label ours.
* **pdf-invoice** (MIT, pdfmake): "I N V O I C E" header with reference number, dates and status, company block,
  "Bill To", an item table with tax and discount columns, its own totals (subtotal with tax, total tax,
  grand total) formatted by ``Intl.NumberFormat`` in the content's locale; labels translated through its
  ``config.string`` table, one of the three PDF core font families.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from docextract.synth.render.base import RenderFailed, Renderer, Rendering
from docextract.synth.render.content import RenderInvoice
from docextract.synth.render.logos import logo_png
from docextract.synth.vocab import VOCAB

NODE_TIMEOUT_S = 120
SCRIPTS = Path(__file__).parent / "js"


def node_dir() -> Path:
    return Path(os.environ.get("DOCEXTRACT_RENDER_NODE", Path.home() / ".cache" / "docextract-render" / "node"))


def package_json(package: str) -> dict:
    try:
        return json.loads((node_dir() / "node_modules" / package / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def npm_package_missing(package: str):
    """Why the npm renderer ``package`` cannot run here (no node, or the package not installed), or None."""
    def missing() -> str | None:
        from shutil import which

        if which("node") is None:
            return "node is not installed (scripts/setup-render.sh)"
        if not package_json(package):
            return f"the npm package {package} is not installed in {node_dir()} (scripts/setup-render.sh)"
        return None
    return missing


def npm_package_version(package: str):
    return lambda: package_json(package).get("version", "not installed")


def run_driver(script: str, options: dict, scratch: Path, output: str = "out.pdf") -> bytes:
    """Run ``js/SCRIPT`` with ``options`` as JSON under Node; the file it wrote (``output`` in ``scratch``: its PDF,
    or for a driver that returns a page to print, that page)."""
    source, target = scratch / "options.json", scratch / output
    source.write_text(json.dumps(options, ensure_ascii=False), encoding="utf-8")
    env = {**os.environ, "NODE_PATH": str(node_dir() / "node_modules")}
    done = subprocess.run(["node", str(SCRIPTS / script), str(source), str(target)], env=env, capture_output=True,
                          encoding="utf-8", errors="replace", timeout=NODE_TIMEOUT_S, cwd=scratch)
    if done.returncode != 0 or not target.exists():
        raise RenderFailed(f"{script}: {(done.stderr or done.stdout).strip()[-200:]}")
    return target.read_bytes()


def _words(invoice: RenderInvoice, rng: random.Random):
    words = VOCAB[invoice.language]

    def key(name: str) -> str:
        return rng.choice(words[name]).rstrip(" :")
    return words, key


def _money(invoice: RenderInvoice, value: Decimal, rng_choice: str) -> str:
    text = invoice.money_text(value)
    return {"code_after": f"{text} {invoice.currency}", "code_before": f"{invoice.currency} {text}"}.get(rng_choice, text)


# ---------------------------------------------------------------- microinvoice


def render_microinvoice(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    words, key = _words(invoice, rng)
    style = rng.choice(("code_after", "code_before", "bare"))
    money = lambda v: _money(invoice, v, style)  # noqa: E731
    date = invoice.date_text
    header = [{"label": key("invoice_number"), "value": invoice.invoice_number},
              {"label": key("invoice_date"), "value": date(invoice.invoice_date)}]
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "subtotal", "total"}
    if invoice.due_date:
        header.append({"label": key("due_date"), "value": date(invoice.due_date)})
        printed.add("due_date")
    if invoice.purchase_order and rng.random() < 0.6:
        header.append({"label": key("purchase_order"), "value": invoice.purchase_order})
        printed.add("purchase_order")
    seller = [{"label": key("from"), "value": [invoice.vendor.name, *invoice.vendor.address.printed_lines(),
                                                 invoice.vendor.email]}]
    if invoice.vendor.tax_id:
        seller.append({"label": key("tax_id"), "value": invoice.vendor.tax_id})
        printed.add("vendor_tax_id")
    customer = [{"label": key("bill_to"), "value": [invoice.customer.name, *invoice.customer.address.printed_lines()]}]
    with_price = rng.random() < 0.7
    head = [{"value": key("description")}] + ([{"value": key("unit_price")}] if with_price else []) + \
        [{"value": key("quantity")}, {"value": key("amount")}]
    parts = [[{"value": item.description}] + ([{"value": money(item.unit_price)}] if with_price else []) +
             [{"value": invoice.money_text(item.quantity, places=0 if item.quantity == item.quantity.to_integral_value()
                                           else 2)}, {"value": money(item.amount)}] for item in invoice.items]
    total = [{"label": key("subtotal"), "value": money(invoice.subtotal)}]
    for rate in invoice.tax_rates:
        total.append({"label": f"{key('tax')} {invoice.money_text(rate.rate, places=0 if rate.rate == int(rate.rate) else 1)} %",
                      "value": money(rate.tax)})
    if len(invoice.tax_rates) == 1:
        printed.add("total_tax")
    total.append({"label": key("total"), "value": money(invoice.total)})
    legal = []
    if invoice.payment_terms:
        legal.append({"value": invoice.payment_terms, "weight": "bold", "color": "primary"})
        printed.add("payment_terms")
    if invoice.iban:
        legal.append({"value": f"IBAN {invoice.iban}", "color": "secondary"})
        printed.add("iban")
    style_options = {"header": {"backgroundColor": rng.choice(("#F8F8FA", "#EEF3F8", "#FFFFFF", "#F4F1EA"))},
                     "text": {"primaryColor": rng.choice(("#000100", "#1F3A5F", "#222222")),
                              "regularSize": rng.choice((9, 10, 11))}}
    logo = rng.random() < 0.5
    if logo:
        (scratch / "logo.png").write_bytes(logo_png(invoice.vendor.name, rng))
        style_options["header"]["image"] = {"path": str(scratch / "logo.png"), "width": 60, "height": 40}
    title = rng.choice(words["credit_title" if invoice.is_credit_note else "title"])
    options = {"style": style_options, "data": {"invoice": {
        "name": title, "header": header, "currency": "", "customer": customer, "seller": seller, "legal": legal,
        "details": {"header": head, "parts": parts, "total": total}}}}
    pdf = run_driver("microinvoice.js", options, scratch)
    cells = ("quantity", "unit_price", "amount") if with_price else ("quantity", "amount")
    return Rendering(pdf, invoice, frozenset(printed), frozenset({"currency"}), item_cells=cells,
                     options={"money": style, "unit_price_column": with_price, "logo": logo})


# ---------------------------------------------------------------- jspdf-invoice-template


def render_jspdf(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    words, key = _words(invoice, rng)
    date = invoice.date_text
    printed = {"invoice_number", "invoice_date", "vendor_name", "customer_name", "subtotal", "total"}
    optional = {"currency", "vendor_address", "billing_address"}
    columns = [("#", 10), (key("description"), 80), (key("unit_price"), None), (key("quantity"), None),
               (key("amount"), None)]
    table = [[str(n), item.description, invoice.money_text(item.unit_price),
              invoice.money_text(item.quantity, places=0 if item.quantity == item.quantity.to_integral_value() else 2),
              invoice.money_text(item.amount)] for n, item in enumerate(invoice.items, start=1)]
    rows = [{"col1": f"{key('subtotal')}:", "col2": invoice.money_text(invoice.subtotal), "col3": invoice.currency,
             "style": {"fontSize": 10}}]
    if len(invoice.tax_rates) == 1:
        rows.append({"col1": f"{key('tax')}:", "col2": invoice.money_text(invoice.total_tax), "col3": invoice.currency,
                     "style": {"fontSize": 10}})
        printed.add("total_tax")
    rows.append({"col1": f"{key('total')}:", "col2": invoice.money_text(invoice.total), "col3": invoice.currency,
                 "style": {"fontSize": rng.choice((12, 14))}})
    props = {
        "fileName": invoice.invoice_number, "orientationLandscape": False, "compress": True,
        "business": {"name": invoice.vendor.name, "address": ", ".join(invoice.vendor.address.printed_lines()),
                     "phone": invoice.vendor.phone, "email": invoice.vendor.email,
                     "website": f"{key('tax_id')}: {invoice.vendor.tax_id}" if invoice.vendor.tax_id else ""},
        "contact": {"label": f"{key('bill_to')}:", "name": invoice.customer.name,
                    "address": ", ".join(invoice.customer.address.printed_lines())},
        "invoice": {"label": f"{key('invoice_number')}: ", "num": invoice.invoice_number,
                    "invGenDate": f"{key('invoice_date')}: {date(invoice.invoice_date)}",
                    "invDate": f"{key('due_date')}: {date(invoice.due_date)}" if invoice.due_date else "",
                    "headerBorder": rng.random() < 0.5, "tableBodyBorder": rng.random() < 0.5,
                    "header": [{"title": title, **({"style": {"width": width}} if width else {})}
                               for title, width in columns],
                    "table": table, "additionalRows": rows,
                    "invDescLabel": key("payment_terms") if invoice.payment_terms else "",
                    "invDesc": invoice.payment_terms},
        "footer": {"text": f"IBAN {invoice.iban}" if invoice.iban else ""},
        "pageEnable": True, "pageLabel": f"{words['page'][0]} ",
    }
    if invoice.vendor.tax_id:
        optional.add("vendor_tax_id")
    if invoice.due_date:
        printed.add("due_date")
    if invoice.payment_terms:
        printed.add("payment_terms")
    if invoice.iban:
        printed.add("iban")
    logo = rng.random() < 0.6
    if logo:
        props["logo"] = {"src": logo_png(invoice.vendor.name, rng, data_url=True), "type": "PNG", "width": 40,
                         "height": 22, "margin": {"top": 0, "left": 0}}
    pdf = run_driver("jspdf-invoice-template.js", props, scratch)
    return Rendering(pdf, invoice, frozenset(printed), frozenset(optional),
                     options={"logo": logo, "header_border": props["invoice"]["headerBorder"]})


# ---------------------------------------------------------------- @h1dd3nsn1p3r/pdf-invoice

# fr-FR groups with U+202F, which the package's core fonts print as "/": French invoices get Spanish numbers
INTL_LOCALES = {"en_US": "en-US", "en_GB": "en-GB", "de_DE": "de-DE", "fr_FR": "es-ES", "nl_NL": "nl-NL",
                "it_IT": "it-IT", "es_ES": "es-ES"}


def _js_fixed(value: float) -> Decimal:
    """``Number.prototype.toFixed(2)`` of a float: the exact binary value rounded (ties to the larger)."""
    from decimal import ROUND_HALF_UP

    return Decimal(value).quantize(Decimal("0.01"), ROUND_HALF_UP)


def render_pdf_invoice(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    words, key = _words(invoice, rng)
    items = [{"name": item.description, "quantity": float(item.quantity), "price": float(item.unit_price),
              "tax": float(item.tax_rate), "discount": 0} for item in invoice.items]
    # the package's own float arithmetic: line total with tax, summed, toFixed(2)
    gross = 0.0
    tax = 0.0
    for item in items:
        line = item["quantity"] * item["price"]
        gross += line + line * (item["tax"] / 100) if item["tax"] else line
        tax += item["price"] * item["quantity"] * item["tax"] / 100
    total, total_tax = _js_fixed(gross), _js_fixed(tax)
    invoice = replace(invoice, total=total, total_tax=total_tax, amount_due=total, subtotal=total - total_tax)
    strings = {"invoice": rng.choice(words["title"]).upper(), "refNumber": key("invoice_number"),
               "date": key("invoice_date"), "dueDate": key("due_date"), "status": "Status",
               "billTo": key("bill_to"), "item": key("description"), "quantity": key("quantity"),
               "price": key("unit_price"), "discount": key("discount"), "tax": key("tax_rate"),
               # the package's "Subtotal" and line "Total" include the tax: worded as totals, not as net amounts
               "total": key("total"), "subTotal": key("total"), "totalTax": key("tax_sum"),
               "totalDiscount": key("discount"), "fee": key("charge"), "grandTotal": key("total")}
    font = rng.choice(("Helvetica", "Times", "Courier"))
    due = invoice.due_date or invoice.invoice_date
    payload = {
        "company": {"name": invoice.vendor.name, "address": "\n".join(invoice.vendor.address.printed_lines()),
                    "phone": invoice.vendor.phone, "email": invoice.vendor.email,
                    **({"taxId": f"{key('tax_id')}: {invoice.vendor.tax_id}"} if invoice.vendor.tax_id else {}),
                    **({"bank": f"IBAN: {invoice.iban}"} if invoice.iban else {})},
        "customer": {"name": invoice.customer.name, "address": "\n".join(invoice.customer.address.printed_lines())},
        "invoice": {"number": invoice.invoice_number, "date": invoice.date_text(invoice.invoice_date),
                    "dueDate": invoice.date_text(due), "status": rng.choice(("-", "Open", "Paid")),
                    "locale": INTL_LOCALES[invoice.locale], "currency": invoice.currency},
        "items": items,
        "note": {"text": invoice.payment_terms or rng.choice(words["intro"]), "italic": rng.random() < 0.5},
    }
    config = {"string": strings, "style": {"font": font, "fontSize": rng.choice((9, 10, 11))}}
    pdf = run_driver("pdf-invoice.js", {"payload": payload, "config": config}, scratch)
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "total"}
    optional = {"currency", "total_tax", "due_date", "payment_terms"}
    if invoice.vendor.tax_id:
        printed.add("vendor_tax_id")
    if invoice.iban:
        printed.add("iban")
    # the table's last column is each line's total with tax: the net amount is printed only where the tax is 0
    taxed = any(item.tax_rate for item in invoice.items)
    cells = ("quantity", "unit_price") if taxed else ("quantity", "unit_price", "amount")
    invoice = replace(invoice, due_date=due)
    return Rendering(pdf, invoice, frozenset(printed), frozenset(optional), item_cells=cells,
                     options={"font": font, "intl_locale": INTL_LOCALES[invoice.locale]})


RENDERERS = (
    Renderer("microinvoice", "microinvoice 1.0.6 (npm)", "MIT",
             "PDFKit invoice: tinted header band with title and key/value pairs, Bill From / Bill To blocks, "
             "table with right-hand fixed columns, key/value totals, legal lines; our labels and number formats",
             render_microinvoice, npm_package_missing("microinvoice"), npm_package_version("microinvoice"),
             max_items=14, credit_notes=False),
    Renderer("jspdf-invoice-template", "jspdf-invoice-template-nodejs 1.4.40 (npm)", "ISC",
             "jsPDF template: logo and business block top right, client block left, number and dates, bordered or "
             "plain item table, total rows (label, amount, currency), note and footer, page numbers",
             render_jspdf, npm_package_missing("jspdf-invoice-template-nodejs"),
             npm_package_version("jspdf-invoice-template-nodejs"), max_items=30),
    Renderer("pdf-invoice", "@h1dd3nsn1p3r/pdf-invoice 1.0.12 (npm)", "MIT",
             "pdfmake invoice: spaced title with reference, dates and status, company block, Bill To, item table "
             "with tax and discount columns, subtotal/total tax/grand total by Intl.NumberFormat",
             render_pdf_invoice, npm_package_missing("@h1dd3nsn1p3r/pdf-invoice"),
             npm_package_version("@h1dd3nsn1p3r/pdf-invoice"), max_items=30),
)
