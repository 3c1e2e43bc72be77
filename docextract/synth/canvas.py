"""Drawing with fpdf2 while remembering, for every text run, where it went and what it is.

A :class:`Canvas` wraps an ``FPDF`` in points (top-left origin, as docextract's Document) and records a
:class:`DrawnRun` per labelled piece of text: its page, rectangle, field label, entity id and line-item
row. The labeller (labelling.py) later gives each word extracted from the PDF the label of the run whose
rectangle holds the word's centre, so labels never depend on how a word extractor splits text.

The PDF core fonts (Helvetica, Times, Courier) are used with the cp1252 encoding: it has €, £, «», é, ß, ä.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from fpdf import FPDF

from docextract.document import Box

CORE_FONTS = ("Helvetica", "Times", "Courier")
CORE_FONT_ENCODING = "windows-1252"
# Core-font glyph extent relative to the baseline as pdfminer measures it (Helvetica AFM: ascender 718,
# descender -207; pdfminer makes each char exactly one font size tall). Slightly generous so a word's
# centre always falls inside its run's rectangle.
RUN_ABOVE_BASELINE = 0.80  # x font size
RUN_BELOW_BASELINE = 0.25  # x font size
RUN_X_MARGIN = 0.5  # points: pdfminer gives some glyphs (the cp1252 Euro) zero width at their left edge
PAGE_EDGE = 2.0  # points: no drawn line comes closer to the page edge (longer ones are printed smaller)
FIXED_CREATION_DATE = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
PAGE_FORMATS = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0), "A4-landscape": (841.89, 595.28)}


@dataclass(frozen=True)
class Part:
    """A piece of a drawn line: its text and, for a value, its field label, entity and line-item row."""

    text: str
    label: str | None = None
    entity: int | None = None
    row: int | None = None


@dataclass(frozen=True)
class DrawnRun:
    page: int  # 1-based
    box: Box  # points, top-left origin
    text: str
    label: str | None
    entity: int | None
    row: int | None


class Canvas:
    """An fpdf2 document in points that records every run it draws (see module doc)."""

    def __init__(self, page_format: str = "A4", font: str = "Helvetica", page_total: int = 1):
        self.page_width, self.page_height = PAGE_FORMATS[page_format]
        self.pdf = FPDF(unit="pt", format=(self.page_width, self.page_height))
        self.pdf.core_fonts_encoding = CORE_FONT_ENCODING
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(0, 0, 0)
        self.pdf.set_creator("docextract synth")
        self.pdf.set_creation_date(FIXED_CREATION_DATE)  # same seed, byte-identical PDF
        self.font = font
        self.page_total = page_total  # printed in "Page 1 of N"; known after a first rendering
        self.runs: list[DrawnRun] = []
        self._entities = 0
        self._widths: dict[tuple[str, str], dict] = {}
        self.pdf.set_font(font, size=9)

    # ---- bookkeeping
    def new_entity(self) -> int:
        self._entities += 1
        return self._entities

    def value(self, text: str, label: str, row: int | None = None, entity: int | None = None) -> Part:
        """A labelled part with a fresh entity (or the given one, for multi-line values)."""
        return Part(text, label, self.new_entity() if entity is None else entity, row)

    @property
    def page(self) -> int:
        return self.pdf.page

    def add_page(self) -> None:
        self.pdf.add_page()

    # ---- text
    def set_font(self, size: float, style: str = "", font: str | None = None) -> None:
        self.pdf.set_font(font or self.font, style=style, size=size)

    def _glyph_widths(self, font: str, style: str) -> dict:
        """The core font's glyph widths (1/1000 of the font size), what fpdf2's get_string_width sums: read
        once per font, because get_string_width costs a graphics-state copy per call (half the drawing time)."""
        key = (font, style)
        if key not in self._widths:
            size, current_style, family = self.pdf.font_size_pt, self.pdf.font_style, self.pdf.font_family
            self.pdf.set_font(font, style=style, size=size)
            self._widths[key] = self.pdf.current_font.cw
            self.pdf.set_font(family, style=current_style, size=size)
        return self._widths[key]

    def _text_width(self, text: str, size: float, style: str, font: str | None = None) -> float:
        widths = self._glyph_widths(font or self.font, style)
        # fpdf2 keys the widths by the cp1252 byte read as latin-1 ("€" is chr(0x80)), as normalize_text does
        return sum(widths[ch] for ch in text.encode(CORE_FONT_ENCODING).decode("latin-1")) * size * 0.001

    def width(self, text: str, size: float | None = None, style: str | None = None) -> float:
        return self._text_width(text, size if size is not None else self.pdf.font_size_pt,
                                style if style is not None else self.pdf.font_style)

    def _room(self, x: float, align: str) -> float:
        """How wide a line anchored at ``x`` may be and stay on the page (PAGE_EDGE points from its edges)."""
        left, right = x - PAGE_EDGE, self.page_width - PAGE_EDGE - x
        return right if align == "L" else left if align == "R" else 2 * min(left, right)

    def line(self, x: float, baseline: float, parts: "list[Part | str] | tuple[Part | str, ...]", size: float = 9,
             style: str = "", align: str = "L", font: str | None = None, color: tuple[int, int, int] = (0, 0, 0)) -> float:
        """Draw ``parts`` joined by single spaces on one baseline; return the drawn width.

        Each part is its own ``text()`` call at the position fpdf2 measured, followed by a real space
        character, so word extractors split words where the parts split and a glyph whose width a reader
        gets wrong (pdfminer has no width for the cp1252 Euro) cannot shift the parts after it.
        ``align``: "L" x is the left edge, "R" the right edge, "C" the centre.
        """
        parts = [p if isinstance(p, Part) else Part(p) for p in parts if (p.text if isinstance(p, Part) else p)]
        if not parts:
            return 0.0
        space = self._text_width(" ", size, style, font)
        widths = [self._text_width(p.text, size, style, font) for p in parts]
        total = sum(widths) + space * (len(parts) - 1)
        room = self._room(x, align)
        if total > room > 0:  # a long title or value would run off the page: print it smaller
            size *= room / total
            space = self._text_width(" ", size, style, font)
            widths = [self._text_width(p.text, size, style, font) for p in parts]
            total = sum(widths) + space * (len(parts) - 1)
        self.set_font(size, style, font)
        left = x - total if align == "R" else x - total / 2 if align == "C" else x
        self.pdf.set_text_color(*color)
        start = left
        for i, (part, width) in enumerate(zip(parts, widths)):
            self.pdf.text(start, baseline, part.text + (" " if i < len(parts) - 1 else ""))
            self.runs.append(DrawnRun(
                page=self.page,
                box=Box(start - RUN_X_MARGIN, baseline - RUN_ABOVE_BASELINE * size,
                        start + width + RUN_X_MARGIN, baseline + RUN_BELOW_BASELINE * size),
                text=part.text, label=part.label, entity=part.entity, row=part.row,
            ))
            start += width + space
        self.pdf.set_text_color(0, 0, 0)
        return total

    def wrap(self, text: str, max_width: float, size: float, style: str = "") -> list[str]:
        """Greedy word wrap of ``text`` into lines no wider than ``max_width`` points."""
        lines: list[str] = []
        current = ""
        for word in text.split():
            candidate = f"{current} {word}" if current else word
            if current and self._text_width(candidate, size, style) > max_width:
                lines.append(current)
                current = word
            else:
                current = candidate
        if current:
            lines.append(current)
        return lines

    # ---- graphics
    def hline(self, x0: float, x1: float, y: float, width: float = 0.5, gray: int = 0) -> None:
        self.pdf.set_draw_color(gray)
        self.pdf.set_line_width(width)
        self.pdf.line(x0, y, x1, y)

    def vline(self, x: float, y0: float, y1: float, width: float = 0.5, gray: int = 0) -> None:
        self.pdf.set_draw_color(gray)
        self.pdf.set_line_width(width)
        self.pdf.line(x, y0, x, y1)

    def box(self, x0: float, top: float, x1: float, bottom: float, fill: int | tuple[int, int, int] | None = None,
            stroke: bool = True, width: float = 0.5) -> None:
        self.pdf.set_line_width(width)
        self.pdf.set_draw_color(0)
        if fill is not None:
            self.pdf.set_fill_color(*(fill if isinstance(fill, tuple) else (fill,)))
        style = ("F" if fill is not None else "") + ("D" if stroke else "")
        self.pdf.rect(x0, top, x1 - x0, bottom - top, style=style or "D")

    def output(self) -> bytes:
        return bytes(self.pdf.output())
