"""facturization (PyPI, MIT): invoices typeset with pdflatex from a YAML file (its own Jinja2 LaTeX template).

A large "Invoice" title, the number and dates in a two-column key table, sender and recipient address blocks
with their VAT id, e-mail and phone as aligned "key: value" fields, a booktabs item table (pos., description,
qty, unit price, net, VAT rate, VAT, amount), the totals (total excl. VAT, VAT, total incl. VAT with the
currency code) and a labelled payment list. English labels; babel language, font size (10-12 pt), margins
and the decimal separator (dot or comma) vary. Needs ``pdflatex`` (TeX Live: scripts/setup-render.sh).
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from docextract.synth.render.base import (
    RenderFailed, Renderer, Rendering, program_missing, python_package_missing, python_package_version,
)
from docextract.synth.render.content import RenderInvoice

CENT = Decimal("0.01")
BABEL = {"en": "english", "de": "ngerman", "fr": "french", "nl": "dutch", "it": "italian", "es": "spanish"}
LATEX_TIMEOUT_S = 120


# PostScript fonts of TeX Live's psnfss (the default EC fonts are bitmaps here, whose accented letters
# extract as two glyphs): one per document, the template's look otherwise unchanged.
LATEX_FONTS = {
    "times": r"\usepackage{mathptmx}",
    "helvetica": r"\usepackage[scaled]{helvet}\renewcommand\familydefault{\sfdefault}",
    "palatino": r"\usepackage{mathpazo}",
    "charter": r"\usepackage{charter}",
    "bookman": r"\usepackage{bookman}",
    "newcentury": r"\usepackage{newcent}",
}


def extractable(tex: str, font: str) -> str:
    """``tex`` with a PostScript font and ToUnicode maps (ligatures read back as "ffi", not a lone glyph),
    added after its font encoding."""
    anchor = r"\usepackage[T1]{fontenc}"
    extra = "\n" + r"\input{glyphtounicode}\pdfgentounicode=1" + "\n" + LATEX_FONTS[font] + "\n"
    if anchor not in tex:
        raise RenderFailed("the template no longer loads T1 fonts: cannot add extractable fonts")
    return tex.replace(anchor, anchor + extra, 1)


def _babel_has(language: str) -> bool:
    """Whether TeX Live has babel's definitions of ``language`` (texlive-lang-* packages)."""
    done = subprocess.run(["kpsewhich", f"{BABEL[language]}.ldf"], capture_output=True, text=True)
    return done.returncode == 0 and bool(done.stdout.strip())


def _missing() -> str | None:
    return python_package_missing("facturization")() or program_missing("pdflatex", "scripts/setup-render.sh")


def computed(invoice: RenderInvoice) -> RenderInvoice:
    """The package's arithmetic: unit prices to cents, each line's net and VAT rounded half-up, then summed."""
    items = []
    net = vat = Decimal(0)
    for item in invoice.items:
        price = item.unit_price.quantize(CENT, ROUND_HALF_UP)
        amount = (item.quantity * price).quantize(CENT, ROUND_HALF_UP)
        items.append(replace(item, unit_price=price, amount=amount))
        net += amount
        vat += (amount * item.tax_rate / 100).quantize(CENT, ROUND_HALF_UP)
    return replace(invoice, items=tuple(items), subtotal=net, total_tax=vat, total=net + vat, amount_due=net + vat)


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    import yaml

    from facturization import cli

    invoice = computed(invoice)
    comma = invoice.language != "en" and rng.random() < 0.7

    def address(party) -> list[str]:
        return [party.name, *party.address.printed_lines()]

    sender = {"address": address(invoice.vendor), "email": invoice.vendor.email, "phone": invoice.vendor.phone}
    if invoice.vendor.tax_id:
        sender["vat_identification_number"] = invoice.vendor.tax_id
    data = {
        "invoice_number": invoice.invoice_number,
        "issue_date": invoice.date_text(invoice.invoice_date) if rng.random() < 0.6 else invoice.invoice_date,
        "from": sender, "to": {"address": address(invoice.customer)},
        "service": [{"description": item.description, "unit_price": str(item.unit_price),
                     "quantity": str(item.quantity), "vat": str(item.tax_rate)} for item in invoice.items],
        "currency": invoice.currency, "separator": "comma" if comma else "dot",
        "lang": BABEL[invoice.language] if rng.random() < 0.7 and _babel_has(invoice.language) else "english",
        "fontsize": rng.choice(("10pt", "11pt", "12pt")),
        "geometry": rng.choice(("a4paper, margin=18mm", "a4paper, margin=25mm", "letterpaper, margin=20mm")),
    }
    if invoice.due_date:
        data["due_date"] = invoice.date_text(invoice.due_date) if rng.random() < 0.6 else invoice.due_date
    payment = {}
    if invoice.iban:
        payment["IBAN"] = invoice.iban
    if invoice.payment_terms:
        payment[rng.choice(("Terms", "Payment terms"))] = invoice.payment_terms
    if payment:
        data["payment"] = payment
    source = scratch / "invoice.yml"
    source.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    tex = scratch / "invoice.tex"
    font = rng.choice(tuple(LATEX_FONTS))
    try:
        source_tex = cli.render(yaml.safe_load(source.read_text(encoding="utf-8")))
    except SystemExit as error:
        raise RenderFailed(f"facturization refused the input: {error}") from None
    tex.write_text(extractable(source_tex, font), encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=scratch,
                          capture_output=True, encoding="utf-8", errors="replace", timeout=LATEX_TIMEOUT_S)
    pdf = scratch / "invoice.pdf"
    if done.returncode != 0 or not pdf.exists():
        raise RenderFailed("pdflatex failed: " + done.stdout[-300:])
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "customer_name", "billing_address",
               "subtotal", "total_tax", "total"}
    optional = {"currency"}
    if invoice.due_date:
        printed.add("due_date")
    if invoice.vendor.tax_id:
        printed.add("vendor_tax_id")
    if invoice.iban:
        printed.add("iban")
    if invoice.payment_terms:
        printed.add("payment_terms")
    return Rendering(pdf.read_bytes(), invoice, frozenset(printed), frozenset(optional), language="en",
                     options={"font": font, "separator": data["separator"], "lang": data["lang"], "fontsize": data["fontsize"],
                              "geometry": data["geometry"]})


RENDERERS = (
    Renderer("facturization", "facturization 0.1.1 (PyPI) + pdflatex (TeX Live)", "MIT",
             "pdflatex invoice from YAML: big title, key table of number and dates, sender/recipient blocks with "
             "aligned VAT id / e-mail / phone, booktabs table with net, VAT rate, VAT and amount columns, totals "
             "with the currency code, labelled payment list",
             render, _missing, python_package_version("facturization"), max_items=22),  # tabularx never breaks a page
)
