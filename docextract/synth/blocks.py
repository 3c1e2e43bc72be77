"""The pieces invoice layouts are built from: headers, key-value meta blocks, parties, the line-item
table (continued across pages), totals, notes, bank details and footers.

Every block draws with a :class:`~docextract.synth.canvas.Canvas`, so its values are recorded with their
labels; label words (from vocab.py) are drawn as unlabelled parts. Blocks take a top ``y`` in points and
return the ``y`` below what they drew.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Callable

from docextract.synth.canvas import Canvas, Part
from docextract.synth.content import InvoiceContent, Note, Party
from docextract.synth.vocab import VOCAB

LINE_GAP = 1.35  # line pitch as a multiple of the font size
PAPER_EDGE = 30.0  # points: no text closer to the paper's edge than this


class Style:
    """One document's drawing choices: label wording (one variant per key, fixed for the document), sizes."""

    def __init__(self, rng: random.Random, language: str, size: float = 9.0, colon: bool | None = None,
                 credit_note: bool = False):
        self.rng = rng
        self.language = language
        self.size = size
        self.colon = rng.random() < 0.5 if colon is None else colon
        self.accent = rng.choice(((30, 60, 120), (120, 30, 40), (20, 100, 80), (60, 60, 60), (200, 90, 20)))
        self.credit_note = credit_note
        self.tax_basis_in_label = rng.random() < 0.4  # "VAT 19% of 473.00" rather than "VAT 19%"
        self._words: dict[str, str] = {}

    def word(self, key: str) -> str:
        if key not in self._words:
            self._words[key] = self.rng.choice(VOCAB[self.language][key])
        return self._words[key]

    def title_word(self) -> str:
        """The document's title: "Invoice", or "Credit note" / "Gutschrift" on a credit note."""
        return self.word("credit_title" if self.credit_note else "title")

    def key(self, key: str) -> str:
        """A label word as printed before a value, with or without a trailing colon."""
        text = self.word(key)
        if self.colon and not text.endswith((":", "#", "°")):
            text += " :" if self.language == "fr" else ":"
        return text


# ---------------------------------------------------------------- values as parts


def money_parts(cv: Canvas, c: InvoiceContent, amount_text: str, label: str | None) -> list[Part]:
    """An amount with its currency as the invoice prints it: the amount labelled ``label`` (None: an
    amount that is no field, such as a discount or one rate's tax), a separate symbol or code labelled
    ``currency`` (every mention of the currency is); a glued symbol (``$1,234.56``) stays part of the amount."""
    entity = cv.new_entity() if label else None
    return [cv.value(text, "currency") if is_currency else Part(text, label, entity)
            for text, is_currency in c.money.parts(amount_text)]


META_KEYS = ("invoice_number", "invoice_date", "due_date", "purchase_order", "payment_terms")
# References no narrow cell can hold ("01.01.2018 - 31.12.2018").
LONG_REFERENCE_CHARS = 16


def meta_items(cv: Canvas, c: InvoiceContent, st: Style, keys: tuple[str, ...] = META_KEYS, extras: int = 3,
               short_only: bool = False) -> list[tuple[str, list[Part]]]:
    """(label words, value parts) for each key the invoice has, and up to ``extras`` of its other numbers and
    dates (customer number, delivery date, ...: unlabelled values) mixed in among them."""
    values = {"invoice_number": c.invoice_number, "invoice_date": c.invoice_date,
              "due_date": c.due_date if c.due_in_meta else "", "purchase_order": c.purchase_order,
              "payment_terms": c.payment_terms}
    out = []
    for key in keys:
        if key == "currency":
            out.append((st.key("currency"), [cv.value(c.currency, "currency")]))
        elif values.get(key):
            out.append((st.key(key), [cv.value(values[key], key)]))
    references = [r for r in c.references if not short_only or len(r.text) <= LONG_REFERENCE_CHARS]
    for ref in references[:extras]:
        out.insert(st.rng.randint(1 if out else 0, len(out)), (st.key(ref.key), [Part(ref.text)]))
    return out


# ---------------------------------------------------------------- pages and flow


@dataclass
class Flow:
    """Where the next block goes; starts a new page (continuation header, footer) when one does not fit."""

    cv: Canvas
    start_page: Callable[[bool], float]  # (first page?) -> top y for content
    bottom: float  # content must end above this y (points)
    y: float = 0.0
    pages_started: int = 0

    def new_page(self) -> float:
        self.cv.add_page()
        self.pages_started += 1
        self.y = self.start_page(self.pages_started == 1)
        return self.y

    def ensure(self, height: float) -> bool:
        """Start a new page unless ``height`` points still fit; True when a page was started."""
        if self.y + height > self.bottom:
            self.new_page()
            return True
        return False


def page_number_line(cv: Canvas, st: Style, x: float, y: float, align: str = "R", size: float = 7.5) -> None:
    cv.line(x, y, [f"{st.word('page')} {cv.page} {st.word('of')} {cv.page_total}"], size=size, align=align)


def continuation_header(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float) -> float:
    """Top of a following page: vendor name, the invoice number again, the page number."""
    cv.line(x0, y + 10, [cv.value(c.vendor.name, "vendor_name")], size=10, style="B")
    cv.line(x1, y + 10, [st.key("invoice_number"), cv.value(c.invoice_number, "invoice_number")], size=8.5, align="R")
    cv.line(x1, y + 22, [f"{st.word('page')} {cv.page}"], size=7.5, align="R")
    cv.hline(x0, x1, y + 28, 0.4, gray=120)
    return y + 44


