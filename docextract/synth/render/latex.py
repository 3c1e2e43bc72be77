"""Invoice packages and classes of TeX Live (Debian texlive-latex-extra, LPPL/GPL), typeset with pdflatex.

Each renderer is a small document that calls the package's own commands, which draw its layout:

* **simpleinvoice** (Mathias Lohne, LPPL): recipient block left, huge title and the sender block with number,
  date and deadline right, a ruled item table (description, item price, VAT, sum), subtotal/VAT/total, then a
  "Payment info" section repeating number and total with the account, and a one-line footer.
* **invoice2** (Simon Dierl, GPL-3): its booktabs item table (amount, item, VAT, unit price, price with VAT)
  with net total, VAT and gross total computed by LaTeX3 floating point and printed by siunitx in the
  language's number format (English or German), inside a KOMA-Script ``scrlttr2`` business letter (address
  window, reference line with number and date, subject, opening and closing).
* **invoice-class** (Alan Munn, LPPL): a US commercial (customs) invoice: "Commercial Invoice" running head,
  waybill box (the carrier's number: no invoice number), From/To columns, a boxed destination/carrier/packages/weight table, the item table from a CSV
  file read by datatool (description, country of origin, quantity, unit value, amount) with cost rows and the
  total invoice value, the export notes and a signature table with the date.
* **isodoc** (Wybo Dekker, LPPL): a memoir letter class for letters and invoices: the company's name large over a
  rule with its address, a window address (optionally under a return line), "Your letter of / Your reference /
  Our reference / Date" boxes, the language's invoice title, a description/amount table with ruled total rows and
  "Payment details"; its own key words in twelve languages.

The documents add ToUnicode maps and one of four PostScript fonts (see facturization.py) so their words read
back as printed.
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from docextract.synth.render.base import RenderFailed, Renderer, Rendering, program_missing
from docextract.synth.render.content import RenderInvoice
from docextract.synth.render.facturization import LATEX_FONTS
from docextract.synth.vocab import VOCAB

LATEX_TIMEOUT_S = 120
_TEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "€": r"\texteuro{}"}


def tex(text: str) -> str:
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in str(text))


def lines(parts) -> str:
    return r"\\ ".join(tex(p) for p in parts if p)


def preamble(documentclass: str, font: str, extra: str = "") -> str:
    return "\n".join((documentclass, r"\usepackage[utf8]{inputenc}", r"\usepackage[T1]{fontenc}",
                      r"\usepackage{textcomp}", r"\input{glyphtounicode}\pdfgentounicode=1", LATEX_FONTS[font], extra))


def compile_tex(source: str, scratch: Path, files: dict[str, str] | None = None, engine: str = "pdflatex") -> bytes:
    for name, text in (files or {}).items():
        (scratch / name).write_text(text, encoding="utf-8")
    (scratch / "invoice.tex").write_text(source, encoding="utf-8")
    for _ in range(2):  # page references ("Page 1 of 2") settle on the second run
        done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "invoice.tex"],
                              cwd=scratch, capture_output=True, encoding="utf-8", errors="replace",
                              timeout=LATEX_TIMEOUT_S)
        if done.returncode != 0:
            log = (scratch / "invoice.log").read_text(errors="replace") if (scratch / "invoice.log").exists() else ""
            error = log[log.find("\n!"):][:300] if "\n!" in log else done.stdout[-300:]
            raise RenderFailed(f"{engine} failed: {error.strip()}")
    return (scratch / "invoice.pdf").read_bytes()


def _package_missing(file: str):
    def missing() -> str | None:
        reason = program_missing("pdflatex", "scripts/setup-render.sh")
        if reason:
            return reason
        found = subprocess.run(["kpsewhich", file], capture_output=True, text=True)
        return None if found.stdout.strip() else f"TeX Live has no {file} (apt-get install texlive-latex-extra)"
    return missing


def _package_version(file: str):
    def version() -> str:
        found = subprocess.run(["kpsewhich", file], capture_output=True, text=True).stdout.strip()
        if not found:
            return "not installed"
        import re

        dates = re.findall(r"\d{4}/\d{2}/\d{2}", Path(found).read_text(errors="replace"))
        return (max(dates) if dates else "unknown") + " (TeX Live)"  # its release: the latest date it states
    return version


def _money(invoice: RenderInvoice, value: Decimal, symbol: bool = True) -> str:
    text = invoice.money_text(value)
    return f"{text} {invoice.currency}" if symbol else text


# ---------------------------------------------------------------- simpleinvoice


def render_simpleinvoice(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    words = VOCAB["en"]
    font = rng.choice(tuple(LATEX_FONTS))
    invoice = invoice.computed_as()
    items = "\n".join(
        rf"\additem{{{tex(item.description)}}}{{{tex(_money(invoice, item.unit_price))}}}"
        rf"{{{tex(invoice.money_text(item.tax_rate, places=0 if item.tax_rate == int(item.tax_rate) else 1))}}}"
        rf"{{{tex(_money(invoice, item.amount))}}}" for item in invoice.items)
    vendor = invoice.vendor
    due = invoice.date_text(invoice.due_date) if invoice.due_date else "--"
    body = rf"""
