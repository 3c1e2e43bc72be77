"""Layout analysis: words -> lines -> blocks -> reading order, and windows for the model.

Each step is a pure function of the step before; :func:`analyze_layout` runs them on every page.
"""

from __future__ import annotations

from docextract.document import Document, Page
from docextract.layout.blocks import group_blocks
from docextract.layout.lines import group_lines
from docextract.layout.reading_order import reading_order
from docextract.layout.windows import DEFAULT_MAX_TOKENS, DEFAULT_STRIDE, make_windows

__all__ = [
    "analyze_layout", "analyze_page", "group_lines", "group_blocks", "reading_order",
    "make_windows", "DEFAULT_MAX_TOKENS", "DEFAULT_STRIDE",
]


def analyze_page(page: Page) -> Page:
    """``page`` with its lines, blocks and block reading order filled in (any earlier layout is replaced)."""
    lines = group_lines(page.words)
    blocks = group_blocks(lines)
    order = reading_order([b.box for b in blocks])
    return page.replace(lines=lines, blocks=blocks, block_order=order)


def analyze_layout(doc: Document) -> Document:
    """A new Document whose every page has ``lines``, ``blocks`` and ``block_order``; ``doc`` is unchanged."""
    return doc.replace(pages=tuple(analyze_page(p) for p in doc.pages))