# ---------------------------------------------------------------- header pieces


def title(cv: Canvas, st: Style, x: float, y: float, size: float = 20, align: str = "L",
          color: tuple[int, int, int] = (0, 0, 0)) -> float:
    cv.line(x, y + size, [st.title_word()], size=size, style="B", align=align, color=color)
    return y + size * 1.6


def text_logo(cv: Canvas, c: InvoiceContent, x: float, y: float, size: float = 22, fill=(30, 60, 120)) -> float:
    """A logo made of text: the vendor's initials, white on a filled square (unlabelled: it is a logo)."""
    initials = "".join(w[0] for w in c.vendor.name.split() if w[0].isalpha())[:2].upper() or "X"
    side = size * 2.0
    cv.box(x, y, x + side, y + side, fill=fill, stroke=False)
    cv.line(x + side / 2, y + side / 2 + size * 0.35, [initials], size=size, style="B", align="C", color=(255, 255, 255))
    return side


def fitted_size(cv: Canvas, parts: list, size: float, style: str, max_width: float | None) -> float:
    """``size``, or smaller so that ``parts`` are no wider than ``max_width`` (long names in narrow columns)."""
    if max_width is None:
        return size
    width = _text_width(cv, parts, size, style)
    return size if width <= max_width else size * max_width / width


def vendor_block(cv: Canvas, c: InvoiceContent, st: Style, x: float, y: float, align: str = "L",
                 name_size: float = 14, size: float | None = None, tax_id: bool = True, contact: bool = True,
                 heading: bool = False, max_width: float | None = None) -> float:
    """The vendor's name, address lines, contact (unlabelled) and tax id; lines wider than ``max_width``
    are printed smaller."""
    size = size or st.size
    if heading:
        cv.line(x, y + size, [st.word("from")], size=size * 0.85, style="B", align=align, color=(90, 90, 90))
        y += size * LINE_GAP
    name = [cv.value(c.vendor.name, "vendor_name")]
    cv.line(x, y + name_size, name, size=fitted_size(cv, name, name_size, "B", max_width), style="B", align=align)
    y += name_size * 1.5
    entity = cv.new_entity()
    lines: list[tuple[list[Part | str], float]] = [([Part(text, "vendor_address", entity)], size)
                                                   for text in c.vendor.address]
    if contact:
        lines.append(([f"{st.word('phone')} {c.vendor.phone}", c.vendor.email], size * 0.9))
    if tax_id and c.vendor.tax_id:
        lines.append(([st.key("tax_id"), cv.value(c.vendor.tax_id, "vendor_tax_id")], size))
    for parts, line_size in lines:
        cv.line(x, y + size, parts, size=fitted_size(cv, parts, line_size, "", max_width), align=align)
        y += size * LINE_GAP
    return y


def sender_line(cv: Canvas, c: InvoiceContent, x: float, y: float, size: float = 6.5) -> float:
    """The one-line return address above a window envelope's address field (DIN 5008)."""
    entity = cv.new_entity()
    parts: list[Part] = [cv.value(c.vendor.name, "vendor_name")]
    for text in c.vendor.address:
        parts += [Part("·"), Part(text, "vendor_address", entity)]
    width = cv.line(x, y + size, parts, size=size)
    cv.hline(x, x + width, y + size * 1.45, 0.3)
    return y + size * 2.2


def party_block(cv: Canvas, st: Style, x: float, y: float, heading_key: str | None, name: str | None,
                lines: tuple[str, ...], address_label: str, size: float | None = None, align: str = "L",
                heading_style: str = "B", party: Party | None = None) -> float:
    """A heading ("Bill To"), the customer name and an address (one entity over its lines); with ``party``
    also its unlabelled salutation above the name ("Herrn") and attention line below it ("z. Hd. ...")."""
    size = size or st.size
    if heading_key:
        cv.line(x, y + size, [st.key(heading_key)], size=size * 0.9, style=heading_style, align=align, color=(80, 80, 80))
        y += size * LINE_GAP * 1.1
    if name and party and party.salutation:
        cv.line(x, y + size, [party.salutation], size=size, align=align)
        y += size * LINE_GAP
    if name:
        cv.line(x, y + size, [cv.value(name, "customer_name")], size=size * 1.05, style="B", align=align)
        y += size * LINE_GAP
    if name and party and party.attention:
        cv.line(x, y + size, [party.attention], size=size, align=align)
        y += size * LINE_GAP
    entity = cv.new_entity()
    for text in lines:
        cv.line(x, y + size, [Part(text, address_label, entity)], size=size, align=align)
        y += size * LINE_GAP
    return y


def customer_blocks(cv: Canvas, c: InvoiceContent, st: Style, xs: tuple[float, ...], y: float,
                    headings: bool = True, size: float | None = None) -> float:
    """Bill-to (and ship-to, when the invoice has one) side by side at the x positions ``xs``."""
    bottom = party_block(cv, st, xs[0], y, "bill_to" if headings else None, c.customer.name, c.customer.address,
                         "billing_address", size, party=c.customer)
    if c.shipping_address:
        x = xs[1] if len(xs) > 1 else xs[0]
        top = y if len(xs) > 1 else bottom + 6
        bottom = max(bottom, party_block(cv, st, x, top, "ship_to", None, c.shipping_address, "shipping_address", size))
    return bottom


# ---------------------------------------------------------------- meta blocks


