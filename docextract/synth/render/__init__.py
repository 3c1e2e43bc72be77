"""Invoices rendered by software other people wrote, labelled by construction (``docextract render``).

Each module adapts one renderer family to :class:`~docextract.synth.render.content.RenderInvoice` content:
``arca`` (arca-factura-pdf), ``dinbrief``, ``invoicegenerator`` (InvoiceGenerator), ``erechnung``, ``billwright``,
``pyinvoice`` (PyInvoice), ``simple_html`` (invoicepy's HTML template), ``pyinvoicer``, ``gen_invoice`` (gen-invoice's
HTML template), ``tryton`` (Tryton's invoice
report, printed by LibreOffice) (PyPI packages), ``node`` (npm packages run by Node), ``html_invoicer`` (an npm
package's HTML template, printed by WeasyPrint), ``latex`` (invoice classes of TeX Live), ``invoicing_tex`` (the
invoicing package's XeLaTeX template).
:mod:`.produce` renders, reads the PDF back and labels it (:mod:`docextract.data.rendered`). docs/render.md
lists the renderers, their versions, licences and looks.
"""

from __future__ import annotations

from docextract.synth.render.base import Renderer


def all_renderers() -> dict[str, Renderer]:
    """Every renderer docextract knows, by name (installed or not: ``Renderer.missing`` says)."""
    from docextract.synth.render import (
        arca, billwright, dinbrief, erechnung, facturization, gen_invoice, html_invoicer, invoice_it, invoicegenerator,
        invoicing_tex, latex, node, pyinvoice, pyinvoicer, simple_html, tryton,
    )

    out: dict[str, Renderer] = {}
    for module in (arca, dinbrief, invoicegenerator, erechnung, billwright, pyinvoice, simple_html, pyinvoicer, gen_invoice,
                   tryton, node, html_invoicer, invoice_it, facturization, latex, invoicing_tex):
        for renderer in module.RENDERERS:
            out[renderer.name] = renderer
    return out
