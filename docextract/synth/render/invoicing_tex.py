"""invoicing 2.1.1 (PyPI, MIT; Sarcoma): a freelancer's invoice, a Jinja2-filled LaTeX template typeset by XeLaTeX.

The package keeps clients, projects and jobs in SQLite and prints an invoice from ``templates/Invoice.example.tex``:
a centred logo; "Invoice To:" over the client company's name and its address on one line at the left, and to its
right two narrow columns of keys over values ("Invoice Number:" over the number, "Date Issued:" over the date;
"Client Reference:" over "N\\A"); a ruled table of jobs (title in bold italic over its description, type, quantity,
rate, cost) ending in a "Total" row; "Payment must be made within 28 days of invoice issue date."; and at the foot
of the page, centred, "NAME trading as:", the business's name and its address lines. No tax.

The template is filled as the package's ``LatexInvoice.generate`` fills it (its Jinja2 delimiters ``\\VAR{}`` and
``\\BLOCK{}``, its LaTeX escaping), with what its placeholders leave to the user: the foot's trading name and
address (the template prints "Company Name", "Address Line One, ..." for the user to replace) and the client
reference. Its font, Aptifer Sans LT Pro, is commercial: the semibold faces become the bold of a free font the
machine has. The package pins Flask 1.0.2 and Jinja2 2.10.3, so it is installed apart (``scripts/setup-render.sh``)
and only its template file is read.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from docextract.synth.render.base import (Renderer, Rendering, isolated_module_path, isolated_package_missing,
                                          isolated_package_version, program_missing)
from docextract.synth.render.content import RenderInvoice
from docextract.synth.render.latex import compile_tex
from docextract.synth.render.logos import logo_png

TEMPLATE = "templates/Invoice.example.tex"
FONTS = ("DejaVu Sans", "Latin Modern Sans", "DejaVu Serif")  # free system fonts with bold and bold italic faces
_SYMBOLS = {"GBP": "£", "USD": "$", "EUR": "€"}
_TRADERS = ("Sean Cooper", "Amy Clarke", "Daniel Hughes", "Priya Shah", "Tom Baker", "Laura Evans")
# the package's own LatexTemplating.tex_escape
_TEX_ESCAPES = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                "~": r"\textasciitilde{}", "^": r"\^{}", "\\": r"\textbackslash{}", "<": r"\textless ",
                ">": r"\textgreater "}
_TEX_ESCAPE = re.compile("|".join(re.escape(key) for key in sorted(_TEX_ESCAPES, key=lambda key: -len(key))))
# what the template leaves to its user: the foot's trading name and address, and its commercial font
_FOOT = re.compile(r"Name trading as:\\\\\s*\{\\semiboldit Company Name\}\\\\\s*Address Line One,\\\\\s*"
                   r"Address Line Two,\\\\\s*City, Post Code\\\\")
_FONT_LINES = re.compile(r"\\setmainfont\{Aptifer Sans LT Pro\}\s*\\newfontfamily\\semibold\{[^}]*\}\s*"
                         r"\\newfontfamily\\semiboldit\{[^}]*\}")


def _escape(text: str) -> str:
    return _TEX_ESCAPE.sub(lambda match: _TEX_ESCAPES[match.group()], str(text))


def _money(value: Decimal, currency: str) -> str:
    symbol = _SYMBOLS.get(currency)
    return f"{symbol}{value:,.2f}" if symbol else f"{value:,.2f} {currency}"


def _template(font: str, trader: str, vendor_lines: list[str]) -> str:
    source = (isolated_module_path("invoicing") / TEMPLATE).read_text(encoding="utf-8")
    foot = (f"{_escape(trader)} trading as:\\\\\n    {{\\semiboldit {_escape(vendor_lines[0])}}}\\\\\n    "
            + "\\\\\n    ".join(_escape(line) for line in vendor_lines[1:]) + "\\\\")
    # its \addvbuffer[above below]{box} (verbatimbox) calls \getargsC, which TeX Live 2022's readarray no longer
    # defines: the same buffer around the box, defined after the package
    fonts = (f"\\setmainfont{{{font}}}\n\\newcommand{{\\semibold}}{{\\bfseries}}\n"
             f"\\newcommand{{\\semiboldit}}{{\\bfseries\\itshape}}\n"
             f"\\AtBeginDocument{{\\def\\addvbuffer[#1 #2]#3{{\\vbox{{\\vspace*{{#1}}\\hbox{{#3}}\\vspace*{{#2}}}}}}}}")
    for pattern, text in ((_FOOT, foot), (_FONT_LINES, fonts)):
        source, found = pattern.subn(lambda _: text, source)
        if found != 1:
            raise RuntimeError(f"the invoicing template changed: {pattern.pattern[:40]} not found once")
    return source


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    import jinja2

    # no tax: the jobs' costs add up to the total
    items = tuple(replace(item, tax_rate=Decimal(0)) for item in invoice.items)
    invoice = invoice.with_items(items).computed_as()
    currency = invoice.currency
    font = rng.choice(FONTS)
    trader = rng.choice(_TRADERS)
    address = invoice.vendor.address
    # the foot's lines as the template sets them: street lines and the place, each ending in a comma but the last
    vendor_lines = [invoice.vendor.name, *(f"{line}," for line in address.lines), address.place]
    with_reference = bool(invoice.purchase_order) and rng.random() < 0.5
    source = _template(font, trader, vendor_lines)
    if with_reference:
        source = source.replace("N\\textbackslash A", "\\VAR{client_reference}", 1)
    environment = jinja2.Environment(  # the package's LatexTemplating environment
        block_start_string=r"\BLOCK{", block_end_string="}", variable_start_string=r"\VAR{", variable_end_string="}",
        comment_start_string=r"\#{", comment_end_string="}", line_statement_prefix="%%", line_comment_prefix="%#",
        trim_blocks=True, autoescape=False)
    customer_address = ", ".join(invoice.customer.address.printed_lines())
    jobs = [{"title": item.description, "description": rng.choice(("Delivered as agreed", "See attached timesheet",
                                                                   "As quoted", "Phase complete", "-")),
             "type": "service" if item.unit in ("h", "hrs", "Std.", "hour") or item.quantity % 1 else rng.choice(
                 ("service", "product")),
             "billable_time": f"{item.quantity.normalize():f}" + ("h" if item.quantity % 1 else ""),
             "staff_rate": _money(item.unit_price, currency), "cost": _money(item.amount, currency)}
            for item in invoice.items]
    tex = environment.from_string(source).render(
        reference_code=_escape(invoice.invoice_number), company_name=_escape(invoice.customer.name),
        company_address=_escape(customer_address), date=_escape(invoice.date_text(invoice.invoice_date)),
        total_cost=_escape(_money(invoice.total, currency)), client_reference=_escape(invoice.purchase_order),
        jobs=[{key: _escape(value) for key, value in job.items()} for job in jobs])
    (scratch / "logo.png").write_bytes(logo_png(invoice.vendor.name, rng))
    pdf = compile_tex(tex, scratch, engine="xelatex")
    printed = {"invoice_number", "invoice_date", "customer_name", "billing_address", "vendor_name", "total"}
    optional = {"vendor_address", "purchase_order", "currency"}
    invoice = replace(invoice, due_date=None, payment_terms="", shipping_address=None, iban="", bic="",
                      purchase_order=invoice.purchase_order if with_reference else "",
                      vendor=replace(invoice.vendor, tax_id="", tax_id_value=""))
    return Rendering(pdf, invoice, frozenset(printed), frozenset(optional), language="en",
                     options={"font": font, "reference": with_reference})


def _missing() -> str | None:
    reason = isolated_package_missing("invoicing", "invoicing==2.1.1", needs=("jinja2",), files=(TEMPLATE,))()
    return reason or program_missing("xelatex", "Debian: apt-get install texlive-xetex")


RENDERERS = (
    Renderer("invoicing", "invoicing 2.1.1 (PyPI; Jinja2 + XeLaTeX)", "MIT",
             "freelancer's LaTeX invoice: centred logo, 'Invoice To:' client block left, 'Invoice Number:' and "
             "'Date Issued:' keys over their values and 'Client Reference:' right of it, ruled job table (title over "
             "description, type, qty, rate, cost) with a Total row, payment sentence, the business's trading name "
             "and address centred at the foot; no tax",
             render, _missing, isolated_package_version("invoicing"), locales=("en_GB", "en_US"), max_items=10,
             tax_rates=1, credit_notes=False),
)