def meta_grid(cv: Canvas, c: InvoiceContent, st: Style, x_label: float, x_value: float, y: float,
              keys: tuple[str, ...] = META_KEYS, size: float | None = None, value_align: str = "L",
              label_style: str = "B", extras: int = 3) -> float:
    """Labels in one column, values in the next (values left- or right-aligned at ``x_value``)."""
    size = size or st.size
    items = meta_items(cv, c, st, keys, extras=extras)
    if value_align == "L" and items:  # long label wordings push the value column right
        x_value = max(x_value, x_label + max(cv.width(label, size, label_style) for label, _ in items) + 8)
    for label, parts in items:
        cv.line(x_label, y + size, [label], size=size, style=label_style)
        if value_align == "R" and (cv.width(label, size, label_style) + _text_width(cv, parts, size, "") + 8
                                   > x_value - x_label):  # no room beside a long label: the value goes below
            y += size * LINE_GAP
        size_here = size
        if value_align == "L":  # a long other date ("1 augustus 2020 - 30 september 2020") must stay on the paper
            room = cv.page_width - PAPER_EDGE - x_value
            width = _text_width(cv, parts, size, "")
            size_here = size if width <= room else size * room / width
        cv.line(x_value, y + size, parts, size=size_here, align=value_align)
        y += size * LINE_GAP
    return y


def meta_right(cv: Canvas, c: InvoiceContent, st: Style, x_right: float, y: float,
               keys: tuple[str, ...] = META_KEYS, size: float | None = None, extras: int = 3) -> float:
    """"Label value" lines flush right."""
    size = size or st.size
    for label, parts in meta_items(cv, c, st, keys, extras=extras):
        cv.line(x_right, y + size, [label] + parts, size=size, align="R")
        y += size * LINE_GAP
    return y


def meta_stacked(cv: Canvas, c: InvoiceContent, st: Style, x: float, y: float,
                 keys: tuple[str, ...] = META_KEYS, size: float | None = None, extras: int = 3,
                 max_width: float | None = None) -> float:
    """Small grey label above each value; a value wider than ``max_width`` (default: up to the paper's edge)
    is printed smaller."""
    size = size or st.size
    max_width = cv.page_width - PAPER_EDGE - x if max_width is None else max_width
    for label, parts in meta_items(cv, c, st, keys, extras=extras):
        cv.line(x, y + size * 0.8, [label], size=fitted_size(cv, [label], size * 0.8, "", max_width),
                color=(110, 110, 110))
        cv.line(x, y + size * 2.0, parts, size=fitted_size(cv, parts, size, "B", max_width), style="B")
        y += size * 2.6
    return y


def meta_boxes(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float,
               keys: tuple[str, ...] = ("invoice_number", "invoice_date", "due_date", "purchase_order"),
               size: float | None = None, fill: int | None = 235) -> float:
    """A row of bordered cells: label on top, value below."""
    size = size or st.size
    items = meta_items(cv, c, st, keys, extras=1, short_only=True)
    if not items:
        return y
    width = (x1 - x0) / len(items)
    height = size * 3.3
    for i, (label, parts) in enumerate(items):
        left = x0 + i * width
        cv.box(left, y, left + width, y + height, fill=fill)
        cv.line(left + 4, y + size * 1.1, [label], size=size * 0.8, color=(80, 80, 80))
        cv.line(left + 4, y + size * 2.6, parts, size=size, style="B")
    return y + height + 8


def meta_inline(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float,
                keys: tuple[str, ...] = META_KEYS, size: float | None = None, extras: int = 3) -> float:
    """"Label: value" pairs flowing left to right, wrapping to new lines."""
    size = size or st.size
    x = x0
    gap = 16.0  # points between pairs
    for label, parts in meta_items(cv, c, st, keys, extras=extras):
        need = cv.width(" ".join([label] + [p.text for p in parts]), size, "")
        if x > x0 and x + need > x1:
            x = x0
            y += size * LINE_GAP
        cv.line(x, y + size, [label] + parts, size=size)
        x += need + gap
    return y + size * LINE_GAP


def meta_table(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float,
               keys: tuple[str, ...] = META_KEYS + ("currency",), size: float | None = None) -> float:
    """A bordered two-row table: the labels row (shaded), the values row."""
    size = size or st.size
    items = meta_items(cv, c, st, keys, extras=2, short_only=True)
    widths = [max(cv.width(label, size * 0.85, "B"), cv.width(" ".join(p.text for p in parts), size, "")) + 10
              for label, parts in items]
    scale = min(1.0, (x1 - x0) / sum(widths))
    while scale < 1.0 and len(items) > 2:  # drop the widest optional cell rather than overflow
        drop = max(range(2, len(items)), key=lambda i: widths[i])
        items.pop(drop), widths.pop(drop)
        scale = min(1.0, (x1 - x0) / sum(widths))
    extra = ((x1 - x0) - sum(widths)) / len(widths)
    row = size * 1.8
    x = x0
    for (label, parts), w in zip(items, widths):
        w += extra
        cv.box(x, y, x + w, y + row, fill=225)
        cv.box(x, y + row, x + w, y + 2 * row)
        cv.line(x + 5, y + row * 0.68, [label], size=size * 0.85, style="B")
        cv.line(x + 5, y + row * 1.68, parts, size=size)
        x += w
    return y + 2 * row + 10


# ---------------------------------------------------------------- the line-item table


@dataclass(frozen=True)
class Column:
    key: str  # pos | article | description | quantity | unit | quantity_unit | unit_price | tax_rate | amount
    share: float  # of the table width
    align: str = "L"


