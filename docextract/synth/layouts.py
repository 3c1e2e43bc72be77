"""The layout families: twenty ways to arrange an invoice, differing in structure, not only in colour.

Each family is a function ``draw(cv, c, st)`` that lays out an :class:`InvoiceContent` with the blocks
of blocks.py: where the vendor and the customer sit (letterhead, window envelope, sidebar, footer only),
how the invoice number and dates are shown (grid, boxes, inline, table, stacked), the line-item table
(column order and set, rules, fills, zebra, receipt style), totals (column, box, bar, table) and footers.
All of them continue long tables on new pages under a repeated header and put the totals on the last
page. ``FAMILIES`` maps a family name to its :class:`Family`; docs/synth.md describes each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from docextract.synth import blocks as b
from docextract.synth.blocks import Flow, Style, TableStyle
from docextract.synth.canvas import Canvas
from docextract.synth.content import InvoiceContent

MARGIN = 42.0  # points, left/right/top page margin


@dataclass(frozen=True)
class Family:
    name: str
    draw: Callable[[Canvas, InvoiceContent, Style], None]
    page_format: str = "A4"
    fonts: tuple[str, ...] = ("Helvetica",)

    @property
    def description(self) -> str:
        return " ".join((self.draw.__doc__ or "").split())


# ---------------------------------------------------------------- the shared skeleton

Header = Callable[[Canvas, InvoiceContent, Style, float, float, float], float]  # (cv, c, st, x0, x1, y) -> y
Footer = Callable[[Canvas, InvoiceContent, Style, float, float, float], None]
Totals = Callable[[Canvas, InvoiceContent, Style, float, float, float], float]


def _totals_right(cv, c, st, x0, x1, y):
    return b.totals_right(cv, c, st, x1 - 200, x1, y)


def _totals_boxed(cv, c, st, x0, x1, y):
    return b.totals_right(cv, c, st, x1 - 190, x1 - 4, y, boxed=True, rules=False)


def _totals_bar(cv, c, st, x0, x1, y):
    return b.totals_inline(cv, c, st, x0, x1, y)


def _totals_table(cv, c, st, x0, x1, y):
    return b.totals_table(cv, c, st, x1 - 230, x1, y)


def _compose(cv: Canvas, c: InvoiceContent, st: Style, header: Header, footer: Footer | None, table: TableStyle | None,
             totals: Totals, after: tuple[str, ...] = ("terms", "notes", "bank"), x0: float = MARGIN,
             x1: float | None = None, continuation: Header | None = None, footer_height: float = b.FOOTER_HEIGHT) -> None:
    """Header on page one, items (continued on new pages), then totals and the after-blocks, all on the last page."""
    width, height = cv.page_width, cv.page_height
    x1 = width - MARGIN if x1 is None else x1
    bottom = height - footer_height - 14

    def start_page(first: bool) -> float:
        if footer:
            footer(cv, c, st, MARGIN, width - MARGIN, height - footer_height - 6)
        else:
            b.page_number_line(cv, st, width - MARGIN, height - 24)
        if first:
            return header(cv, c, st, x0, x1, MARGIN)
        return (continuation or b.continuation_header)(cv, c, st, x0, x1, MARGIN)

    flow = Flow(cv, start_page, bottom)
    flow.new_page()
    if table is None:
        b.receipt_items(flow, c, st, x0, x1)
    else:
        b.items_table(flow, c, st, table, x0, x1)
    after_height = _after_height(c, st, after)
    flow.ensure(b.totals_height(c, st) + after_height)
    flow.y = totals(cv, c, st, x0, x1, flow.y)
    for block in after:
        if block == "terms":
            flow.y = b.terms_line(cv, c, st, x0, flow.y)
        elif block == "notes":
            flow.y = b.notes_block(cv, c, st, x0, x1, flow.y)
        elif block == "bank":
            flow.y = b.bank_block(cv, c, st, x0, flow.y)


def _after_height(c: InvoiceContent, st: Style, after: tuple[str, ...]) -> float:
    lines = 0
    if "terms" in after and c.payment_terms:
        lines += 1.5
    if "notes" in after and c.notes:
        lines += 1 + 2.2 * len(c.notes)
    if "bank" in after and c.iban:
        lines += 3.5
    return lines * st.size * b.LINE_GAP


def _footer_columns(cv, c, st, x0, x1, y):
    b.footer_columns(cv, c, st, x0, x1, y)


def _footer_bank_only(cv, c, st, x0, x1, y):
    b.footer_columns(cv, c, st, x0, x1, y, vendor=False)


def _footer_line(cv, c, st, x0, x1, y):
    b.footer_line(cv, c, st, x0, x1, y)


def _footer_noise(cv, c, st, x0, x1, y):
    b.footer_noise(cv, c, st, x0, x1, y)


NO_TERMS = ("invoice_number", "invoice_date", "due_date", "purchase_order")

# ---------------------------------------------------------------- the families


def classic_left(cv, c, st):
    """Letterhead top-left, big title top-right over a label/value grid, bill-to below, shaded table header."""
    def header(cv, c, st, x0, x1, y):
        bottom = b.vendor_block(cv, c, st, x0, y, tax_id=True)
        b.title(cv, st, x1, y, align="R")
        meta = b.meta_grid(cv, c, st, x1 - 200, x1 - 105, y + 36, keys=NO_TERMS)
        y = max(bottom, meta) + 16
        return b.customer_blocks(cv, c, st, (x0, x0 + 200), y) + 18
    _compose(cv, c, st, header, _footer_line, TableStyle(b.TABLE_CLASSIC, header="fill"), _totals_right,
             after=("terms", "notes", "bank"))


def classic_right(cv, c, st):
    """Letterhead flush right, title top-left, meta flush right under the customer, underlined table header."""
    def header(cv, c, st, x0, x1, y):
        bottom = b.vendor_block(cv, c, st, x1, y, align="R", tax_id=False, name_size=13)
        b.title(cv, st, x0, y, size=24)
        y = b.customer_blocks(cv, c, st, (x0, x0 + 190), max(bottom, y + 60) + 10)
        return b.meta_right(cv, c, st, x1, y + 4) + 16
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_CLASSIC, header="underline", row_rules=True),
             _totals_boxed, after=("notes",))


def din_letter(cv, c, st):
    """German business letter (DIN 5008): sender line over a window address, info column right, heading line."""
    def header(cv, c, st, x0, x1, y):
        cv.line(x1, y + 16, [cv.value(c.vendor.name, "vendor_name")], size=15, style="B", align="R")
        win = b.sender_line(cv, c, x0 + 8, y + 85)
        b.party_block(cv, st, x0 + 8, win, None, c.customer.name, c.customer.address, "billing_address")
        info = b.meta_grid(cv, c, st, x1 - 170, x1, y + 85, keys=NO_TERMS, value_align="R", label_style="")
        if c.vendor.tax_id:
            label_width = cv.width(st.key("tax_id"), st.size, "") + cv.width(c.vendor.tax_id) + 8
            cv.line(x1 - 170, info + st.size, [st.key("tax_id")], size=st.size)
            if label_width > 170:  # a long wording ("N° TVA intracommunautaire") puts the value below
                info += st.size * b.LINE_GAP
            cv.line(x1, info + st.size, [cv.value(c.vendor.tax_id, "vendor_tax_id")], size=st.size, align="R")
            info += st.size * b.LINE_GAP
        y = max(info, y + 200)
        if c.shipping_address:
            y = b.party_block(cv, st, x0, y, "ship_to", None, c.shipping_address, "shipping_address") + 8
        cv.line(x0, y + 13, [st.word("title"), st.word("number_short"), cv.value(c.invoice_number, "invoice_number")],
                size=12, style="B")
        return y + 32
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_POS_UNIT, header="bold"), _totals_right,
             after=("terms", "notes"))


def banner(cv, c, st):
    """Full-width coloured banner with title and vendor in white, meta boxes, bill-to/ship-to side by side."""
    def header(cv, c, st, x0, x1, y):
        cv.box(0, 0, cv.page_width, 90, fill=st.accent, stroke=False)
        cv.line(x0, 50, [st.word("title")], size=26, style="B", color=(255, 255, 255))
        cv.line(x1, 40, [cv.value(c.vendor.name, "vendor_name")], size=13, style="B", align="R", color=(255, 255, 255))
        entity = cv.new_entity()
        cv.line(x1, 56, [b.Part(t, "vendor_address", entity) for t in c.vendor.address], size=8, align="R",
                color=(255, 255, 255))
        y = b.meta_boxes(cv, c, st, x0, x1, 104)
        return b.customer_blocks(cv, c, st, (x0, (x0 + x1) / 2), y + 6) + 16
    _compose(cv, c, st, header, _footer_bank_only, TableStyle(b.TABLE_CLASSIC, header="accent", zebra=True),
             _totals_boxed, after=("terms", "notes"))


def three_columns(cv, c, st):
    """From | Bill to | Ship to in three columns under the title; meta inline; grid table; totals bar."""
    def header(cv, c, st, x0, x1, y):
        y = b.title(cv, st, x0, y, size=18)
        third = (x1 - x0) / 3
        v = b.vendor_block(cv, c, st, x0, y, name_size=10, contact=False, heading=True)
        cust = b.party_block(cv, st, x0 + third, y, "bill_to", c.customer.name, c.customer.address, "billing_address")
        ship = (b.party_block(cv, st, x0 + 2 * third, y, "ship_to", None, c.shipping_address, "shipping_address")
                if c.shipping_address else y)
        y = max(v, cust, ship) + 10
        cv.hline(x0, x1, y, 0.5)
        return b.meta_inline(cv, c, st, x0, x1, y + 6) + 12
    _compose(cv, c, st, header, _footer_line, TableStyle(b.TABLE_CLASSIC, header="grid", grid=True), _totals_bar,
             after=("notes", "bank"))


def sidebar(cv, c, st):
    """A shaded left sidebar holds vendor, meta and bank details; title, customer and a narrow table on the right."""
    side = 170.0

    def paint_sidebar(first: bool) -> float:
        cv.box(0, 0, side, cv.page_height, fill=238, stroke=False)
        if not first:
            return MARGIN
        y = b.vendor_block(cv, c, st, 18, MARGIN, name_size=11, size=8, contact=False)
        y = b.meta_stacked(cv, c, st, 18, y + 14, keys=b.META_KEYS)
        if c.iban:
            cv.line(18, y + 8, [st.word("iban")], size=6.8, color=(110, 110, 110))
            cv.line(18, y + 18, [cv.value(c.iban, "iban")], size=6.8)
        return MARGIN

    def header(cv, c, st, x0, x1, y):
        paint_sidebar(True)
        y = b.title(cv, st, x0, y, size=22, color=st.accent)
        return b.customer_blocks(cv, c, st, (x0, x0 + 180), y + 6) + 18

    def continuation(cv, c, st, x0, x1, y):
        paint_sidebar(False)
        return b.continuation_header(cv, c, st, x0, x1, y)

    _compose(cv, c, st, header, None, TableStyle(b.TABLE_CLASSIC, header="underline", size=8), _totals_right,
             after=("notes",), x0=side + 22, continuation=continuation, footer_height=20)


def minimal_mono(cv, c, st):
    """Typewriter look: everything stacked on the left, no rules, bold headers only."""
    def header(cv, c, st, x0, x1, y):
        y = b.vendor_block(cv, c, st, x0, y, name_size=11, contact=False)
        y = b.title(cv, st, x0, y + 12, size=14)
        y = b.meta_grid(cv, c, st, x0, x0 + 140, y, size=8.5, label_style="")
        return b.customer_blocks(cv, c, st, (x0,), y + 12) + 16
    _compose(cv, c, st, header, _footer_noise, TableStyle(b.TABLE_CLASSIC, header="bold", size=8.5), _totals_right,
             after=("notes", "bank"))


def centered_letterhead(cv, c, st):
    """Centred vendor letterhead and title, meta boxes, bill/ship columns, grid table, totals table."""
    def header(cv, c, st, x0, x1, y):
        mid = (x0 + x1) / 2
        cv.line(mid, y + 18, [cv.value(c.vendor.name, "vendor_name")], size=18, style="B", align="C")
        entity = cv.new_entity()
        cv.line(mid, y + 32, [b.Part(t, "vendor_address", entity) for t in c.vendor.address], size=8.5, align="C")
        cv.hline(x0, x1, y + 40, 1.2)
        y = b.title(cv, st, mid, y + 52, size=16, align="C")
        y = b.meta_boxes(cv, c, st, x0, x1, y, fill=None)
        return b.customer_blocks(cv, c, st, (x0, mid + 10), y + 4) + 16
    _compose(cv, c, st, header, _footer_bank_only, TableStyle(b.TABLE_POS_UNIT, header="grid", grid=True),
             _totals_table, after=("terms", "notes"))


def logo_box(cv, c, st):
    """A text logo (initials in a square) beside the vendor name, meta flush right, caps table header."""
    def header(cv, c, st, x0, x1, y):
        side = b.text_logo(cv, c, x0, y, fill=st.accent)
        v = b.vendor_block(cv, c, st, x0 + side + 10, y + 2, name_size=12, tax_id=False)
        b.title(cv, st, x1, y, size=18, align="R", color=st.accent)
        meta = b.meta_right(cv, c, st, x1, y + 32, keys=NO_TERMS)
        return b.customer_blocks(cv, c, st, (x0, x0 + 220), max(v, meta, y + side) + 18) + 16
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_CLASSIC, header="fill", zebra=True),
             _totals_right, after=("terms", "notes"))


def meta_strip(cv, c, st):
    """Vendor left and title right, then a full-width bordered meta table (labels row over values row)."""
    def header(cv, c, st, x0, x1, y):
        v = b.vendor_block(cv, c, st, x0, y, name_size=13)
        b.title(cv, st, x1, y + 4, size=20, align="R")
        y = b.meta_table(cv, c, st, x0, x1, max(v, y + 50) + 8, keys=NO_TERMS + ("currency",))
        return b.customer_blocks(cv, c, st, (x0, (x0 + x1) / 2), y + 4) + 16
    _compose(cv, c, st, header, _footer_noise, TableStyle(b.TABLE_POS_UNIT, header="fill", row_rules=True),
             _totals_right, after=("terms", "bank", "notes"))


def statement(cv, c, st):
    """Title huge top-left, customer top-right, the vendor only in the footer; zebra table, totals bar."""
    def header(cv, c, st, x0, x1, y):
        b.title(cv, st, x0, y, size=30, color=st.accent)
        y1 = b.meta_grid(cv, c, st, x0, x0 + 110, y + 50, keys=b.META_KEYS)
        y2 = b.customer_blocks(cv, c, st, (x1 - 170,), y)
        return max(y1, y2) + 18
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_CLASSIC, header="accent", zebra=True),
             _totals_bar, after=("notes",))


def receipt(cv, c, st):
    """A narrow centred column, monospaced: items as "description / qty x price  amount" pairs, no table."""
    def header(cv, c, st, x0, x1, y):
        mid = (x0 + x1) / 2
        cv.line(mid, y + 14, [cv.value(c.vendor.name, "vendor_name")], size=12, style="B", align="C")
        entity = cv.new_entity()
        y += 26
        for t in c.vendor.address:
            cv.line(mid, y + 8, [b.Part(t, "vendor_address", entity)], size=8, align="C")
            y += 11
        if c.vendor.tax_id:
            cv.line(mid, y + 8, [st.key("tax_id"), cv.value(c.vendor.tax_id, "vendor_tax_id")], size=8, align="C")
            y += 11
        cv.hline(x0, x1, y + 6, 0.5)
        y = b.title(cv, st, mid, y + 12, size=12, align="C")
        # No table header to say "Amount EUR": a bare-amount receipt names its currency with the meta.
        keys = b.META_KEYS + (("currency",) if c.money.kind == "bare" else ())
        y = b.meta_grid(cv, c, st, x0, x0 + 95, y, keys=keys, size=8, label_style="")
        y = b.customer_blocks(cv, c, st, (x0,), y + 8, size=8)
        cv.hline(x0, x1, y + 4, 0.5)
        return y + 12
    _compose(cv, c, st, header, _footer_line, None, _totals_right, after=("notes", "bank"),
             x0=cv.page_width / 2 - 150, x1=cv.page_width / 2 + 150)


def formal_times(cv, c, st):
    """Serif letterhead with a double rule, customer left and meta right, pos/unit table, bank in the body."""
    def header(cv, c, st, x0, x1, y):
        y = b.vendor_block(cv, c, st, x0, y, name_size=17, contact=True)
        cv.hline(x0, x1, y + 4, 1.2)
        cv.hline(x0, x1, y + 7, 0.4)
        top = y + 22
        cust = b.customer_blocks(cv, c, st, (x0,), top)
        meta = b.meta_grid(cv, c, st, x1 - 210, x1, top, keys=NO_TERMS, value_align="R")
        y = max(cust, meta) + 14
        cv.line((x0 + x1) / 2, y + 14, [st.word("title")], size=15, style="B", align="C")
        return y + 30
    _compose(cv, c, st, header, _footer_noise, TableStyle(b.TABLE_POS_UNIT, header="underline"), _totals_right,
             after=("terms", "bank", "notes"))


def french_style(cv, c, st):
    """Vendor top-left, customer in a bordered box on the right, "Invoice No X of DATE" line, tax-rate column."""
    def header(cv, c, st, x0, x1, y):
        v = b.vendor_block(cv, c, st, x0, y, name_size=13)
        bx = x1 - 220
        lines = 2 + len(c.customer.address)
        cv.box(bx, y + 40, x1, y + 48 + lines * st.size * b.LINE_GAP)
        b.party_block(cv, st, bx + 8, y + 44, "bill_to", c.customer.name, c.customer.address, "billing_address")
        y = max(v, y + 52 + lines * st.size * b.LINE_GAP) + 14
        cv.line(x0, y + 14, [st.word("title"), st.word("number_short"), cv.value(c.invoice_number, "invoice_number")],
                size=13, style="B")
        y += 26
        y = b.meta_inline(cv, c, st, x0, x1, y, keys=("invoice_date", "due_date", "purchase_order"))
        if c.shipping_address:
            y = b.party_block(cv, st, x0, y + 4, "ship_to", None, c.shipping_address, "shipping_address")
        return y + 14
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_WITH_TAX, header="grid", grid=True),
             _totals_table, after=("terms", "notes"))


def stacked_meta(cv, c, st):
    """Meta as small labels over bold values in a right column; vendor and customer stacked on the left."""
    def header(cv, c, st, x0, x1, y):
        y1 = b.vendor_block(cv, c, st, x0, y, name_size=14)
        y1 = b.customer_blocks(cv, c, st, (x0, x0 + 170), y1 + 18)
        b.title(cv, st, x1 - 130, y, size=16)
        y2 = b.meta_stacked(cv, c, st, x1 - 130, y + 30, keys=NO_TERMS)
        return max(y1, y2) + 16
    _compose(cv, c, st, header, _footer_line, TableStyle(b.TABLE_CLASSIC, header="underline", row_rules=True),
             _totals_right, after=("terms", "notes", "bank"))


def bordered_sections(cv, c, st):
    """Every section in its own bordered box: vendor, customer, meta; grid table; boxed totals."""
    def header(cv, c, st, x0, x1, y):
        mid = (x0 + x1) / 2
        b.title(cv, st, x0, y, size=18)
        top = y + 34
        v = b.vendor_block(cv, c, st, x0 + 8, top + 6, name_size=11, heading=True)
        m = b.meta_grid(cv, c, st, mid + 8, mid + 110, top + 8, keys=NO_TERMS)
        bottom = max(v, m) + 6
        cv.box(x0, top, mid - 6, bottom)
        cv.box(mid + 2, top, x1, bottom)
        cust_bottom = b.customer_blocks(cv, c, st, (x0 + 8, mid + 10), bottom + 14) + 6
        cv.box(x0, bottom + 8, x1, cust_bottom)
        return cust_bottom + 16
    _compose(cv, c, st, header, _footer_noise, TableStyle(b.TABLE_CLASSIC, header="grid", grid=True), _totals_boxed,
             after=("terms", "bank", "notes"))


def quantity_first(cv, c, st):
    """Quantity with unit as the first column; title bar across the page; meta right-aligned under it."""
    def header(cv, c, st, x0, x1, y):
        cv.box(x0, y, x1, y + 28, fill=225, stroke=False)
        cv.line(x0 + 8, y + 19, [st.word("title")], size=15, style="B")
        cv.line(x1 - 8, y + 19, [cv.value(c.invoice_number, "invoice_number")], size=12, style="B", align="R")
        y += 40
        v = b.vendor_block(cv, c, st, x0, y, name_size=11, contact=False)
        m = b.meta_right(cv, c, st, x1, y, keys=("invoice_date", "due_date", "purchase_order", "payment_terms"))
        return b.customer_blocks(cv, c, st, (x0, x0 + 220), max(v, m) + 14) + 16
    _compose(cv, c, st, header, _footer_bank_only, TableStyle(b.TABLE_QTY_FIRST, header="bold", row_rules=True),
             _totals_right, after=("notes",))


def footer_heavy(cv, c, st):
    """A thin header (title and number), the vendor's details only in a four-column footer on every page."""
    def header(cv, c, st, x0, x1, y):
        cv.line(x0, y + 12, [cv.value(c.vendor.name, "vendor_name")], size=12, style="B", color=st.accent)
        b.title(cv, st, x1, y - 4, size=16, align="R")
        y = b.meta_inline(cv, c, st, x0, x1, y + 26, keys=b.META_KEYS)
        cv.hline(x0, x1, y, 0.6)
        return b.customer_blocks(cv, c, st, (x0, x0 + 250), y + 12) + 16
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_WITH_TAX, header="fill"), _totals_right,
             after=("notes",))


