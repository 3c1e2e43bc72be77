"""Invoices that another tool rendered from values we chose -> labelled documents, labelled by construction.

The values are known (``docextract render`` chose them, or took them from a real e-invoice's XML), so the
rendered PDF is read the way ``docextract convert einvoice`` reads a real one (``read_document`` then
``analyze_layout``: the words ``run`` sees) and every value is found on its words by the same matcher,
:func:`docextract.extraction.locate.locate_fields`; a line-item table by
:func:`~docextract.extraction.locate.locate_line_items_exactly`.

The renderer's adapter says which fields its page prints (``required``). A document where one of them is not
located (not printed as given, or printed where no key tells which field it is) is not labelled at all: its
labels would miss words that show a value, so :func:`label_rendered` returns the reasons instead and the
caller counts the document as dropped. Line items are optional: when some item's cells are not found the
document keeps its field labels and leaves the line-item labels out of its ``label_set`` (training masks
what a label set does not cover).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Mapping, Sequence

from docextract.data.kleister import clipped_to_pages
from docextract.data.labelled import OUTSIDE, LabelledDocument
from docextract.document import Document
from docextract.extraction.locate import locate_fields, locate_line_items_exactly
from docextract.layout import analyze_layout
from docextract.readers.einvoice import normalized_text
from docextract.vocabulary import DOCUMENT_LABELS as LABEL_FIELDS
from docextract.vocabulary import LINE_ITEM_LABELS


@dataclass(frozen=True)
class RenderedLabels:
    """What labelling one rendered document gave: the record (None when dropped), why it was dropped, and
    per field whether its value was located (``False`` with a reason in ``missing``)."""

    document: LabelledDocument | None
    missing: dict[str, str] = field(default_factory=dict)  # field -> reason
    located: dict[str, bool] = field(default_factory=dict)
    rows: dict[tuple[int, int], int] = field(default_factory=dict)  # (page, word) -> line-item index
    line_items: str = "none"  # "labelled" | "not found" | "none" (the rendering prints no item table)


def read_rendered(pdf: Path) -> Document:
    """The PDF's words as ``convert einvoice`` reads a real one: boxes clipped to the page (a renderer that
    prints past the edge), then the lines, blocks and reading order ``run`` reads in."""
    from docextract.readers import read_document

    document, _ = clipped_to_pages(read_document(pdf))
    return analyze_layout(document)


def field_value(name: str, value: Any, printed: str) -> str:
    """A located field's true value as ``convert einvoice`` writes it."""
    if name.endswith("_address"):
        return printed  # the lines as this page prints them
    if name == "payment_terms":
        return " ".join(str(value).split())
    return normalized_text(value)


def label_rendered(record_id: str, document: Document, values: Mapping[str, Any], required: Sequence[str],
                   items: Sequence[Mapping[str, Any]] = (), line_item_amounts: Sequence[Decimal] = ()
                   ) -> RenderedLabels:
    """Label ``document`` with ``values`` (field -> typed value: the matcher's input) and its ``items`` (mappings
    of description, quantity, unit_price, amount; empty: no item table). Every field of ``required`` must be
    located or the document is dropped."""
    locations = locate_fields(document, values, line_item_amounts)
    located = {name: loc.found for name, loc in locations.items()}
    missing = {name: (locations[name].reason or "not printed") if name in locations else "no value"
               for name in required if not (name in locations and locations[name].found)}
    if missing:
        return RenderedLabels(None, missing, located, line_items="none" if not items else "not checked")
    labels = [[OUTSIDE] * len(p.words) for p in document.pages]
    entities: list[list[int | None]] = [[None] * len(p.words) for p in document.pages]
    fields: dict[str, tuple[str, ...]] = {}
    next_entity = 0

    def mark(refs, label: str) -> bool:
        nonlocal next_entity
        if any(labels[r.page_index][r.word_index] != OUTSIDE for r in refs):
            return False
        for ref in refs:
            labels[ref.page_index][ref.word_index] = label
            entities[ref.page_index][ref.word_index] = next_entity
        next_entity += 1
        return True

    for name in LABEL_FIELDS:
        location = locations.get(name)
        if location is None or not location.found:
            continue
        fields[name] = (field_value(name, values[name], location.printed),)
        for occurrence in location.occurrences:
            mark(occurrence, name)
    rows: dict[tuple[int, int], int] = {}
    item_state = "none"
    if items:
        cells = locate_line_items_exactly(document, items)
        clash = cells is not None and any(labels[r.page_index][r.word_index] != OUTSIDE
                                          for item in cells for refs in item.values() for r in refs)
        item_state = "labelled" if cells is not None and not clash else "not found"
        if item_state == "labelled":
            for index, item in enumerate(cells):
                for cell, refs in item.items():
                    mark(refs, f"line_item_{cell}")
                    rows.update({(r.page_index, r.word_index): index for r in refs})
    label_set = tuple(name for name in LABEL_FIELDS if name in fields)
    if item_state == "labelled":
        printed_cells = {cell for item in items for cell in ("quantity", "unit_price", "amount")
                         if item.get(cell) is not None}
        label_set += tuple(label for label in LINE_ITEM_LABELS
                           if label == "line_item_description" or label.removeprefix("line_item_") in printed_cells)
    doc = LabelledDocument(record_id, document, tuple(map(tuple, labels)), tuple(map(tuple, entities)),
                           label_set, fields)
    return RenderedLabels(doc, {}, located, rows, item_state)


def record_with_rows(labels: RenderedLabels, extra: Mapping[str, Any]) -> dict[str, Any]:
    """The JSONL record: the labelled document, ``row`` on every line-item word (as `docextract synth` writes
    it), and ``extra`` keys (``group``, ``producer``, ``line_items``, ``render``)."""
    assert labels.document is not None
    record = labels.document.to_dict()
    for page_index, page in enumerate(record["pages"]):
        for word_index, word in enumerate(page["words"]):
            row = labels.rows.get((page_index, word_index))
            if row is not None:
                word["row"] = row
    record.update(extra)
    return record