@dataclass(frozen=True)
class TableStyle:
    columns: tuple[Column, ...]
    header: str = "fill"  # fill | underline | grid | bold | accent | plain
    zebra: bool = False
    grid: bool = False
    row_rules: bool = False
    size: float = 8.5
    wrap_lines: int = 2  # at most this many description lines per row
    row_pad: float = 4.0  # points above and below a row's text
    sublines: bool = True  # draw an item's second line (GTIN, packaging) under its description
    closing_rule: bool = True  # a rule under the last row (tables without row rules or grid)


TABLE_CLASSIC = (Column("description", 0.50), Column("quantity", 0.12, "R"), Column("unit_price", 0.18, "R"),
                 Column("amount", 0.20, "R"))
TABLE_POS_UNIT = (Column("pos", 0.07), Column("description", 0.43), Column("quantity", 0.09, "R"),
                  Column("unit", 0.09), Column("unit_price", 0.15, "R"), Column("amount", 0.17, "R"))
TABLE_QTY_FIRST = (Column("quantity_unit", 0.14), Column("description", 0.50), Column("unit_price", 0.17, "R"),
                   Column("amount", 0.19, "R"))
TABLE_WITH_TAX = (Column("pos", 0.06), Column("description", 0.42), Column("quantity", 0.09, "R"),
                  Column("unit_price", 0.16, "R"), Column("tax_rate", 0.09, "R"), Column("amount", 0.18, "R"))
TABLE_ARTICLES = (Column("pos", 0.05), Column("article", 0.12), Column("description", 0.35),
                  Column("quantity_unit", 0.12, "R"), Column("unit_price", 0.13, "R"), Column("tax_rate", 0.08, "R"),
                  Column("amount", 0.15, "R"))


def _column_header(cv: Canvas, c: InvoiceContent, st: Style, key: str) -> list[Part]:
    vocab_key = {"quantity_unit": "quantity"}.get(key, key)
    parts = [Part(st.word(vocab_key))]
    if key == "amount" and c.money.kind == "bare":  # the only place a bare-amount invoice names its currency
        parts.append(cv.value(c.currency, "currency"))
    return parts


def _draw_table_header(cv: Canvas, c: InvoiceContent, st: Style, ts: TableStyle, x0: float, x1: float, y: float,
                       xs: list[float]) -> float:
    height = ts.size * 2.2
    color = (0, 0, 0)
    if ts.header in ("fill", "grid"):
        cv.box(x0, y, x1, y + height, fill=215 if ts.header == "fill" else 240, stroke=ts.header == "grid")
    elif ts.header == "accent":
        cv.box(x0, y, x1, y + height, fill=st.accent, stroke=False)
        color = (255, 255, 255)
    for col, left, right in zip(ts.columns, xs, xs[1:]):
        x = right - 4 if col.align == "R" else left + 4
        cv.line(x, y + height * 0.68, _column_header(cv, c, st, col.key), size=ts.size, style="B", align=col.align,
                color=color)
    if ts.header in ("underline", "bold"):
        cv.hline(x0, x1, y + height, 1.0 if ts.header == "underline" else 0.4)
    return y + height


def _percent(c: InvoiceContent, rate: str) -> str:
    return f"{rate} %" if c.language == "fr" else f"{rate}%"


def _row_cells(cv: Canvas, c: InvoiceContent, st: Style, index: int, key: str) -> list[Part]:
    item = c.line_items[index]
    if key == "pos":
        return [Part(str(index + 1))]
    if key == "article":
        return [Part(item.article)] if item.article else []
    if key == "quantity":
        return [cv.value(item.quantity, "line_item_quantity", row=index)]
    if key == "quantity_unit":
        return [cv.value(item.quantity, "line_item_quantity", row=index)] + ([Part(item.unit)] if item.unit else [])
    if key == "unit":
        return [Part(item.unit)] if item.unit else []
    if key == "unit_price":
        return [cv.value(item.unit_price, "line_item_unit_price", row=index)]
    if key == "tax_rate":
        return [Part(_percent(c, item.tax_rate or c.tax_rate))]
    if key == "amount":
        return [cv.value(item.amount, "line_item_amount", row=index)]
    raise ValueError(key)