def ship_bill_header(cv, c, st):
    """Vendor centred between bill-to (left) and ship-to (right) columns; meta grid beneath; unit column."""
    def header(cv, c, st, x0, x1, y):
        mid = (x0 + x1) / 2
        y = b.title(cv, st, mid, y, size=18, align="C")
        v = b.vendor_block(cv, c, st, mid, y, align="C", name_size=12, contact=False)
        cust = b.party_block(cv, st, x0, y + 60, "bill_to", c.customer.name, c.customer.address, "billing_address")
        ship = (b.party_block(cv, st, x1 - 150, y + 60, "ship_to", None, c.shipping_address, "shipping_address")
                if c.shipping_address else y)
        y = max(v, cust, ship) + 12
        return b.meta_grid(cv, c, st, x0, x0 + 120, y, keys=b.META_KEYS) + 14
    _compose(cv, c, st, header, _footer_line, TableStyle(b.TABLE_POS_UNIT, header="fill", zebra=True),
             _totals_table, after=("notes", "bank"))


def landscape_wide(cv, c, st):
    """Landscape page: header strip of vendor | customer | meta columns, a wide table with every column."""
    def header(cv, c, st, x0, x1, y):
        third = (x1 - x0) / 3
        b.title(cv, st, x0, y, size=16)
        v = b.vendor_block(cv, c, st, x0, y + 30, name_size=11)
        cust = b.customer_blocks(cv, c, st, (x0 + third, x0 + third + 140), y + 30)
        m = b.meta_grid(cv, c, st, x0 + 2 * third + 30, x1, y + 30, value_align="R", keys=NO_TERMS)
        return max(v, cust, m) + 14
    wide = (b.Column("pos", 0.05), b.Column("description", 0.40), b.Column("quantity", 0.08, "R"),
            b.Column("unit", 0.08), b.Column("unit_price", 0.13, "R"), b.Column("tax_rate", 0.09, "R"),
            b.Column("amount", 0.17, "R"))
    _compose(cv, c, st, header, _footer_line, TableStyle(wide, header="accent", row_rules=True), _totals_right,
             after=("terms", "bank", "notes"), footer_height=44)