\setinvoicetitle{{{tex(rng.choice(("Invoice", "INVOICE", "Tax Invoice")))}}}
\setinvoicenumber{{{tex(invoice.invoice_number)}}}
\setreceivername{{{tex(invoice.customer.name)}}}
\setreceiveraddress{{{lines(invoice.customer.address.printed_lines())}}}
\setname{{{tex(vendor.name)}}}
\setaddress{{{lines(vendor.address.printed_lines())}}}{{{tex(', '.join(vendor.address.printed_lines()))}}}
\setphonenumber{{{tex(vendor.phone)}}}
\setemail{{{tex(vendor.email)}}}
\setinvoicedate{{{tex(invoice.date_text(invoice.invoice_date))}}}
\makeatletter\def\INV@content@deadline{{{tex(due)}}}\makeatother
{items}
\setsubtotal{{{tex(_money(invoice, invoice.subtotal))}}}
\setvat{{{tex(_money(invoice, invoice.total_tax))}}}
\settotal{{{tex(_money(invoice, invoice.total))}}}
\setaccountnumber{{{tex(invoice.iban or '--')}}}
"""
    margin = rng.choice(("2cm", "2.5cm", "1.8cm"))
    source = preamble(r"\documentclass[a4paper,%s]{article}" % rng.choice(("10pt", "11pt", "12pt")), font,
                      rf"\usepackage[english]{{babel}}\usepackage[english]{{simpleinvoice}}"
                      rf"\usepackage[margin={margin}]{{geometry}}") + \
        "\n\\begin{document}\n" + body + "\\makeinvoice\n\\end{document}\n"
    pdf = compile_tex(source, scratch)
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "subtotal", "total_tax", "total"}
    if invoice.due_date:
        printed.add("due_date")
    if invoice.iban:
        printed.add("iban")
    del words
    invoice = replace(invoice, payment_terms="", purchase_order="", shipping_address=None,
                      vendor=replace(invoice.vendor, tax_id="", tax_id_value=""))
    return Rendering(pdf, invoice, frozenset(printed), frozenset({"currency"}), item_cells=("unit_price", "amount"),
                     language="en",
                     options={"font": font, "margin": margin})


# ---------------------------------------------------------------- invoice2 in a scrlttr2 letter


def render_invoice2(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    german = invoice.language == "de"
    words = VOCAB["de" if german else "en"]
    font = rng.choice(tuple(LATEX_FONTS))
    rate = invoice.single_rate
    if rate is None:  # one VAT rate per table here
        rate = invoice.items[0].tax_rate
        invoice = invoice.with_items(tuple(replace(item, tax_rate=rate) for item in invoice.items))
    # LaTeX3 floating point sums, rounded once by siunitx when printed (half-up)
    invoice = invoice.computed_as(ROUND_HALF_UP, exact=True)
    symbol = {"EUR": r"\texteuro{}", "USD": r"\$", "GBP": r"\pounds{}"}.get(invoice.currency, invoice.currency)
    colorize = rng.random() < 0.4
    options = [f"vat={rate / 100}", f"currency-symbol={{{symbol}}}",
               f"currency-in-header={'true' if rng.random() < 0.3 else 'false'}",
               f"colorize={'true' if colorize else 'false'}"]
    rows = "\n".join(rf"\invoiceitem{{{item.quantity}}}{{{tex(item.description)}}}{{{item.unit_price}}}"
                     for item in invoice.items)
    language = "ngerman" if german else "english"
    key = lambda name: tex(rng.choice(words[name]).rstrip(" :"))  # noqa: E731
    fromaddress = lines(invoice.vendor.address.printed_lines())
    letter_options = rng.choice(("DIN", "DINmtext", "SN", "NF", "UScommercial9"))
    body = rf"""