def items_table(flow: Flow, c: InvoiceContent, st: Style, ts: TableStyle, x0: float, x1: float) -> None:
    """The line items from ``flow.y``; rows that do not fit continue on a new page under a repeated header."""
    cv = flow.cv
    xs = [x0]
    for col in ts.columns:
        xs.append(xs[-1] + col.share * (x1 - x0))
    desc_index = next(i for i, col in enumerate(ts.columns) if col.key == "description")
    desc_width = xs[desc_index + 1] - xs[desc_index] - 8
    pitch = ts.size * 1.3
    sub_size = ts.size * 0.85
    flow.ensure(ts.size * 2.2 + pitch + 2 * ts.row_pad)
    flow.y = _draw_table_header(cv, c, st, ts, x0, x1, flow.y, xs)
    table_top = flow.y
    for index, item in enumerate(c.line_items):
        lines = cv.wrap(item.description, desc_width, ts.size)
        if len(lines) > ts.wrap_lines:
            lines = lines[:ts.wrap_lines]
        sublines = cv.wrap(item.subline, desc_width, sub_size)[:1] if ts.sublines and item.subline else []
        height = (len(lines) + len(sublines)) * pitch + 2 * ts.row_pad
        if flow.y + height > flow.bottom - ts.size * 1.6:  # leave room for the "continued" line under the row
            if ts.grid:
                _grid_lines(cv, xs, table_top, flow.y)
            cv.line(x1, flow.y + ts.size * 1.4, [st.word("continued")], size=ts.size * 0.85, align="R",
                    color=(100, 100, 100))
            flow.new_page()
            flow.y = _draw_table_header(cv, c, st, ts, x0, x1, flow.y, xs)
            table_top = flow.y
        top = flow.y
        if ts.zebra and index % 2 == 1:
            cv.box(x0, top, x1, top + height, fill=242, stroke=False)
        baseline = top + ts.row_pad + ts.size
        entity = cv.new_entity()
        for i, text in enumerate(lines):
            cv.line(xs[desc_index] + 4, baseline + i * pitch,
                    [Part(text, "line_item_description", entity, index)], size=ts.size)
        for i, text in enumerate(sublines):
            cv.line(xs[desc_index] + 4, baseline + (len(lines) + i) * pitch, [text], size=sub_size, color=(90, 90, 90))
        for col, left, right in zip(ts.columns, xs, xs[1:]):
            if col.key == "description":
                continue
            x = right - 4 if col.align == "R" else left + 4
            cv.line(x, baseline, _row_cells(cv, c, st, index, col.key), size=ts.size, align=col.align)
        flow.y = top + height
        if ts.row_rules or ts.grid:
            cv.hline(x0, x1, flow.y, 0.3, gray=150)
    if ts.grid:
        _grid_lines(cv, xs, table_top, flow.y)
    elif not ts.row_rules and ts.closing_rule:
        cv.hline(x0, x1, flow.y + 2, 0.6)
    flow.y += 10


def _grid_lines(cv: Canvas, xs: list[float], top: float, bottom: float) -> None:
    for x in xs:
        cv.vline(x, top, bottom, 0.3, gray=120)
    cv.hline(xs[0], xs[-1], bottom, 0.3, gray=120)


def receipt_items(flow: Flow, c: InvoiceContent, st: Style, x0: float, x1: float, size: float = 8.5) -> None:
    """Receipt-style items: the description on one line, "qty x unit price   amount" on the next."""
    cv = flow.cv
    pitch = size * 1.35
    for index, item in enumerate(c.line_items):
        flow.ensure(pitch * 2 + 4)
        entity = cv.new_entity()
        line = cv.wrap(item.description, x1 - x0, size)[0]
        cv.line(x0, flow.y + size, [Part(line, "line_item_description", entity, index)], size=size)
        cv.line(x0 + 12, flow.y + size + pitch, [cv.value(item.quantity, "line_item_quantity", row=index), "x",
                                                 cv.value(item.unit_price, "line_item_unit_price", row=index)], size=size)
        cv.line(x1, flow.y + size + pitch, [cv.value(item.amount, "line_item_amount", row=index)], size=size, align="R")
        flow.y += pitch * 2 + 4
    cv.hline(x0, x1, flow.y, 0.5)
    flow.y += 8


# ---------------------------------------------------------------- totals

TotalsRow = tuple[list, list, bool]  # (label parts, value parts, emphasised)


def _tax_row_label(cv: Canvas, c: InvoiceContent, st: Style, index: int) -> list[Part | str]:
    """ "VAT 19%", or with its basis "VAT 19% of 473.00": the basis is a mention of the subtotal when the
    invoice has one rate (labelled so), one rate's share of it otherwise (unlabelled)."""
    line = c.tax_lines[index]
    parts: list[Part | str] = [st.word("tax"), _percent(c, line.rate)]
    if st.tax_basis_in_label or (c.multi_rate and st.rng.random() < 0.5):
        label = None if c.multi_rate else "subtotal"
        parts += [st.word("tax_on"), Part(line.basis, label, cv.new_entity() if label else None)]
    return parts


def totals_rows(cv: Canvas, c: InvoiceContent, st: Style) -> list[TotalsRow]:
    """The totals block, row by row: the line-item sum and discounts/charges (when there are any), the net
    total (subtotal), one tax row per VAT rate (and their sum when there are several), the total, a
    prepaid amount, rounding and the amount due. Only values that are a field are labelled."""
    rows: list[TotalsRow] = []
    if c.adjustments:
        rows.append(([st.key("items_total")], money_parts(cv, c, c.items_total, None), False))
        for adj in c.adjustments:
            label: list[Part | str] = [st.word(adj.kind)]
            if adj.percent:
                label.append(_percent(c, adj.percent))
            rows.append((label, money_parts(cv, c, adj.amount, None), False))
    rows.append(([st.key("subtotal")], money_parts(cv, c, c.subtotal, "subtotal"), False))
    for index, line in enumerate(c.tax_lines):
        rows.append((_tax_row_label(cv, c, st, index),
                     money_parts(cv, c, line.tax, None if c.multi_rate else "total_tax"), False))
    if c.multi_rate:
        rows.append(([st.key("tax_sum")], money_parts(cv, c, c.total_tax, "total_tax"), False))
    rows.append(([st.key("total")], money_parts(cv, c, c.total, "total"), not c.amount_due))
    if c.deposit:
        rows.append(([st.key("deposit")], money_parts(cv, c, c.deposit, None), False))
    if c.rounding:
        rows.append(([st.key("rounding")], money_parts(cv, c, c.rounding, None), False))
    if c.amount_due:
        rows.append(([st.key("amount_due")], money_parts(cv, c, c.amount_due, "amount_due"), True))
    return rows


