"""The data types that flow through docextract, one stage to the next.

One coordinate convention everywhere inside the program: PDF points,
origin at the top-left of the page, boxes as ``(x0, top, x1, bottom)``. OCR converts
pixels to points once, on reading; the model input converts points to the 0..1000 grid
once, in :meth:`Box.to_grid`; the output JSON converts to 0..1 with :meth:`Box.normalized`.
Page width and height always travel with the boxes (on :class:`Page`).

Pages are numbered from 1, as users and the output schema count them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

POINTS_PER_INCH = 72.0
MODEL_GRID = 1000  # layout models see integer coordinates on a 0..1000 grid per page

TEXT_SOURCES = ("pdf_text", "ocr", "words_json")


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in PDF points, top-left origin."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2.0, (self.top + self.bottom) / 2.0)

    def union(self, other: Box) -> Box:
        return Box(
            min(self.x0, other.x0), min(self.top, other.top),
            max(self.x1, other.x1), max(self.bottom, other.bottom),
        )

    @staticmethod
    def enclosing(boxes: "list[Box] | tuple[Box, ...]") -> Box:
        if not boxes:
            raise ValueError("enclosing() needs at least one box")
        first = boxes[0]
        x0, top, x1, bottom = first.x0, first.top, first.x1, first.bottom
        for box in boxes:  # one pass, not four min/max generators: decoding asks this ~1,000 times a page
            if box.x0 < x0:
                x0 = box.x0
            if box.top < top:
                top = box.top
            if box.x1 > x1:
                x1 = box.x1
            if box.bottom > bottom:
                bottom = box.bottom
        return Box(x0, top, x1, bottom)

    @staticmethod
    def from_pixels(x0: float, top: float, x1: float, bottom: float, dpi: float) -> Box:
        """Pixel box of an image rendered or scanned at ``dpi`` -> points."""
        scale = POINTS_PER_INCH / dpi
        return Box(x0 * scale, top * scale, x1 * scale, bottom * scale)

    def to_pixels(self, dpi: float) -> tuple[float, float, float, float]:
        scale = dpi / POINTS_PER_INCH
        return (self.x0 * scale, self.top * scale, self.x1 * scale, self.bottom * scale)

    def clipped(self, width: float, height: float) -> Box:
        """This box clipped to a page of ``width`` x ``height`` points."""
        def clip(v: float, hi: float) -> float:
            return min(max(v, 0.0), hi)
        return Box(clip(self.x0, width), clip(self.top, height), clip(self.x1, width), clip(self.bottom, height))

    def normalized(self, width: float, height: float) -> tuple[float, float, float, float]:
        """0..1 fractions of the page, top-left origin (the output JSON's ``bbox``)."""
        b = self.clipped(width, height)
        return (b.x0 / width, b.top / height, b.x1 / width, b.bottom / height)

    def to_grid(self, width: float, height: float) -> tuple[int, int, int, int]:
        """Integer 0..1000 coordinates of the page (the layout models' input), as LayoutLM does."""
        b = self.clipped(width, height)
        return (
            int(MODEL_GRID * b.x0 / width), int(MODEL_GRID * b.top / height),
            int(MODEL_GRID * b.x1 / width), int(MODEL_GRID * b.bottom / height),
        )

    def as_list(self) -> list[float]:
        return [self.x0, self.top, self.x1, self.bottom]

    def vertical_overlap(self, other: Box) -> float:
        return max(0.0, min(self.bottom, other.bottom) - max(self.top, other.top))

    def horizontal_overlap(self, other: Box) -> float:
        return max(0.0, min(self.x1, other.x1) - max(self.x0, other.x0))


@dataclass(frozen=True)
class Word:
    """One word as read from the page. ``confidence`` is the OCR confidence in 0..1, None for a text layer."""

    text: str
    box: Box
    confidence: float | None = None


# A space between two words is about a quarter of the text height; pieces of one word touch. A text layer breaks
# a word at a font change ("4" + "71102" of a bold "471102"); such pieces are joined as they print.
TOUCHING_GAP_OF_HEIGHT = 0.05


def touching(previous: Word, word: Word) -> bool:
    """Whether ``word`` continues ``previous`` on its line with no space between: pieces of one printed word (not a
    key and its value the reader set apart at their colon: "Factuurnummer:" + "2024-01093")."""
    gap = word.box.x0 - previous.box.x1
    return 0 <= gap <= TOUCHING_GAP_OF_HEIGHT * min(word.box.height, previous.box.height) and not (
        previous.text.endswith(":") and word.text[:1].isalnum())


def join_words(words: Sequence[Word]) -> str:
    """The words of one line as printed: separated by a space, except pieces whose boxes touch."""
    parts: list[str] = []
    for previous, word in zip((None, *words), words):
        if previous is not None:
            parts.append("" if touching(previous, word) else " ")
        parts.append(word.text)
    return "".join(parts)


@dataclass(frozen=True)
class Line:
    """Words that share a baseline, left to right: indices into ``Page.words``."""

    word_indices: tuple[int, ...]
    box: Box


@dataclass(frozen=True)
class Block:
    """Lines that belong together (a paragraph, a table cell, an address): indices into ``Page.lines``."""

    line_indices: tuple[int, ...]
    box: Box


@dataclass(frozen=True)
class Page:
    """One page: its size in points, its words as read, and (after layout) lines, blocks and reading order.

    ``block_order`` is a permutation of ``range(len(blocks))``: the reading order of the blocks.
    """

    number: int
    width: float
    height: float
    words: tuple[Word, ...]
    text_source: str = "pdf_text"
    rotation_applied: int = 0
    # which library read a text layer ("pdfplumber", "pdfium"), or in which languages Tesseract read the page
    # ("tesseract deu+eng"); None for words JSON. Shown by `inspect`;
    # not part of the output JSON or the labelled format, nor of a page's equality (the same words are the same page).
    text_reader: str | None = dataclasses.field(default=None, compare=False)
    lines: tuple[Line, ...] = ()
    blocks: tuple[Block, ...] = ()
    block_order: tuple[int, ...] = ()

    def replace(self, **changes: Any) -> Page:
        return dataclasses.replace(self, **changes)

    @property
    def has_layout(self) -> bool:
        return bool(self.blocks) or not self.words

    def ordered_word_indices(self) -> list[int]:
        """Word indices in reading order: blocks in ``block_order``, their lines top to bottom, words left to right.

        Before layout analysis this is simply the order the words were read in.
        """
        if not self.blocks:
            return list(range(len(self.words)))
        order = self.block_order or tuple(range(len(self.blocks)))
        return [w for b in order for li in self.blocks[b].line_indices for w in self.lines[li].word_indices]

    @property
    def mean_ocr_confidence(self) -> float | None:
        confs = [w.confidence for w in self.words if w.confidence is not None]
        return sum(confs) / len(confs) if confs else None


@dataclass(frozen=True)
class WordRef:
    """A word of a document: its page's index in ``Document.pages`` and its index in that page's ``words``."""

    page_index: int
    word_index: int


@dataclass(frozen=True)
class TaggedWord:
    """One word of the document in reading order with the model's tag and the probability of that tag: what
    inference (:mod:`docextract.modeling.inference`) hands to extraction."""

    ref: WordRef
    tag: str  # "O", "B-total", "I-total", "E-total", "S-total"
    probability: float
    # label (no prefix) -> probability, B/I/E/S summed; None where only the tag is known (mapped or gold tags)
    label_probabilities: Mapping[str, float] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Document:
    """A whole file as read. ``source`` is the path it came from (as given)."""

    source: str
    pages: tuple[Page, ...]
    mime_type: str = "application/pdf"
    sha256: str = ""
    warnings: tuple[str, ...] = ()

    def replace(self, **changes: Any) -> Document:
        return dataclasses.replace(self, **changes)

    @property
    def word_count(self) -> int:
        return sum(len(p.words) for p in self.pages)

    def ordered_words(self) -> list[WordRef]:
        """Every word of the document in reading order, page after page."""
        return [WordRef(pi, wi) for pi, page in enumerate(self.pages) for wi in page.ordered_word_indices()]

    def word(self, ref: WordRef) -> Word:
        return self.pages[ref.page_index].words[ref.word_index]

    def iter_words(self) -> Iterator[tuple[WordRef, Word]]:
        for ref in self.ordered_words():
            yield ref, self.word(ref)

    def token_ids(self) -> dict[WordRef, str]:
        """Every word's stable id ``p{page}-t{n}`` (the output's ``source_tokens``): n counts the page's words in
        reading order from 1."""
        return {WordRef(pi, wi): f"p{page.number}-t{n}" for pi, page in enumerate(self.pages)
                for n, wi in enumerate(page.ordered_word_indices(), start=1)}

    # ---- serialisation (the documented pre-extracted words JSON is a subset of this) ----

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "mime_type": self.mime_type,
            "sha256": self.sha256,
            "warnings": list(self.warnings),
            "pages": [_page_to_dict(p) for p in self.pages],
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Document:
        return Document(
            source=data.get("source", ""),
            mime_type=data.get("mime_type", "application/json"),
            sha256=data.get("sha256", ""),
            warnings=tuple(data.get("warnings", ())),
            pages=tuple(_page_from_dict(p, i + 1) for i, p in enumerate(data["pages"])),
        )


def _page_to_dict(page: Page) -> dict[str, Any]:
    return {
        "number": page.number,
        "width": page.width,
        "height": page.height,
        "unit": "pt",
        "text_source": page.text_source,
        "rotation_applied": page.rotation_applied,
        "words": [
            {"text": w.text, "box": w.box.as_list(), **({"confidence": w.confidence} if w.confidence is not None else {})}
            for w in page.words
        ],
        "lines": [{"words": list(l.word_indices), "box": l.box.as_list()} for l in page.lines],
        "blocks": [{"lines": list(b.line_indices), "box": b.box.as_list()} for b in page.blocks],
        "block_order": list(page.block_order),
    }


def _page_from_dict(data: dict[str, Any], default_number: int) -> Page:
    return Page(
        number=int(data.get("number", default_number)),
        width=float(data["width"]),
        height=float(data["height"]),
        text_source=data.get("text_source", "words_json"),
        rotation_applied=int(data.get("rotation_applied", 0)),
        words=tuple(
            Word(text=w["text"], box=Box(*map(float, w["box"])), confidence=w.get("confidence"))
            for w in data["words"]
        ),
        lines=tuple(Line(tuple(l["words"]), Box(*l["box"])) for l in data.get("lines", ())),
        blocks=tuple(Block(tuple(b["lines"]), Box(*b["box"])) for b in data.get("blocks", ())),
        block_order=tuple(data.get("block_order", ())),
    )


@dataclass(frozen=True)
class Window:
    """A model-sized slice of a document's reading order.

    ``words`` are the window's words in order. The window predicts for ``words[core_start:core_end]``;
    the words before and after are context it shares with its neighbours (the stride overlap), so every
    word of the document is in exactly one window's core.
    """

    index: int
    words: tuple[WordRef, ...]
    token_count: int
    core_start: int = 0
    core_end: int = -1  # -1: up to the end
    pages: tuple[int, ...] = field(default=())  # page indices the window touches

    @property
    def core(self) -> tuple[WordRef, ...]:
        end = len(self.words) if self.core_end < 0 else self.core_end
        return self.words[self.core_start:end]
