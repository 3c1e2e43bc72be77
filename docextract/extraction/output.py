"""The entity JSON users get back (schema: docextract/schemas/output.schema.json).

Boxes are 0..1 fractions of the page, top-left origin; pages are 1-based; confidences in 0..1;
dates ISO 8601; money as a decimal string with an ISO 4217 code. ``tokens[]`` (every word with
its tag) is included on request; ``source_tokens`` ids (``p{page}-t{n}``) are stable either way.
A model whose labels have a value policy (a Kleister-NDA contract model) also gets top-level
``values``: document-level values merged from every mention (:mod:`docextract.extraction.values`).
A model with a field calibration (:mod:`docextract.extraction.confidence`) reports calibrated confidences
(fields, line items, entities, values) and each field's ``raw_confidence``; which entity becomes a field,
and which values are kept, is decided on the raw confidences either way.
"""

from __future__ import annotations

import importlib.resources
import json
from dataclasses import replace
from typing import Any, Callable, Sequence

from docextract import __version__
from docextract.document import Document, WordRef
from docextract.extraction.checks import signed_by_the_totals, validate_invoice
from docextract.extraction.entities import (
    FIELD_TYPES,
    LINE_ITEM_PREFIX,
    Entity,
    TaggedWord,
    document_date_year,
    document_locale,
    document_sign_currencies,
    document_printed_currency,
    field_object,
    group_line_items,
)
from docextract.extraction.fields import decode_document_entities
from docextract.extraction.normalize import parse_currency
from docextract.extraction.scoring import FieldScoring
from docextract.extraction.segments import Segment, split_documents
from docextract.extraction.values import ValuePolicy, document_values, policy_for_labels

SCHEMA_VERSION = "1.0"


def load_schema() -> dict[str, Any]:
    return json.loads(importlib.resources.files("docextract").joinpath("schemas/output.schema.json").read_text())