def totals_row_count(c: InvoiceContent) -> int:
    return (2 + len(c.tax_lines) + (1 + len(c.adjustments) if c.adjustments else 0) + c.multi_rate + bool(c.deposit)
            + bool(c.rounding) + bool(c.amount_due))


def totals_height(c: InvoiceContent, st: Style) -> float:
    return totals_row_count(c) * st.size * 1.9 + 20


def _text_width(cv: Canvas, parts: list, size: float, style: str) -> float:
    return cv.width(" ".join(p.text if isinstance(p, Part) else p for p in parts), size, style)


def totals_right(cv: Canvas, c: InvoiceContent, st: Style, x_label: float, x_right: float, y: float,
                 boxed: bool = False, rules: bool = True, x_min: float = 40.0) -> float:
    """Label column and right-aligned amounts, the last row emphasised; the label column moves left (not
    past ``x_min``) when a long label ("zzgl. Umsatzsteuer 19% von 1.234,56") needs the room."""
    pitch = st.size * 1.6
    rows = totals_rows(cv, c, st)
    need = max(_text_width(cv, label, st.size, "B") + _text_width(cv, values, st.size, "B") for label, values, _ in rows)
    x_label = max(x_min, min(x_label, x_right - need - 14))
    if boxed:
        cv.box(x_label - 6, y, x_right + 4, y + pitch * len(rows) + 6, fill=245)
    y += 3
    for label, parts, strong in rows:
        if strong and rules:
            cv.hline(x_label, x_right, y + 1, 0.8)
        style = "B" if strong else ""
        cv.line(x_label, y + st.size + 2, label, size=st.size, style=style)
        cv.line(x_right, y + st.size + 2, parts, size=st.size, style=style, align="R")
        y += pitch
    return y + 10


def totals_inline(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float) -> float:
    """All totals on one shaded bar: "Subtotal 1,000.00 | Tax 190.00 | Total 1,190.00"."""
    rows = totals_rows(cv, c, st)
    height = st.size * 2.4
    cv.box(x0, y, x1, y + height, fill=230, stroke=False)
    parts: list[Part | str] = []
    for i, (label, values, strong) in enumerate(rows):
        if i:
            parts.append("|")
        parts += label + values
    text_width = _text_width(cv, parts, st.size, "B")
    size = st.size if text_width < x1 - x0 - 12 else st.size * (x1 - x0 - 12) / text_width
    cv.line(x1 - 6, y + height * 0.65, parts, size=size, style="B", align="R")
    return y + height + 12


def totals_table(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float, x_min: float = 40.0) -> float:
    """A bordered two-column table, the total row shaded; wider when a label needs it."""
    pitch = st.size * 1.9
    rows = totals_rows(cv, c, st)
    label_width = max(_text_width(cv, label, st.size, "B") for label, _, _ in rows) + 10
    value_width = max(_text_width(cv, values, st.size, "B") for _, values, _ in rows) + 10
    x0 = max(x_min, min(x0, x1 - 2 * max(label_width, value_width)))
    mid = max(x0 + label_width, x0 + (x1 - x0) * 0.5)
    for label, parts, strong in rows:
        cv.box(x0, y, x1, y + pitch, fill=220 if strong else None)
        cv.vline(mid, y, y + pitch, 0.5)
        cv.line(x0 + 5, y + pitch * 0.68, label, size=st.size, style="B" if strong else "")
        cv.line(x1 - 5, y + pitch * 0.68, parts, size=st.size, style="B" if strong else "", align="R")
        y += pitch
    return y + 12


# ---------------------------------------------------------------- notes, bank, footers


def note_lines(cv: Canvas, note: Note, width: float, size: float, style: str = "") -> list[list[tuple[str, str | None]]]:
    """A note wrapped into lines no wider than ``width``: (text, label) pieces per line; a labelled value
    (a due date in "Zahlbar bis 04.04.2018 ohne Abzug.") is never split, the words around it merge."""
    tokens: list[tuple[str, str | None]] = []
    for text, label in note:
        tokens += [(text, label)] if label else [(word, None) for word in text.split()]
    lines: list[list[tuple[str, str | None]]] = []
    current: list[tuple[str, str | None]] = []
    space = cv.width(" ", size, style)
    used = 0.0
    for text, label in tokens:
        width_here = cv.width(text, size, style)
        if current and used + space + width_here > width:
            lines.append(current)
            current, used = [], 0.0
        used += (space if current else 0.0) + width_here
        if current and label is None and current[-1][1] is None:
            current[-1] = (current[-1][0] + " " + text, None)
        else:
            current.append((text, label))
    if current:
        lines.append(current)
    return lines


def notes_height(cv: Canvas, c: InvoiceContent, st: Style, width: float, heading: bool = True) -> float:
    if not c.notes:
        return 0.0
    size = st.size * 0.9
    style = "I" if cv.font != "Courier" else ""
    lines = sum(len(note_lines(cv, note, width, size, style)) for note in c.notes) + (1 if heading else 0)
    return lines * size * LINE_GAP + 4


def notes_block(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float, heading: bool = True,
                size: float | None = None) -> float:
    """The notes, wrapped; a value inside a note (a due date, the invoice number) is labelled."""
    if not c.notes:
        return y
    size = size or st.size * 0.9
    style = "I" if cv.font != "Courier" else ""
    if heading:
        cv.line(x0, y + size, [st.word("notes")], size=size, style="B")
        y += size * LINE_GAP
    for note in c.notes:
        for pieces in note_lines(cv, note, x1 - x0, size, style):
            cv.line(x0, y + size, [cv.value(text, label) if label else Part(text) for text, label in pieces],
                    size=size, style=style)
            y += size * LINE_GAP
    return y + 4