\setkomavar{{fromname}}{{{tex(invoice.vendor.name)}}}
\setkomavar{{fromaddress}}{{{fromaddress}}}
\setkomavar{{fromemail}}{{{tex(invoice.vendor.email)}}}
\setkomavar{{fromphone}}{{{tex(invoice.vendor.phone)}}}
\setkomavar{{date}}{{{tex(invoice.date_text(invoice.invoice_date))}}}
\setkomavar{{invoice}}{{{tex(invoice.invoice_number)}}}
\setkomavar{{subject}}{{{tex(rng.choice(words['title']))} {tex(invoice.invoice_number)}}}
\begin{{letter}}{{{tex(invoice.customer.name)}\\ {lines(invoice.customer.address.printed_lines())}}}
\opening{{{tex(rng.choice(words['salutation_line']))}}}
{tex(rng.choice(words['intro']))}

\begin{{invoice}}[{', '.join(options)}]
{rows}
\end{{invoice}}

{key('due_date') + ': ' + tex(invoice.date_text(invoice.due_date)) if invoice.due_date else ''}

{tex(invoice.payment_terms)}

{'IBAN: ' + tex(invoice.iban) if invoice.iban else ''}
\closing{{{tex(rng.choice(('Mit freundlichen Grüßen', 'Freundliche Grüße')) if german else rng.choice(('Kind regards', 'Yours sincerely')))}}}
\end{{letter}}
"""
    source = preamble(rf"\documentclass[{letter_options},fromemail,fromphone,refline=wide]{{scrlttr2}}", font,
                      rf"\usepackage[{language}]{{babel}}\usepackage{{invoice2}}") + \
        "\n\\begin{document}\n" + body + "\\end{document}\n"
    pdf = compile_tex(source, scratch)
    printed = {"invoice_number", "invoice_date", "vendor_name", "customer_name", "billing_address", "total"}
    optional = {"vendor_address", "currency"}
    if rate:  # without VAT the table ends with the gross total alone
        printed.add("subtotal")
        optional.add("total_tax")
    if invoice.due_date:
        printed.add("due_date")
    if invoice.payment_terms:
        printed.add("payment_terms")
    if invoice.iban:
        printed.add("iban")
    invoice = replace(invoice, purchase_order="", shipping_address=None,
                      vendor=replace(invoice.vendor, tax_id="", tax_id_value=""))
    cells = ("quantity", "unit_price") if rate else ("quantity", "unit_price", "amount")
    return Rendering(pdf, invoice, frozenset(printed), frozenset(optional), item_cells=cells,
                     language="de" if german else "en", options={"font": font, "letter": letter_options, "colorize": colorize, "language": language})


# ---------------------------------------------------------------- invoice-class (US commercial invoice)


def render_invoice_class(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    font = rng.choice(tuple(f for f in LATEX_FONTS if f != "palatino"))  # its small sizes are missing here
    # datatool's currency sums in this class garble values of $1,000 and more ("$43.65" for 4,039.65): keep
    # the invoice under that (items below $300, three at most)
    kept = [item for item in invoice.items if item.quantity * item.unit_price < 300][:3] or [
        replace(invoice.items[0], quantity=Decimal(1), unit_price=Decimal(rng.randint(500, 29900)) / 100)]
    items = tuple(replace(item, tax_rate=Decimal(0), unit_price=item.unit_price.quantize(Decimal("0.01")),
                          amount=(item.quantity * item.unit_price.quantize(Decimal("0.01"))).quantize(
                              Decimal("0.01"), ROUND_HALF_UP)) for item in kept)
    invoice = replace(invoice.with_items(items), items=items, currency="USD")
    origin = rng.choice(("USA", "Germany", "China", "Mexico", "Canada", "Italy"))
    # a customs invoice has no invoice number of its own: its waybill number is the carrier's, no field
    waybill = f"{rng.choice(('1Z', 'JD', ''))}{rng.randint(10 ** 9, 10 ** 12)}"
    csv = "Description,Country,Quantity,UnitValue,Amount\n" + "".join(
        f"\"{item.description.replace(',', ' ')}\",{origin},{item.quantity},{item.unit_price},{item.amount}\n"
        for item in items)
    body = rf"""