def build_output(
    doc: Document,
    tagged: Sequence[TaggedWord],
    *,
    model: dict[str, Any] | None,
    timings_ms: dict[str, int] | None = None,
    include_tokens: bool = False,
    ocr: dict[str, Any] | None = None,
    scoring: FieldScoring | None = None,
    split: bool = False,
    labels: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The full output object for one file. ``tagged``: every word in reading order with its tag;
    ``scoring`` (:mod:`docextract.extraction.scoring`, the model's field calibration and review policy) maps raw
    field confidences to calibrated ones and gives the fields their evidence confidence and review status (None:
    raw confidences and no fitted policy). ``split``:
    an invoice model's file may hold several invoices, each its own document (:mod:`docextract.extraction.segments`;
    a file of one invoice gives the same single document either way). ``labels``: the model's entity labels (None:
    ``model["labels"]``); ``timings_ms`` appear only when given."""
    field_calibration = scoring.calibration if scoring is not None else None
    ids = doc.token_ids()
    locale = document_locale(doc)
    labels = tuple(labels if labels is not None else (model.get("labels") or ())) if model else ()
    segments = [Segment(0, len(doc.pages))]
    if split and "invoice_number" in labels and len(doc.pages) > 1:
        segments = split_documents(doc)
    documents = []
    entities: list[Entity] = []
    for index, segment in enumerate(segments):
        part, part_tagged = _part(doc, tagged, segment)
        entities = decode_document_entities(part, part_tagged, scoring.candidates if scoring else None)
        if not model:
            break
        part_locale = locale if part is doc else document_locale(part)
        part_ids = ids if part is doc else part.token_ids()
        document = _document_fields(part, entities, part_locale, part_ids, field_calibration, index)
        # every field gets a status; without a scoring, by raw confidence and no fitted policy
        (scoring or FieldScoring(None, None, labels)).apply(part, document, entities)
        if len(segments) > 1:
            document["split"] = {"reasons": list(segment.reasons) or ["the file's first page"]}
        documents.append(document)
    policy = policy_for_labels(labels) if model else None
    values = document_values(doc, entities, policy) if policy is not None else None  # one segment: the whole file
    if policy is not None:
        for document in documents:
            _normalized_by_policy(document["fields"], policy)
    return {
        "schema_version": SCHEMA_VERSION,
        "source": {"path": doc.source, "sha256": doc.sha256, "mime_type": doc.mime_type, "page_count": len(doc.pages)},
        "run": {
            "docextract_version": __version__,
            "model": model,
            "ocr": ocr,
            "reading_order": "xycut",
            "locale": locale,
            **({"timings_ms": timings_ms} if timings_ms else {}),
        },
        "pages": [
            {
                "page": p.number, "width": round(p.width, 2), "height": round(p.height, 2), "unit": "pt",
                "text_source": p.text_source, "rotation_applied": p.rotation_applied,
                "ocr_mean_confidence": None if p.mean_ocr_confidence is None else round(p.mean_ocr_confidence, 4),
            }
            for p in doc.pages
        ],
        "text": reading_order_text(doc),
        "documents": documents,
        **({"values": {k: [v.to_dict(field_calibration) for v in vs] for k, vs in values.items()}}
           if values is not None else {}),
        **({"tokens": _tokens(doc, tagged, ids)} if include_tokens else {}),
        "warnings": list(doc.warnings),
        "errors": [],
    }


def fields_view(output: dict[str, Any]) -> dict[str, Any]:
    """The compact view of an output (``run --fields-only``), for people and shell pipelines: per document each
    field's value, normalised value, confidence and status, the line items' cells (normalised where they normalise)
    and whether the document needs review and why; the file, the model's name and the warnings. Everything else
    (boxes, words, entities, checks) is in the full output."""
    model = output["run"].get("model") or {}
    documents = []
    for document in output["documents"]:
        validation = document.get("validation") or {}
        documents.append({
            "page_range": document["page_range"],
            "fields": {label: {key: field.get(key) for key in ("value", "normalized", "confidence", "status")}
                       for label, field in document["fields"].items()},
            "line_items": [{name: _cell_value(cell) for name, cell in item["fields"].items()}
                           for item in document["line_items"]],
            "needs_review": bool(validation.get("needs_review")),
            "review_reasons": list(validation.get("review_reasons") or []),
        })
    return {
        "schema_version": output["schema_version"],
        "view": "fields",
        "source": output["source"]["path"],
        "model": model.get("name"),
        "documents": documents,
        **({"values": {key: [value["value"] for value in values] for key, values in output["values"].items()}}
           if "values" in output else {}),
        "warnings": list(output["warnings"]),
    }


def _cell_value(cell: dict[str, Any]) -> str:
    """A line item cell in one string: its normalised amount or value, else the text as printed."""
    normalized = cell.get("normalized")
    if isinstance(normalized, dict):
        return normalized.get("amount") or cell["value"]
    return cell["value"] if normalized is None else str(normalized)


def reading_order_text(doc: Document) -> str:
    """The document's text in reading order: lines joined by newlines, pages by form feeds."""
    pages = []
    for page in doc.pages:
        if page.lines:
            order = page.block_order or tuple(range(len(page.blocks)))
            lines = [page.lines[li] for b in order for li in page.blocks[b].line_indices]
            pages.append("\n".join(" ".join(page.words[w].text for w in line.word_indices) for line in lines))
        else:
            pages.append(" ".join(w.text for w in page.words))
    return "\f".join(pages)


def _part(doc: Document, tagged: Sequence[TaggedWord], segment: Segment) -> tuple[Document, list[TaggedWord]]:
    """The pages of ``segment`` as a document of their own (pages keep their numbers, so token ids and pages in
    the output stay the file's), and their tagged words with page indices counted within it."""
    if segment.start == 0 and segment.end == len(doc.pages):
        return doc, list(tagged)
    part = doc.replace(pages=doc.pages[segment.start:segment.end])
    return part, [replace(word, ref=WordRef(word.ref.page_index - segment.start, word.ref.word_index))
                  for word in tagged if segment.start <= word.ref.page_index < segment.end]


