"""The layout families: twenty-six ways to arrange an invoice, differing in structure, not only in colour.

Each family is a function ``draw(cv, c, st)`` that lays out an :class:`InvoiceContent` with the blocks
of blocks.py: where the vendor and the customer sit (letterhead, window envelope, sidebar, footer only),
how the invoice number and dates are shown (grid, boxes, inline, table, stacked), the line-item table
(column order and set, rules, fills, zebra, receipt style), totals (column, box, bar, table) and footers.
All of them continue long tables on new pages under a repeated header and put the totals on the last
page. ``FAMILIES`` maps a family name to its :class:`Family`; docs/synth.md describes each.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Callable

from docextract.synth import blocks as b
from docextract.synth import wordlists as w
from docextract.synth.blocks import Flow, Style, TableStyle
from docextract.synth.canvas import Canvas
from docextract.synth.content import DEFAULT_PROFILE, ContentProfile, InvoiceContent

MARGIN = 42.0  # points, left/right/top page margin


@dataclass(frozen=True)
class Family:
    name: str
    draw: Callable[[Canvas, InvoiceContent, Style], None]
    page_format: str = "A4"
    fonts: tuple[str, ...] = ("Helvetica",)
    profile: ContentProfile = DEFAULT_PROFILE  # how often its invoices have credit notes, several VAT rates, ...

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
    if b.totals_row_count(c) > 5:  # a bar cannot hold discounts and several tax rates legibly
        return b.totals_right(cv, c, st, x1 - 200, x1, y)
    return b.totals_inline(cv, c, st, x0, x1, y)


def _totals_table(cv, c, st, x0, x1, y):
    return b.totals_table(cv, c, st, x1 - 230, x1, y)


def _compose(cv: Canvas, c: InvoiceContent, st: Style, header: Header, footer: Footer | None, table: TableStyle | None,
             totals: Totals, after: tuple[str, ...] = ("terms", "notes", "bank"), x0: float = MARGIN,
             x1: float | None = None, continuation: Header | None = None, footer_height: float = b.FOOTER_HEIGHT,
             totals_height: Callable[[InvoiceContent, Style], float] | None = None) -> None:
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
    after_height = _after_height(cv, c, st, after, x1 - x0)
    flow.ensure((totals_height or b.totals_height)(c, st) + after_height)
    flow.y = totals(cv, c, st, x0, x1, flow.y)
    for block in after:
        if block == "terms":
            flow.y = b.terms_line(cv, c, st, x0, flow.y)
        elif block == "notes":
            flow.y = b.notes_block(cv, c, st, x0, x1, flow.y)
        elif block == "bank":
            flow.y = b.bank_block(cv, c, st, x0, flow.y)


def _after_height(cv: Canvas, c: InvoiceContent, st: Style, after: tuple[str, ...], width: float) -> float:
    lines = 0.0
    if "terms" in after and c.payment_terms:
        lines += 1.5
    if "bank" in after and c.iban:
        lines += 3.5
    notes = b.notes_height(cv, c, st, width) if "notes" in after else 0.0
    return lines * st.size * b.LINE_GAP + notes


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
        b.party_block(cv, st, x0 + 8, win, None, c.customer.name, c.customer.address, "billing_address",
                      party=c.customer)
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
        cv.line(x0, y + 13, [st.title_word(), st.word("number_short"), cv.value(c.invoice_number, "invoice_number")],
                size=12, style="B")
        return y + 32
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_POS_UNIT, header="bold"), _totals_right,
             after=("terms", "notes"))


def banner(cv, c, st):
    """Full-width coloured banner with title and vendor in white, meta boxes, bill-to/ship-to side by side."""
    def header(cv, c, st, x0, x1, y):
        cv.box(0, 0, cv.page_width, 90, fill=st.accent, stroke=False)
        cv.line(x0, 50, [st.title_word()], size=26, style="B", color=(255, 255, 255))
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
        cust = b.party_block(cv, st, x0 + third, y, "bill_to", c.customer.name, c.customer.address, "billing_address",
                             party=c.customer)
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
        y = b.vendor_block(cv, c, st, 18, MARGIN, name_size=11, size=8, contact=False, max_width=side - 28)
        y = b.meta_stacked(cv, c, st, 18, y + 14, keys=b.META_KEYS, max_width=side - 28)
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
        cv.line((x0 + x1) / 2, y + 14, [st.title_word()], size=15, style="B", align="C")
        return y + 30
    _compose(cv, c, st, header, _footer_noise, TableStyle(b.TABLE_POS_UNIT, header="underline"), _totals_right,
             after=("terms", "bank", "notes"))


def french_style(cv, c, st):
    """Vendor top-left, customer in a bordered box on the right, "Invoice No X of DATE" line, tax-rate column."""
    def header(cv, c, st, x0, x1, y):
        v = b.vendor_block(cv, c, st, x0, y, name_size=13)
        bx = x1 - 220
        lines = 2 + len(c.customer.address) + bool(c.customer.salutation) + bool(c.customer.attention)
        cv.box(bx, y + 40, x1, y + 48 + lines * st.size * b.LINE_GAP)
        b.party_block(cv, st, bx + 8, y + 44, "bill_to", c.customer.name, c.customer.address, "billing_address",
                      party=c.customer)
        y = max(v, y + 52 + lines * st.size * b.LINE_GAP) + 14
        cv.line(x0, y + 14, [st.title_word(), st.word("number_short"), cv.value(c.invoice_number, "invoice_number")],
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
        cv.line(x0 + 8, y + 19, [st.title_word()], size=15, style="B")
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
        cust = b.party_block(cv, st, x0, y + 60, "bill_to", c.customer.name, c.customer.address, "billing_address",
                             party=c.customer)
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
        b.party_block(cv, st, x1 - 200, y + 70, None, c.customer.name, c.customer.address, "billing_address",
                      party=c.customer)
        y = max(v, y + 130) + 12
        b.title(cv, st, x0, y, size=16)
        y = b.meta_grid(cv, c, st, x0, x0 + 130, y + 28, keys=NO_TERMS, label_style="")
        if c.shipping_address:
            y = b.party_block(cv, st, x0, y + 6, "ship_to", None, c.shipping_address, "shipping_address")
        return y + 16
    _compose(cv, c, st, header, _footer_noise, TableStyle(b.TABLE_QTY_FIRST, header="underline"), _totals_boxed,
             after=("terms", "notes", "bank"))


# ---------------------------------------------------------------- families for what real invoices do
# (the error classes of issue 13: inline keys, the issuer only in a logo or footer, key/value viewers,
# credit notes, small print with several VAT rates)

KV_TABLE = (b.Column("pos", 0.05), b.Column("article", 0.12), b.Column("description", 0.35),
            b.Column("unit_price", 0.13, "R"), b.Column("quantity_unit", 0.12, "R"), b.Column("tax_rate", 0.08, "R"),
            b.Column("amount", 0.15, "R"))


def _reference(c: InvoiceContent, key: str) -> str:
    return next((r.text for r in c.references if r.key == key), "")


def kv_viewer(cv, c, st):
    """E-invoice viewer (a ZUGFeRD/XRechnung visualisation): a producer line on every page, number and date inline
    in a heading sentence ("Rechnung Nr. 471102 vom 05.03.2018"), sections of "Key: value" rows (seller with
    number, GLN, name, address, tax numbers; buyer; remarks), a borderless item table with article numbers, the
    VAT breakdown per rate and the document totals as key/value rows; no letterhead, no vendor footer."""
    producer = st.rng.choice(w.PRODUCER_LINES)
    heading = st.word("heading_credit" if c.is_credit_note else "heading_invoice")
    size = st.size
    drawn_remarks = [False]

    def top(cv, c, st, x0, x1, y):
        cv.line(MARGIN, y, [producer], size=6.5, style="I", color=(90, 90, 90))
        cv.hline(MARGIN, cv.page_width - MARGIN, y + 6, 1.2, gray=200)
        return y + 18

    def remarks(cv, c, st, x0, x1, y):
        xv = x0 + (x1 - x0) * 0.3
        rows = b.kv_note_rows(cv, c, st, x1 - xv - 6, size * 0.9)
        if c.payment_terms:
            rows.append((st.key("payment_terms"), [cv.value(c.payment_terms, "payment_terms")]))
        return b.kv_section(cv, st, x0, x1, y, st.word("remarks"), rows, xv, size=size * 0.9) if rows else y

    def remarks_height():
        lines = sum(len(b.note_lines(cv, note, (cv.page_width - 2 * MARGIN) * 0.7 - 6, size * 0.9)) for note in c.notes)
        return (lines + 2 + bool(c.payment_terms)) * size * 0.9 * 1.75 + 12

    def header(cv, c, st, x0, x1, y):
        y = top(cv, c, st, x0, x1, y)
        cv.line(x0, y + 14, [heading, st.word("number_short"), cv.value(c.invoice_number, "invoice_number"),
                             st.word("dated"), cv.value(c.invoice_date, "invoice_date")], size=14, style="B")
        y += 28
        xv = x0 + (x1 - x0) * 0.42
        first = [(st.key("currency"), [cv.value(c.currency, "currency")])]
        if c.due_date and c.due_in_meta:
            first.append((st.key("due_date"), [cv.value(c.due_date, "due_date")]))
        if c.purchase_order:
            first.append((st.key("purchase_order"), [cv.value(c.purchase_order, "purchase_order")]))
        first += [(st.key(r.key), [b.Part(r.text)]) for r in c.references
                  if r.key not in ("gln", "tax_number", "customer_number", "customer_vat")]
        y = b.kv_section(cv, st, x0, x1, y, None, first, xv)
        rows = [(st.key("party_number"), [b.Part(c.vendor.number)])] if st.rng.random() < 0.7 else []
        if _reference(c, "gln"):
            rows.append((st.key("gln"), [b.Part(_reference(c, "gln"))]))
        rows.append((st.key("name"), [cv.value(c.vendor.name, "vendor_name")]))
        entity = cv.new_entity()
        rows += [(st.key("address") if i == 0 else "", [b.Part(t, "vendor_address", entity)])
                 for i, t in enumerate(c.vendor.address)]
        if c.vendor.tax_number:
            rows.append((st.key("tax_number"), [b.Part(c.vendor.tax_number)]))
        if c.vendor.tax_id:
            rows.append((st.key("tax_id"), [cv.value(c.vendor.tax_id, "vendor_tax_id")]))
        y = b.kv_section(cv, st, x0, x1, y, st.word("seller"), rows, xv)
        rows = [(st.key("party_number"), [b.Part(_reference(c, "customer_number"))])] if _reference(
            c, "customer_number") else []
        rows.append((st.key("name"), [cv.value(c.customer.name, "customer_name")]))
        entity = cv.new_entity()
        rows += [(st.key("address") if i == 0 else "", [b.Part(t, "billing_address", entity)])
                 for i, t in enumerate(c.customer.address)]
        if c.customer.tax_id:
            rows.append((st.key("tax_id"), [b.Part(c.customer.tax_id)]))
        y = b.kv_section(cv, st, x0, x1, y, st.word("buyer"), rows, xv)
        if c.shipping_address:
            entity = cv.new_entity()
            rows = [(st.key("address") if i == 0 else "", [b.Part(t, "shipping_address", entity)])
                    for i, t in enumerate(c.shipping_address)]
            y = b.kv_section(cv, st, x0, x1, y, st.word("ship_to"), rows, xv)
        if y + remarks_height() < cv.page_height - 160:
            y = remarks(cv, c, st, x0, x1, y)
            drawn_remarks[0] = True
        cv.box(x0, y, x1, y + size * 1.75, fill=(210, 235, 248), stroke=False)
        cv.line(x0 + 4, y + size * 1.2, [st.word("positions")], size=size, style="B")
        return y + size * 1.75 + 4

    def totals(cv, c, st, x0, x1, y):
        pitch = size * 1.75
        cv.box(x0, y, x1, y + pitch, fill=(210, 235, 248), stroke=False)
        cv.line(x0 + 4, y + pitch * 0.7, [st.word("tax_breakdown")], size=size, style="B")
        y += pitch
        cols = (x0 + 4, x0 + (x1 - x0) * 0.55, x0 + (x1 - x0) * 0.72, x1 - 4)  # category | basis | rate | tax
        cv.line(cols[1], y + pitch * 0.7, [st.word("basis")], size=size * 0.9, style="B", align="R")
        cv.line(cols[2], y + pitch * 0.7, [st.word("tax_rate")], size=size * 0.9, style="B", align="R")
        cv.line(cols[3], y + pitch * 0.7, [st.word("tax")], size=size * 0.9, style="B", align="R")
        y += pitch
        single = not c.multi_rate
        for line in c.tax_lines:
            cv.line(cols[0], y + pitch * 0.7, [st.word("tax_category")], size=size)
            cv.line(cols[1], y + pitch * 0.7, b.money_parts(cv, c, line.basis, "subtotal" if single else None), size=size,
                    align="R")
            cv.line(cols[2], y + pitch * 0.7, [line.rate], size=size, align="R")
            cv.line(cols[3], y + pitch * 0.7, b.money_parts(cv, c, line.tax, "total_tax" if single else None), size=size,
                    align="R")
            y += pitch
        y += 8
        charges = sum((a.amount_value for a in c.adjustments if a.kind == "charge"), Decimal(0))
        allowances = sum((a.amount_value for a in c.adjustments if a.kind == "discount"), Decimal(0))
        rows = [(st.key("items_total"), b.money_parts(cv, c, c.items_total, None if c.adjustments else "subtotal")),
                (st.key("charges_total"), b.money_parts(cv, c, c.money_text(charges), None)),
                (st.key("allowances_total"), b.money_parts(cv, c, c.money_text(allowances), None)),
                (st.key("subtotal"), b.money_parts(cv, c, c.subtotal, "subtotal")),
                (st.key("tax_sum"), b.money_parts(cv, c, c.total_tax, "total_tax")),
                (st.key("total"), b.money_parts(cv, c, c.total, "total")),
                (st.key("deposit"), b.money_parts(cv, c, c.deposit or c.money_text(Decimal(0)), None))]
        if c.rounding:
            rows.append((st.key("rounding"), b.money_parts(cv, c, c.rounding, None)))
        if c.amount_due:
            rows.append((st.key("amount_due"), b.money_parts(cv, c, c.amount_due, "amount_due")))
        y = b.kv_section(cv, st, x0, x1, y, st.word("doc_totals"), rows, x0 + (x1 - x0) * 0.55)
        if c.iban:
            y = b.kv_section(cv, st, x0, x1, y, st.word("payment_section"),
                             [(st.key("iban"), [cv.value(c.iban, "iban")]), ("BIC", [b.bic(c)[4:]])],
                             x0 + (x1 - x0) * 0.3)
        if not drawn_remarks[0]:
            y = remarks(cv, c, st, x0, x1, y)
        return y

    def totals_height(c, st):
        rows = 3 + len(c.tax_lines) + 10 + (3 if c.iban else 0)
        return rows * size * 1.75 + 50 + (0.0 if drawn_remarks[0] else remarks_height())

    _compose(cv, c, st, header, None, TableStyle(KV_TABLE, header="bold", size=8, closing_rule=True), totals,
             after=(), continuation=top, footer_height=30, totals_height=totals_height)


def letterhead_logo(cv, c, st):
    """Letterhead paper: the issuer appears only as a big logo-like name (maybe in capitals) with a tagline and in
    the legal footer (name · address · managing director · register · VAT id · bank); the customer in a window
    without a sender line, meta on the right, a heading with the number, a salutation and an intro sentence."""
    def header(cv, c, st, x0, x1, y):
        name = c.vendor.name.upper() if st.rng.random() < 0.3 else c.vendor.name
        align = st.rng.choice(("L", "R", "C"))
        x = {"L": x0, "R": x1, "C": (x0 + x1) / 2}[align]
        size = min(26.0, 0.8 * (x1 - x0) / max(cv.width(name, 1.0, "B"), 1.0))
        cv.line(x, y + size, [cv.value(name, "vendor_name")], size=size, style="B", align=align, color=st.accent)
        tagline = st.rng.choice(w.TAGLINES[c.language]).format(w=st.rng.choice(w.COMPANY_WORDS[c.language]))
        cv.line(x, y + size * 1.25 + 9, [tagline], size=8, style="I", align=align, color=(100, 100, 100))
        y += size * 1.25 + 20
        cv.hline(x0, x1, y, 0.8, gray=150)
        window = y + 36
        cust = b.party_block(cv, st, x0, window, None, c.customer.name, c.customer.address, "billing_address",
                             party=c.customer)
        number_in_heading = st.rng.random() < 0.6
        keys = NO_TERMS[1:] if number_in_heading else NO_TERMS
        meta = b.meta_grid(cv, c, st, x1 - 215, x1, window - 8, keys=keys, value_align="R", label_style="", extras=4)
        if c.shipping_address:
            cust = b.party_block(cv, st, x0, cust + 10, "ship_to", None, c.shipping_address, "shipping_address")
        y = max(cust, meta) + 22
        heading = [st.title_word()] + ([st.word("number_short"), cv.value(c.invoice_number, "invoice_number")]
                                       if number_in_heading else [])
        cv.line(x0, y + 13, heading, size=13, style="B")
        y += 24
        if st.rng.random() < 0.6:
            cv.line(x0, y + st.size, [st.word("salutation_line")], size=st.size)
            y += st.size * b.LINE_GAP * 1.5
            intro = st.word("credit_intro" if c.is_credit_note else "intro")
            y = b.run_lines(cv, x0, x1, y, intro.split(), st.size) + 4
        return y + 8

    def footer(cv, c, st, x0, x1, y):
        b.legal_footer(cv, c, st, x0, x1, y)

    columns = st.rng.choice((b.TABLE_POS_UNIT, b.TABLE_WITH_TAX, b.TABLE_CLASSIC))
    _compose(cv, c, st, header, footer, TableStyle(columns, header="underline", row_rules=st.rng.random() < 0.5),
             _totals_right, after=("terms", "notes"), footer_height=62)


def inline_keys(cv, c, st):
    """Everything inline: the vendor as one line ("name · street · city · VAT id"), then "Invoice # 1234 · Date:
    ... · Due: ..." runs separated by "·", "|" or "/", the customer on one line, a borderless item table and
    totals without rules."""
    sep = st.rng.choice(("·", "|", "/", "·"))

    def header(cv, c, st, x0, x1, y):
        entity = cv.new_entity()
        parts: list = [cv.value(c.vendor.name, "vendor_name")]
        for t in c.vendor.address:
            parts += [sep, b.Part(t, "vendor_address", entity)]
        if c.vendor.tax_id:
            parts += [sep, st.key("tax_id"), cv.value(c.vendor.tax_id, "vendor_tax_id")]
        y = b.run_lines(cv, x0, x1, y, parts, st.size, sep, color=(60, 60, 60))
        cv.hline(x0, x1, y + 3, 0.4, gray=170)
        y = b.title(cv, st, x0, y + 14, size=st.rng.choice((14, 18, 22)))
        y = b.meta_run(cv, c, st, x0, x1, y, keys=b.META_KEYS, separator=sep) + 8
        y = b.inline_party(cv, st, x0, x1, y, "bill_to", c.customer.name, c.customer.address, "billing_address",
                           separator=sep)
        if c.shipping_address:
            y = b.inline_party(cv, st, x0, x1, y + 2, "ship_to", None, c.shipping_address, "shipping_address",
                               separator=sep)
        return y + 16

    def totals(cv, c, st, x0, x1, y):
        return b.totals_right(cv, c, st, x1 - 200, x1, y, rules=False)

    columns = st.rng.choice((b.TABLE_CLASSIC, b.TABLE_QTY_FIRST, b.TABLE_WITH_TAX))
    _compose(cv, c, st, header, None if st.rng.random() < 0.5 else _footer_line,
             TableStyle(columns, header="bold", closing_rule=st.rng.random() < 0.5), totals, after=("notes", "bank"))


def credit_note(cv, c, st):
    """A credit note (Gutschrift, Rechnungskorrektur, Avoir, Nota di credito): the title says so, a line names the
    corrected invoice (another number and date), an intro sentence, negative quantities and amounts ("-5",
    "-7,90", "7,90-", "(7.90)"); vendor top-left, meta grid right, tax-rate column."""
    def header(cv, c, st, x0, x1, y):
        v = b.vendor_block(cv, c, st, x0, y, name_size=13)
        b.title(cv, st, x1, y, size=18, align="R")
        meta = b.meta_grid(cv, c, st, x1 - 215, x1 - 105, y + 34, keys=NO_TERMS, extras=2)
        y = b.customer_blocks(cv, c, st, (x0, x0 + 220), max(v, meta) + 14) + 14
        original = _reference(c, "original_invoice")
        if original:
            cv.line(x0, y + st.size, [st.key("original_invoice"), original, st.word("dated"), c.original_invoice_date],
                    size=st.size, style="B")
            y += st.size * b.LINE_GAP * 1.4
        intro = st.word("credit_intro")
        y = b.run_lines(cv, x0, x1, y, (intro[:1].upper() + intro[1:]).split(), st.size)
        return y + 12
    _compose(cv, c, st, header, _footer_columns, TableStyle(b.TABLE_WITH_TAX, header="fill"), _totals_right,
             after=("terms", "notes", "bank"))


def dense_small(cv, c, st):
    """Small print (6.5-7.5 pt) in boxes: issuer (with GLN) and recipient boxes on the left, a boxed meta column on
    the right with many other numbers and dates, an article-number table without borders and with GTIN lines,
    and a long totals block with discounts, charges and one tax row per rate ("zzgl. Umsatzsteuer 7% von 129,37")."""
    st.size = st.rng.choice((6.5, 7.0, 7.5))
    st.tax_basis_in_label = True

    def header(cv, c, st, x0, x1, y):
        mid = x0 + (x1 - x0) * 0.52
        top = y
        v = b.vendor_block(cv, c, st, x0 + 5, y + 4, name_size=10, heading=True)
        gln = _reference(c, "gln")
        if gln:
            cv.line(x0 + 5, v + st.size, [f"{st.word('gln')}: {gln}"], size=st.size * 0.9, style="I")
            v += st.size * b.LINE_GAP
        cv.box(x0, top, mid - 8, v + 4)
        cust_top = v + 12
        cust = b.customer_blocks(cv, c, st, (x0 + 5,), cust_top + 4) + 4
        cv.box(x0, cust_top, mid - 8, cust)
        cv.line(mid + 5, top + 14, [st.title_word()], size=12, style="B")
        meta = b.meta_grid(cv, c, st, mid + 5, x1 - 5, top + 24, keys=b.META_KEYS, value_align="R", extras=6)
        cv.box(mid, top, x1, meta + 4)
        return max(cust, meta + 4) + 14

    def totals(cv, c, st, x0, x1, y):
        return b.totals_right(cv, c, st, x1 - 260, x1, y, rules=st.rng.random() < 0.5)

    def footer(cv, c, st, x0, x1, y):
        b.footer_columns(cv, c, st, x0, x1, y, size=6.0)

    _compose(cv, c, st, header, footer, TableStyle(b.TABLE_ARTICLES, header="bold", size=st.size, row_pad=2.5,
                                                   wrap_lines=3), totals, after=("terms", "notes", "bank"))


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
    Family("kv_viewer", kv_viewer, profile=ContentProfile(articles=0.8, four_decimal_prices=0.6, sublines=0.4)),
    Family("letterhead_logo", letterhead_logo, fonts=("Helvetica", "Times")),
    Family("inline_keys", inline_keys, page_format="Letter"),
    Family("credit_note", credit_note, profile=ContentProfile(credit_note=1.0)),
    Family("dense_small", dense_small, profile=ContentProfile(multi_rate=0.75, adjustments=0.5, sublines=0.7,
                                                              articles=1.0, four_decimal_prices=0.35,
                                                              fixed_quantity_places=0.45, references=1.5)),
)}
FAMILY_NAMES = tuple(FAMILIES)
