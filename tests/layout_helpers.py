"""Small laid-out pages for the extraction tests: rows of cells placed at fixed positions, laid out as `run` does."""

from __future__ import annotations

from docextract.document import Box, Document, Page, Word
from docextract.layout import analyze_layout


def laid_out_page(rows: list[list[tuple[str, float]]], line_spacing: float = 20.0,
                  source: str = "in/invoice.pdf") -> Document:
    """A one-page document: each row a list of (cell text, x), rows ``line_spacing`` pt apart from 60 pt down; a
    cell's words 6 pt per character wide and one 4 pt space apart, 11 pt tall."""
    words = []
    for r, row in enumerate(rows):
        top = 60 + line_spacing * r
        for cell, x in row:
            for text in cell.split():
                words.append(Word(text, Box(x, top, x + 6 * len(text), top + 11)))
                x += 6 * len(text) + 4
    doc = Document(source=source, pages=(Page(number=1, width=595.0, height=842.0, words=tuple(words)),),
                   sha256="0" * 64)
    return analyze_layout(doc)