def _document_fields(doc: Document, entities: list[Entity], locale: str, ids: dict[WordRef, str],
                     calibration: Callable[[float], float] | None = None, document_index: int = 0) -> dict[str, Any]:
    currency = _document_currency(doc, entities)
    year = document_date_year(doc)  # for dates printed without their year
    fields: dict[str, Any] = {}
    by_label: dict[str, list[Entity]] = {}
    for entity in entities:
        if not entity.label.startswith(LINE_ITEM_PREFIX):
            by_label.setdefault(entity.label, []).append(entity)
    # One field object per entity, shared by `fields`, their alternatives and `entities`.
    objects = {id(e): field_object(doc, e, locale, ids, currency, calibration, year) for e in entities}
    for label, candidates in sorted(by_label.items()):
        if FIELD_TYPES.get(label) == "currency_code":  # "US", "Germany": a country, not the currency field
            candidates = [e for e in candidates if objects[id(e)]["normalized"] is not None]
            if not candidates:
                continue
        # raw confidence (a calibration may tie what it maps); an IBAN whose check digits fail after every one whose
        # hold, and one not even shaped as an IBAN (no normalized value: a VAT id "DE136695976") after those: a
        # tagger that marks a VAT id or an account number as the IBAN beside the real one must not pick it, also
        # where the real one's check digits fail (a sample invoice's made-up IBAN).
        # (Not for tax ids: the seller's tax number fails the VAT check where the buyer's VAT id passes it.)
        ranked = sorted(candidates, key=lambda e: (label == "iban" and objects[id(e)]["normalized"] is None,
                                                   label == "iban" and objects[id(e)].get("valid") is False,
                                                   *e.rank()))
        best = dict(objects[id(ranked[0])])
        if len(ranked) > 1:
            best["alternatives"] = [
                {k: objects[id(e)][k] for k in ("value", "normalized", "confidence", "source_tokens")}
                for e in ranked[1:4]
            ]
        fields[label] = best
    fields = signed_by_the_totals(fields)
    line_items = []
    for index, row in enumerate(group_line_items(doc, entities)):
        cells = {cell.label[len(LINE_ITEM_PREFIX):]: field_object(doc, cell, locale, ids, currency, calibration, year)
                 for cell in row}
        regions = sorted({(c["page"], tuple(c["bbox"])) for c in cells.values()})
        line_items.append({
            "index": index,
            "confidence": round(min(c["confidence"] for c in cells.values()), 4),
            "page": min(c["page"] for c in cells.values()),
            "regions": [{"page": p, "bbox": list(b)} for p, b in regions],
            "fields": cells,
        })
    return {
        "document_index": document_index,
        "page_range": [doc.pages[0].number, doc.pages[-1].number] if doc.pages else [1, 1],
        "fields": fields,
        "line_items": line_items,
        "entities": [
            {"label": e.label, **{k: v for k, v in objects[id(e)].items() if k != "method"}}
            for e in entities
        ],
        "validation": validate_invoice(fields, line_items),
    }


def _normalized_by_policy(fields: dict[str, Any], policy: ValuePolicy) -> None:
    """A contract's fields normalised as its ``values`` are ("Oregon." -> "Oregon", "two years" -> "2 years",
    "NIKE, Inc.," -> "Nike Inc."), so both parts of the output give one value; a text the policy cannot read
    keeps its type's normalisation."""
    for label, field in fields.items():
        rule = policy.get(label)
        if rule is None:
            continue
        for item in (field, *field.get("alternatives", ())):
            normalized = rule.normalize(item["value"])
            if normalized is not None:
                item["normalized"] = normalized


def _document_currency(doc: Document, entities: list[Entity]) -> str | None:
    """The currency the document's amounts are in: a predicted currency field, else symbols in amounts, else
    the currency printed most often anywhere on the document; a US dollar read from a bare "$" is the other dollar the
    document names by its code ("Amount Due (CAD)"), where it names one, or its locale's; a crown's "kr" likewise."""
    code = _printed_currency(doc, entities)
    return document_sign_currencies(doc).get(code, code)


def _printed_currency(doc: Document, entities: list[Entity]) -> str | None:
    for entity in sorted(entities, key=lambda e: -e.confidence):
        if entity.label == "currency":
            code = parse_currency(entity.text(doc))
            if code:
                return code
    for entity in entities:
        if entity.label in ("total", "amount_due", "subtotal"):
            code = parse_currency(entity.text(doc))
            if code:
                return code
    return document_printed_currency(doc)


def _tokens(doc: Document, tagged: Sequence[TaggedWord], ids: dict[WordRef, str]) -> list[dict[str, Any]]:
    out = []
    for order, word in enumerate(tagged):
        page = doc.pages[word.ref.page_index]
        w = doc.word(word.ref)
        out.append({
            "id": ids[word.ref], "page": page.number, "text": w.text,
            "bbox": [round(v, 4) for v in w.box.normalized(page.width, page.height)],
            "ocr_confidence": w.confidence, "order": order,
            "label": word.tag, "label_confidence": round(word.probability, 4),
        })
    return out
