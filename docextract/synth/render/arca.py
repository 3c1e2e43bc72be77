"""arca-factura-pdf (PyPI, MIT): Argentine invoices in the ARCA/AFIP layout, a dict in, PDF bytes out (fpdf2).

A three-column header (issuer with razón social and domicilio, the letter box A/B, the comprobante data),
a receptor band, an item table with Argentine number formats (``$1.234,56``, quantities ``2,00``), an
IVA breakdown and a boxed grand total. Spanish only; rendered non-fiscal (``fiscal=False``: a "MUESTRA"
watermark, no CAE or QR, which the package reserves for real authorisations). Varied: its five presets,
four fonts, three table styles, three densities, columns shown, with or without a drawn logo, one or
two IVA rates.
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from docextract.synth.render.base import Renderer, Rendering, python_package_missing, python_package_version
from docextract.synth.render.content import Party, RenderInvoice
from docextract.synth.render.logos import logo_png

ALICUOTA_IDS = {Decimal("21"): 5, Decimal("10.5"): 4, Decimal("27"): 6}


def _cuit(rng: random.Random) -> str:
    return f"{rng.choice((20, 23, 27, 30, 33))}{rng.randint(10000000, 99999999)}{rng.randint(0, 9)}"


def _fmt_cuit(digits: str) -> str:
    return f"{digits[:2]}-{digits[2:10]}-{digits[10]}"


def render(invoice: RenderInvoice, rng: random.Random, scratch: Path) -> Rendering:
    from factura_pdf import branding_from_dict, generate_invoice_pdf

    # Argentine IVA rates: the content's rates mapped onto 21 % and 10,5 % (totals recomputed from the items).
    rates = sorted({item.tax_rate for item in invoice.items}, reverse=True)
    local = {rate: (Decimal("21") if n == 0 else Decimal("10.5")) for n, rate in enumerate(rates)}
    invoice = invoice.with_items(tuple(replace(item, tax_rate=local[item.tax_rate]) for item in invoice.items))
    cuit = _cuit(rng)
    invoice = replace(invoice, vendor=replace(invoice.vendor, tax_id=_fmt_cuit(cuit), tax_id_value=cuit))
    multi = len(invoice.tax_rates) > 1
    preset = rng.choice(("clasico", "moderno", "minimal", "corporativo", "elegante"))
    style = {"preset": preset}
    if rng.random() < 0.5:
        style.update(font=rng.choice(("helvetica", "inter", "source_serif", "dejavu")),
                     table=rng.choice(("zebra", "rules", "minimal")), density=rng.choice(("compact", "normal", "airy")))
    show_terms = bool(invoice.payment_terms) and rng.random() < 0.7
    options = {"iva_breakdown": "main" if multi else rng.choice(("all", "main")),
               "layout": rng.choice(("expandido", "compacto")),
               "columns": {"code": rng.random() < 0.5, "discount": rng.random() < 0.5, "unit": rng.random() < 0.5}}
    if show_terms:
        options["terms"] = invoice.payment_terms
    if invoice.iban and rng.random() < 0.5:
        options["payment"] = {"titular": invoice.vendor.name, "cbu": f"{rng.randint(10**21, 10**22 - 1)}"}
    branding = {"brand_name": invoice.vendor.name, "emisor_razon_social": invoice.vendor.name,
                "emisor_domicilio": ", ".join(invoice.vendor.address.printed_lines()),
                "emisor_iibb": f"{rng.randint(900000, 999999)}-{rng.randint(1, 9)}",
                "emisor_inicio_act": invoice.invoice_date.replace(year=invoice.invoice_date.year - rng.randint(2, 20),
                                                                  day=1).strftime("%d/%m/%Y"),
                "contact_email": invoice.vendor.email, "style": style, "options": options}
    with_logo = rng.random() < 0.5
    if with_logo:
        branding["logo"] = {"data_url": logo_png(invoice.vendor.name, rng, data_url=True),
                            "position": rng.choice(("left", "center", "right")), "size": rng.choice(("s", "m", "l"))}
    services = invoice.due_date is not None
    fecha = invoice.invoice_date.isoformat()
    detail = {
        "invoice_number": invoice.invoice_number, "date": fecha,
        "due_date": invoice.due_date.isoformat() if services else fecha,
        "customer_name": invoice.customer.name, "total": float(invoice.total), "tax_total": float(invoice.total_tax),
        "line_items": [{"name": item.description, "description": "", "quantity": float(item.quantity),
                        "rate": float(item.unit_price), "item_total": float(item.amount)} for item in invoice.items],
    }
    arca_data = {"tipo_cbte": rng.choice((1, 6)), "punto_venta": rng.randint(1, 20), "fecha": fecha,
                 "cuit_receptor": _cuit(rng) if rng.random() < 0.6 else "", "concepto": 2 if services else 1,
                 "importe_neto": float(invoice.subtotal), "importe_iva": float(invoice.total_tax),
                 "importe_total": float(invoice.total),
                 "alicuotas": [{"id": ALICUOTA_IDS[r.rate], "base_imp": float(r.basis), "importe": float(r.tax)}
                               for r in invoice.tax_rates]}
    pdf = generate_invoice_pdf(detail, arca_data, {"nro_comprobante": rng.randint(1, 99999)}, cuit,
                               branding_from_dict(branding), fiscal=False)
    printed = {"invoice_number", "invoice_date", "vendor_name", "vendor_address", "vendor_tax_id", "customer_name",
               "subtotal", "total"}
    if services:
        printed.add("due_date")
    if show_terms:
        printed.add("payment_terms")
    printed.add("total_tax")  # the one IVA row, or the "IVA:" sum of several
    invoice = replace(invoice, customer=Party(invoice.customer.name), shipping_address=None,
                      currency="ARS", iban="", purchase_order="")
    return Rendering(pdf, invoice, frozenset(printed), language="es",
                     options={"preset": preset, **style, "logo": with_logo, "breakdown": options["iva_breakdown"]})


RENDERERS = (
    Renderer("arca-factura-pdf", "arca-factura-pdf 0.1.0 (PyPI)", "MIT",
             "Argentine ARCA/AFIP invoice: three-column header with letter box, receptor band, zebra/ruled item "
             "table, IVA breakdown, boxed total; Spanish, $1.234,56",
             render, python_package_missing("arca-factura-pdf"), python_package_version("arca-factura-pdf"),
             locales=("es_ES",), max_items=30, tax_rates=2),
)