\InputFile{{items.csv}}
\waybill{{{waybill}}}
\shippingdate{{{tex(invoice.date_text(invoice.invoice_date))}}}
\fromaddress{{{tex(invoice.vendor.name)}\\ {lines(invoice.vendor.address.printed_lines())}\\ {tex(invoice.vendor.phone)}}}
\toaddress{{{tex(invoice.customer.name)}\\ {lines(invoice.customer.address.printed_lines())}}}
\destination{{{rng.choice(('Germany', 'France', 'United Kingdom', 'Netherlands', 'Canada'))}}}
\carrier{{{rng.choice(('FedEx', 'UPS', 'DHL', 'USPS'))}}}
\weight{{{rng.randint(1, 80)}}}{{{rng.randint(0, 15)}}}
\packages{{{rng.randint(1, 6)}}}
\shipper{{{tex(rng.choice(('J. Smith', 'M. Garcia', 'A. Chen', 'R. Miller')))}}}
\location{{{tex(invoice.vendor.address.city)}}}
\printinvoice
"""
    source = preamble(r"\documentclass{invoice-class}", font) + "\n\\begin{document}\n" + body + "\\end{document}\n"
    pdf = compile_tex(source, scratch, {"items.csv": csv})
    printed = {"vendor_name", "vendor_address", "customer_name", "billing_address", "total"}
    invoice = replace(invoice, invoice_number="", due_date=None, purchase_order="", payment_terms="", iban="", shipping_address=None,
                      vendor=replace(invoice.vendor, tax_id="", tax_id_value=""))
    return Rendering(pdf, invoice, frozenset(printed), frozenset({"invoice_date", "subtotal"}), language="en",
                     options={"font": font, "origin": origin})


# ---------------------------------------------------------------- isodoc (letters and invoices)

_ISODOC_LANGUAGES = {"en_GB": "enGB", "en_US": "enUS", "de_DE": "deDE", "fr_FR": "frFR", "nl_NL": "nlNL",
                     "it_IT": "itIT", "es_ES": "esES"}


def render_isodoc(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    language = _ISODOC_LANGUAGES[invoice.locale]
    words = VOCAB[invoice.language]
    font = rng.choice(tuple(LATEX_FONTS))
    invoice = invoice.computed_as()
    vendor, address = invoice.vendor, invoice.vendor.address
    rows = [rf"\iitem{{{tex(item.description)}}}{{{tex(invoice.money_text(item.amount))}}}" for item in invoice.items]
    with_tax = bool(invoice.total_tax)
    if with_tax:  # the net sum under its rule, a row per rate, then the package's own total row
        rows.append(rf"\itotal[{tex(rng.choice(words['subtotal']))}]{{{tex(invoice.money_text(invoice.subtotal))}}}")
        tax_word = rng.choice(words["tax"])
        rows += [rf"\iitem{{{tex(tax_word)} {tex(invoice.money_text(rate.rate, places=0 if rate.rate == int(rate.rate) else 1))}\%}}"
                 rf"{{{tex(invoice.money_text(rate.tax))}}}" for rate in invoice.tax_rates if rate.tax]
    rows.append(rf"\itotal{{{tex(invoice.money_text(invoice.total))}}}")
    street = ", ".join(address.lines)
    with_tax_id = bool(vendor.tax_id) and rng.random() < 0.7
    settings = {
        "language": language, "company": tex(vendor.name), "who": tex(rng.choice(("Jane Roberts", "Marc Weber",
                                                                                   "Sophie Martin", "Luca Rossi"))),
        "street": tex(street), "zip": tex(address.postcode), "city": tex(address.city.rstrip(",")),
        "country": tex(address.country or "-"), "countrycode": "XX", "ourref": tex(invoice.invoice_number),
        "yourref": tex(invoice.purchase_order), "date": invoice.invoice_date.isoformat(),
        "to": tex(invoice.customer.name) + r"\\" + lines(invoice.customer.address.printed_lines()),
        "iban": tex(invoice.iban), "bic": tex(invoice.bic), "vatno": tex(vendor.tax_id) if with_tax_id else "",
        "term": str(rng.choice((14, 30, 60))), "currency": tex(invoice.currency), "email": tex(vendor.email),
        "phone": tex(vendor.phone),
    }
    # without the logo (stationery with a printed letterhead) the sender stands in the return line
    logo = rng.choice(("logo", "logo", "nologo"))
    switches = [logo, "return" if logo == "nologo" else rng.choice(("return", "noreturn")),
                rng.choice(("footer", "nofooter")), rng.choice(("leftaddress", "rightaddress"))]
    setup = ",\n  ".join([*(f"{key}={{{value}}}" for key, value in settings.items()), *switches])
    body = "\\invoice{\n  \\itable{\n    " + "\n    ".join(rows) + "\n  }\n  \\paymentdata\n}\n"
    # its head boxes, logo address and table header are sans serif: Helvetica for that family in every font (the
    # EC sans bold of the return line has no outline font here, and pdflatex fails on its bitmap)
    source = preamble(r"\documentclass{isodoc}", font, "\\usepackage[scaled]{helvet}\n\\setupdocument{\n  " + setup + "\n}") + \
        "\n\\begin{document}\n" + body + "\\end{document}\n"
    pdf = compile_tex(source, scratch)
    printed = {"invoice_date", "customer_name", "billing_address", "total"}
    # the number stands twice, as "Our reference" and as the payment's "reference", and the order number as "Your
    # reference": where the matcher cannot tell them apart they are masked; the vendor only in a return line
    # without the logo
    optional = {"currency", "vendor_name", "vendor_address", "invoice_number", "purchase_order"}
    if with_tax:  # the tax as one amount only where one rate has tax (else a row per rate)
        printed |= {"subtotal", "total_tax"} if sum(1 for rate in invoice.tax_rates if rate.tax) == 1 else {"subtotal"}
    if with_tax_id:
        printed.add("vendor_tax_id")
    if invoice.iban:
        printed.add("iban")
    if "logo" in switches:
        printed |= {"vendor_name", "vendor_address"}
    invoice = replace(invoice, due_date=None, payment_terms="", shipping_address=None,
                      vendor=replace(vendor, address=replace(address, lines=(street,) if street else ()),
                                     **({} if with_tax_id else {"tax_id": "", "tax_id_value": ""})))
    return Rendering(pdf, invoice, frozenset(printed), frozenset(optional), item_cells=("amount",),
                     language=invoice.language, options={"font": font, "language": language, "switches": switches})


RENDERERS = (
    Renderer("simpleinvoice", "simpleinvoice 2017/11/03 (TeX Live texlive-latex-extra)", "LPPL-1.3",
             "pdflatex package: recipient left, huge title and sender block with number/date/deadline right, ruled "
             "item table (description, item price, VAT %, sum), subtotal/VAT/total, payment info section, footer",
             render_simpleinvoice, _package_missing("simpleinvoice.sty"), _package_version("simpleinvoice.sty"),
             locales=("en_US", "en_GB"), max_items=10),
    Renderer("invoice2", "invoice2 1.2 (TeX Live texlive-latex-extra) in KOMA-Script scrlttr2", "GPL-3.0 (invoice2), "
             "LPPL-1.3 (KOMA-Script)",
             "KOMA-Script business letter (DIN/SN/NF/US window layouts, reference line with number and date, "
             "subject) around invoice2's booktabs table with LaTeX3-computed net/VAT/gross totals, siunitx numbers",
             render_invoice2, _package_missing("invoice2.sty"), _package_version("invoice2.sty"),
             locales=("de_DE", "de_DE", "en_GB", "en_US"), max_items=25, tax_rates=1),
    Renderer("invoice-class", "invoice-class 1.0 (TeX Live texlive-latex-extra)", "LPPL-1.3",
             "US commercial (customs) invoice: running head, waybill box, From/To columns, carrier/weight box, "
             "CSV item table via datatool with cost rows and total invoice value, export notes, signature table",
             render_invoice_class, _package_missing("invoice-class.cls"), _package_version("invoice-class.cls"),
             locales=("en_US",), max_items=25, einvoices=False),
    Renderer("isodoc", "isodoc 1.14 (TeX Live texlive-latex-extra)", "LPPL-1.3c",
             "memoir letter class: company name over a rule with its address, optional return line over the window "
             "address, 'Your letter of / Your reference / Our reference / Date' boxes (the invoice number as our "
             "reference), the language's invoice title, a description/amount table with ruled subtotal and total, "
             "'Payment details' (term, bank, bic, iban, reference, vat no.), optional footer fields; 12 languages",
             render_isodoc, _package_missing("isodoc.cls"), _package_version("isodoc.cls"), max_items=20),
)