def terms_line(cv: Canvas, c: InvoiceContent, st: Style, x: float, y: float) -> float:
    if not c.payment_terms:
        return y
    cv.line(x, y + st.size, [st.key("payment_terms"), cv.value(c.payment_terms, "payment_terms")], size=st.size)
    return y + st.size * LINE_GAP + 4


def bank_block(cv: Canvas, c: InvoiceContent, st: Style, x: float, y: float, heading: bool = True) -> float:
    """Bank details in the body: heading, account holder (unlabelled), IBAN, BIC (unlabelled)."""
    if not c.iban:
        return y
    size = st.size * 0.9
    if heading:
        cv.line(x, y + size, [st.word("bank")], size=size, style="B")
        y += size * LINE_GAP
    cv.line(x, y + size, [st.key("iban"), cv.value(c.iban, "iban")], size=size)
    y += size * LINE_GAP
    cv.line(x, y + size, [bic(c)], size=size)
    return y + size * LINE_GAP + 4


def bic(c: InvoiceContent) -> str:
    return f"BIC {c.iban[:2]}{c.iban[5:7]}XXBANK"


FOOTER_HEIGHT = 58.0  # points reserved at the bottom of the page for footers


def footer_columns(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float, size: float = 6.8,
                   vendor: bool = True) -> None:
    """Three or four small columns at the page bottom: vendor, contact, bank, registration."""
    cv.hline(x0, x1, y, 0.4, gray=120)
    pitch = size * 1.35
    columns: list[list[list[Part | str]]] = []
    if vendor:
        entity = cv.new_entity()
        columns.append([[cv.value(c.vendor.name, "vendor_name")]] +
                       [[Part(t, "vendor_address", entity)] for t in c.vendor.address])
    columns.append([[f"{st.word('phone')} {c.vendor.phone}"], [c.vendor.email]])
    bank: list[list[Part | str]] = []
    if c.iban:
        bank.append([st.key("iban"), cv.value(c.iban, "iban")])
    if c.vendor.tax_id:
        bank.append([st.key("tax_id"), cv.value(c.vendor.tax_id, "vendor_tax_id")])
    if bank:
        columns.append(bank)
    width = (x1 - x0) / len(columns)
    for i, column in enumerate(columns):
        for j, parts in enumerate(column):
            size_here = size
            text_width = _text_width(cv, parts, size, "")
            if text_width > width - 6:  # a long name or IBAN in a narrow column: smaller print
                size_here = size * (width - 6) / text_width
            cv.line(x0 + i * width, y + 4 + size + j * pitch, parts, size=size_here, color=(60, 60, 60))
    page_number_line(cv, st, x1, y + FOOTER_HEIGHT - 8)


def footer_line(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float, size: float = 7.0) -> None:
    """One centred line: vendor · IBAN · tax id, and the page number."""
    parts: list[Part | str] = [cv.value(c.vendor.name, "vendor_name")]
    if c.iban:
        parts += ["·", st.key("iban"), cv.value(c.iban, "iban")]
    if c.vendor.tax_id:
        parts += ["·", st.key("tax_id"), cv.value(c.vendor.tax_id, "vendor_tax_id")]
    width = _text_width(cv, parts, size, "")
    if width > x1 - x0:
        size *= (x1 - x0) / width
    cv.hline(x0, x1, y + 10, 0.3, gray=150)
    cv.line((x0 + x1) / 2, y + 22, parts, size=size, align="C", color=(70, 70, 70))
    page_number_line(cv, st, (x0 + x1) / 2, y + 34, align="C")


def footer_noise(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float) -> None:
    """Only the page number and some legal boilerplate (unlabelled)."""
    boiler = {"en": "Registered in England No. 0{n} · Directors: {p}",
              "de": "Amtsgericht {city} HRB {n} · Geschäftsführer: {p}",
              "fr": "RCS {city} B {n} · Capital social 10 000 EUR · SIRET {n}00017",
              "nl": "KvK {n} · Directie: {p}", "it": "REA {n} · Capitale sociale 10.000 EUR i.v.",
              "es": "Inscrita en el Registro Mercantil de {city}, Hoja M-{n}"}[c.language]
    city = c.vendor.address[-1].split()[-1]
    text = boiler.format(n=zlib.crc32(c.invoice_number.encode()) % 900000 + 100000, p=c.vendor.director, city=city)
    cv.line((x0 + x1) / 2, y + 20, [text], size=6.5, align="C", color=(110, 110, 110))
    page_number_line(cv, st, x1, y + 34)


