"""An e-invoice's embedded values in the entity JSON, beside what the model reads on the page.

``docextract run`` on a PDF that carries its invoice as XML (:mod:`docextract.readers.einvoice`) reports
every value the XML states as a field with ``"method": "embedded"`` and confidence 1.0, located on the
page with the converter's matching (:mod:`docextract.extraction.locate`: ``page``, ``bbox`` and
``source_tokens`` when it is printed). The model's own reading of that field stays beside it, under
``model`` (the model's field object, alternatives included). Where the model read a value that is not
the embedded one, ``model_agrees`` is false and the field goes into ``validation.review_reasons`` with
both values, and the ``page_matches_embedded_invoice`` check fails: a page that says something else than
its XML is what an accounts-payable team must catch. Fields the model reads that the XML does not state
stay the model's.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from docextract.document import Box, Document
from docextract.extraction.checks import validate_invoice
from docextract.extraction.entities import FIELD_TYPES
from docextract.extraction.locate import Location, compact, locate_fields
from docextract.extraction.output import token_ids

CHECK_NAME = "page_matches_embedded_invoice"
MIN_SHARE = 2 / 3  # a text read from the page agrees when it holds (or is) at least this share of the value


def add_embedded_values(output: dict[str, Any], doc: Document, values: Mapping[str, Any], normalized: Mapping[str, str],
                        summary: Mapping[str, Any], line_item_amounts=()) -> dict[str, Any]:
    """``output`` (from ``build_output``) with the embedded ``values`` (typed, as ``EmbeddedInvoice.field_values``;
    ``normalized``: their strings) merged into its document's fields; a document is added when the run had
    no model. ``summary`` describes the XML (attachment, syntax, profile, type code, line items)."""
    locations = locate_fields(doc, values, line_item_amounts)
    ids = token_ids(doc)
    currency = str(values.get("currency") or "") or None
    if not output["documents"]:
        pages = [p.number for p in doc.pages] or [1]
        output["documents"] = [{"document_index": 0, "page_range": [pages[0], pages[-1]], "fields": {},
                                "line_items": [], "entities": [], "validation": {}}]
    document = output["documents"][0]
    model_fields = document["fields"]
    fields: dict[str, Any] = {}
    disagreements: list[str] = []
    for name, value in values.items():
        field = _embedded_field(doc, name, normalized[name], currency, locations.get(name), ids)
        read = model_fields.get(name)
        if read is not None:
            field["model"] = read
            field["model_agrees"] = agrees(field, read)
            if not field["model_agrees"]:
                disagreements.append(f"page disagrees with the embedded invoice: {name}: page {read['value']!r} "
                                     f"({_shown(read['normalized'])}) vs embedded {_shown(field['normalized'])}")
        # the XML is the invoice's own statement: accepted, unless the page says otherwise
        field["status"] = "review" if field.get("model_agrees") is False else "accepted"
        fields[name] = field
    for name, read in model_fields.items():
        fields.setdefault(name, read)  # what the model reads and the XML does not state
    document["fields"] = dict(sorted(fields.items()))
    document["embedded_invoice"] = dict(summary)
    validation = validate_invoice(document["fields"], document["line_items"])
    compared = [name for name, f in fields.items() if "model_agrees" in f]
    validation["checks"].append({"name": CHECK_NAME, "status": "fail" if disagreements else "pass" if compared else "skipped",
                                 "fields": sorted(n for n in compared if not fields[n]["model_agrees"])})
    validation["review_reasons"] = disagreements + validation["review_reasons"]
    validation["needs_review"] = bool(validation["review_reasons"])
    document["validation"] = validation
    return output


def _embedded_field(doc: Document, name: str, text: str, currency: str | None, location: Location | None,
                    ids) -> dict[str, Any]:
    kind = FIELD_TYPES.get(name, "string")
    normalized: Any = {"amount": text, "currency": currency} if kind == "amount" else text
    field: dict[str, Any] = {"type": kind, "value": text, "normalized": normalized, "confidence": 1.0,
                             "method": "embedded"}
    if location is not None and location.found:
        words = location.occurrences[0]
        page_index = words[0].page_index
        page = doc.pages[page_index]
        box = Box.enclosing([doc.word(r).box for r in words if r.page_index == page_index])
        field.update({"value": location.printed, "page": page.number,
                      "bbox": [round(v, 4) for v in box.normalized(page.width, page.height)],
                      "source_tokens": [ids[r] for r in words]})
    return field


def agrees(embedded: Mapping[str, Any], read: Mapping[str, Any]) -> bool:
    """Whether the model's reading is the embedded value: amounts by absolute value (credit notes print
    signs either way), dates and codes exactly, text compactly against the XML's value or its printed form
    (a name read without its legal suffix still agrees; a fragment under two thirds of it does not)."""
    kind = embedded["type"]
    mine, theirs = embedded["normalized"], read.get("normalized")
    if kind == "amount":
        try:
            return abs(Decimal(mine["amount"])) == abs(Decimal(theirs["amount"]))
        except (TypeError, KeyError, InvalidOperation):
            return False
    if kind in ("date", "currency_code"):
        return mine == theirs
    b = compact(str(theirs if theirs is not None else read.get("value", "")))
    for a in {compact(str(mine)), compact(str(embedded.get("value", "")))}:
        if kind in ("iban", "vat_id"):
            if a == b:
                return True
        elif a and b and (a in b or b in a) and min(len(a), len(b)) >= MIN_SHARE * max(len(a), len(b)):
            return True
    return False


def _shown(normalized: Any) -> str:
    if isinstance(normalized, dict):
        return " ".join(str(v) for v in (normalized.get("amount"), normalized.get("currency")) if v)
    return repr(normalized)
