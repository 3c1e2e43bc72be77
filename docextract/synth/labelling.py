"""Labels by construction: every extracted word takes the label of the drawn run under its centre.

The generator knows where it drew each value (``DrawnRun``/``Region``: page, rectangle, label, entity,
line-item row). After the PDF is written its words are extracted with pdfplumber, the same way a reader
of real PDFs would, and each word is matched to the region that holds its centre. The same matching,
with box overlap as a fallback, labels OCR words of the scan-like images (scan.py stores the regions
transformed into the image's geometry), so labels never depend on how a word extractor splits text.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Protocol, Sequence

import pdfplumber

from docextract.document import Box, Document, Page, Word

# Of a word's area, for a word whose centre lies in no region (an OCR box that swallowed a neighbour or
# drifted). It must stay below 0.5: a box overlapping a region by half or more has its centre inside it.
MIN_OVERLAP_FRACTION = 0.25


class RegionLike(Protocol):
    box: Box
    label: str | None
    entity: int | None
    row: int | None


@dataclass(frozen=True)
class Region:
    """A labelled rectangle on one page (points, top-left origin); ``label`` None for unlabelled text."""

    page: int
    box: Box
    label: str | None
    entity: int | None = None
    row: int | None = None
    text: str = ""  # what was drawn there

    def to_dict(self) -> dict:
        out: dict = {"box": [round(v, 2) for v in self.box.as_list()], "label": self.label, "text": self.text}
        if self.entity is not None:
            out["entity"] = self.entity
        if self.row is not None:
            out["row"] = self.row
        return out

    @staticmethod
    def from_dict(data: dict, page: int) -> "Region":
        return Region(page, Box(*map(float, data["box"])), data.get("label"), data.get("entity"), data.get("row"),
                      data.get("text", ""))


@dataclass(frozen=True)
class WordLabel:
    label: str | None  # None: outside every entity
    entity: int | None = None
    row: int | None = None


OUTSIDE = WordLabel(None)


def _contains(box: Box, x: float, y: float) -> bool:
    return box.x0 <= x <= box.x1 and box.top <= y <= box.bottom


def _overlap(a: Box, b: Box) -> float:
    return a.horizontal_overlap(b) * a.vertical_overlap(b)


def label_words_by_regions(words: Sequence[Word], regions: Sequence[RegionLike]) -> list[WordLabel]:
    """One label per word (same order): the region holding the word's centre (the one whose centre is
    nearest when several do), else the region covering at least MIN_OVERLAP_FRACTION of the word.
    Words and regions must be on the same page and in the same units."""
    out = []
    for word in words:
        cx, cy = word.box.center
        holding = [r for r in regions if _contains(r.box, cx, cy)]
        if holding:
            best = min(holding, key=lambda r: (r.box.center[0] - cx) ** 2 + (r.box.center[1] - cy) ** 2)
        else:
            area = max(word.box.width * word.box.height, 1e-6)
            scored = [(_overlap(word.box, r.box) / area, r) for r in regions]
            scored = [(s, r) for s, r in scored if s >= MIN_OVERLAP_FRACTION]
            if not scored:
                out.append(OUTSIDE)
                continue
            best = max(scored, key=lambda sr: sr[0])[1]
        out.append(WordLabel(best.label, best.entity, best.row) if best.label else OUTSIDE)
    return out


def read_pdf_words(pdf: bytes, source: str = "") -> Document:
    """The PDF's words with boxes (pdfplumber defaults, points, top-left origin) as a Document."""
    pages = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for number, page in enumerate(doc.pages, start=1):
            words = tuple(
                Word(w["text"], Box(float(w["x0"]), float(w["top"]), float(w["x1"]), float(w["bottom"])))
                for w in page.extract_words()
            )
            pages.append(Page(number=number, width=float(page.width), height=float(page.height), words=words,
                              text_source="pdf_text"))
    return Document(source=source, pages=tuple(pages))


def label_document(document: Document, regions: Sequence[Region]) -> list[list[WordLabel]]:
    """Labels for every word of every page, page by page."""
    by_page: dict[int, list[Region]] = {}
    for region in regions:
        by_page.setdefault(region.page, []).append(region)
    return [label_words_by_regions(page.words, by_page.get(page.number, [])) for page in document.pages]