def window_right(cv, c, st):
    """Swiss/Letter style: the customer window on the right, vendor and meta on the left, dotted leaders."""
    def header(cv, c, st, x0, x1, y):
        v = b.vendor_block(cv, c, st, x0, y, name_size=12)
        b.party_block(cv, st, x1 - 200, y + 70, None, c.customer.name, c.customer.address, "billing_address")
        y = max(v, y + 130) + 12
        b.title(cv, st, x0, y, size=16)
        y = b.meta_grid(cv, c, st, x0, x0 + 130, y + 28, keys=NO_TERMS, label_style="")
        if c.shipping_address:
            y = b.party_block(cv, st, x0, y + 6, "ship_to", None, c.shipping_address, "shipping_address")
        return y + 16
    _compose(cv, c, st, header, _footer_noise, TableStyle(b.TABLE_QTY_FIRST, header="underline"), _totals_boxed,
             after=("terms", "notes", "bank"))


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("classic_left", classic_left, fonts=("Helvetica", "Times")),
    Family("classic_right", classic_right, page_format="Letter"),
    Family("din_letter", din_letter),
    Family("banner", banner),
    Family("three_columns", three_columns, page_format="Letter"),
    Family("sidebar", sidebar),
    Family("minimal_mono", minimal_mono, fonts=("Courier",)),
    Family("centered_letterhead", centered_letterhead, fonts=("Helvetica", "Times")),
    Family("logo_box", logo_box),
    Family("meta_strip", meta_strip, page_format="Letter"),
    Family("statement", statement),
    Family("receipt", receipt, fonts=("Courier", "Helvetica")),
    Family("formal_times", formal_times, fonts=("Times",)),
    Family("french_style", french_style),
    Family("stacked_meta", stacked_meta, page_format="Letter"),
    Family("bordered_sections", bordered_sections),
    Family("quantity_first", quantity_first),
    Family("footer_heavy", footer_heavy),
    Family("ship_bill_header", ship_bill_header, fonts=("Helvetica", "Times")),
    Family("landscape_wide", landscape_wide, page_format="A4-landscape"),
    Family("window_right", window_right, page_format="Letter"),
)}
FAMILY_NAMES = tuple(FAMILIES)