def legal_footer(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float, size: float = 6.5) -> None:
    """Letterhead paper's legal footer, centred: "Name · street · city", then managing director, register
    and tax ids, then the bank. Name, address, VAT id and IBAN are labelled; the rest is not."""
    entity = cv.new_entity()
    first: list[Part | str] = [cv.value(c.vendor.name, "vendor_name")]
    for text in c.vendor.address:
        first += ["·", Part(text, "vendor_address", entity)]
    second: list[Part | str] = [f"{st.word('managing_director')}: {c.vendor.director}", "·",
                                f"{st.word('register')} {c.vendor.register}"]
    if c.vendor.tax_number:
        second += ["·", f"{st.word('tax_number')} {c.vendor.tax_number}"]
    if c.vendor.tax_id:
        second += ["·", st.key("tax_id"), cv.value(c.vendor.tax_id, "vendor_tax_id")]
    lines = [first, second]
    if c.iban:
        lines.append([st.word("bank"), "·", st.key("iban"), cv.value(c.iban, "iban"), "·", bic(c)])
    cv.hline(x0, x1, y + 6, 0.3, gray=150)
    for i, parts in enumerate(lines):
        width = _text_width(cv, parts, size, "")
        size_here = size if width <= x1 - x0 else size * (x1 - x0) / width
        cv.line((x0 + x1) / 2, y + 15 + i * size * 1.4, parts, size=size_here, align="C", color=(80, 80, 80))
    page_number_line(cv, st, x1, y + 15 + len(lines) * size * 1.4 + 4, size=6.5)


# ---------------------------------------------------------------- inline runs and key/value sections


def meta_run(cv: Canvas, c: InvoiceContent, st: Style, x0: float, x1: float, y: float, keys: tuple[str, ...] = META_KEYS,
             separator: str = "·", size: float | None = None, extras: int = 3) -> float:
    """"Invoice # 1234 · Date: 05.03.2024 · Due: 19.03.2024": key/value pairs in one run separated by
    ``separator``, wrapping to a new line only between pairs."""
    size = size or st.size
    line: list[Part | str] = []
    for label, parts in meta_items(cv, c, st, keys, extras=extras):
        pair: list[Part | str] = [label] + parts
        if line and _text_width(cv, line + [separator] + pair, size, "") > x1 - x0:
            cv.line(x0, y + size, line, size=size)
            y += size * LINE_GAP
            line = []
        line += ([separator] if line else []) + pair
    if line:
        cv.line(x0, y + size, line, size=size)
        y += size * LINE_GAP
    return y


def run_lines(cv: Canvas, x0: float, x1: float, y: float, parts: list, size: float, separator: str = "·",
              style: str = "", color: tuple[int, int, int] = (0, 0, 0)) -> float:
    """Parts drawn as one run, wrapped between parts where it gets wider than ``x1 - x0``; a separator
    never starts a line."""
    line: list[Part | str] = []
    for part in parts:
        text = part.text if isinstance(part, Part) else part
        if line and text != separator and _text_width(cv, line + [part], size, style) > x1 - x0:
            if (line[-1].text if isinstance(line[-1], Part) else line[-1]) == separator:
                line.pop()
            cv.line(x0, y + size, line, size=size, style=style, color=color)
            y += size * LINE_GAP
            line = []
        if line or text != separator:
            line.append(part)
    if line:
        cv.line(x0, y + size, line, size=size, style=style, color=color)
        y += size * LINE_GAP
    return y


def inline_party(cv: Canvas, st: Style, x0: float, x1: float, y: float, heading_key: str | None, name: str | None,
                 lines: tuple[str, ...], address_label: str, size: float | None = None, separator: str = "·") -> float:
    """A party on one line: "Bill to: Kunden AG · Kundenstraße 15 · 69876 Frankfurt" (wrapping between parts)."""
    size = size or st.size
    entity = cv.new_entity()
    parts: list[Part | str] = [st.key(heading_key)] if heading_key else []
    values: list[Part | str] = [cv.value(name, "customer_name")] if name else []
    values += [Part(text, address_label, entity) for text in lines]
    for i, value in enumerate(values):
        parts += ([separator] if i else []) + [value]
    return run_lines(cv, x0, x1, y, parts, size, separator)


KVRow = tuple[str, list]  # (key words, value parts); a key "" continues the value of the row above


def kv_section(cv: Canvas, st: Style, x0: float, x1: float, y: float, heading: str | None, rows: list[KVRow],
               x_value: float, size: float | None = None, band: tuple[int, int, int] = (210, 235, 248),
               stripes: bool = True) -> float:
    """An e-invoice viewer's section: a tinted heading band ("Verkäufer"), then one "Key:  value" row per
    line, keys in one column and values from ``x_value``, every other row lightly shaded."""
    size = size or st.size
    pitch = size * 1.75
    if heading:
        cv.box(x0, y, x1, y + pitch, fill=band, stroke=False)
        cv.line(x0 + 4, y + pitch * 0.7, [heading], size=size, style="B")
        y += pitch
    for i, (key, parts) in enumerate(rows):
        if stripes and i % 2 == 1:
            cv.box(x0, y, x1, y + pitch, fill=246, stroke=False)
        if key:
            cv.line(x0 + 4, y + pitch * 0.7, [key], size=size, color=(70, 70, 70))
        width = _text_width(cv, parts, size, "")
        cv.line(x_value, y + pitch * 0.7, parts, size=size if width <= x1 - x_value - 4 else
                size * (x1 - x_value - 4) / width)
        y += pitch
    cv.hline(x0, x1, y + 2, 0.4, gray=170)
    return y + 10


def kv_note_rows(cv: Canvas, c: InvoiceContent, st: Style, width: float, size: float) -> list[KVRow]:
    """The notes as key/value rows: "Bemerkung" before the first line of each note, its value labelled."""
    rows: list[KVRow] = []
    for note in c.notes:
        for i, pieces in enumerate(note_lines(cv, note, width, size)):
            rows.append((st.word("notes") if i == 0 else "",
                         [cv.value(text, label) if label else Part(text) for text, label in pieces]))
    return rows
