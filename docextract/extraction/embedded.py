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

The line items are the XML's rows the same way (:func:`embedded_line_items`): each cell embedded and located, the
model's row read there beside it, each disagreement a review reason (check ``line_items_match_embedded_invoice``),
and the sum check against the line total the XML states (``line_items_sum_equals_line_total``).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Mapping, Sequence

from docextract.document import Box, Document
from docextract.extraction.checks import MONEY_TOLERANCE, validate_invoice
from docextract.extraction.entities import FIELD_TYPES, LINE_ITEM_PREFIX
from docextract.extraction.locate import LINE_ITEM_CELLS, Location, compact, locate_fields, locate_line_items

CHECK_NAME = "page_matches_embedded_invoice"
LINE_ITEMS_CHECK_NAME = "line_items_match_embedded_invoice"
SUM_CHECK_NAME = "line_items_sum_equals_line_total"  # the XML's rows against the XML's own line total
MIN_SHARE = 2 / 3  # a text read from the page agrees when it holds (or is) at least this share of the value


def add_embedded_values(output: dict[str, Any], doc: Document, values: Mapping[str, Any], normalized: Mapping[str, str],
                        summary: Mapping[str, Any], line_item_amounts=()) -> dict[str, Any]:
    """``output`` (from ``build_output``) with the embedded ``values`` (typed, as ``EmbeddedInvoice.field_values``;
    ``normalized``: their strings) merged into its document's fields; a document is added when the run had
    no model. ``summary`` describes the XML (attachment, syntax, profile, type code, line items)."""
    locations = locate_fields(doc, values, line_item_amounts)
    ids = doc.token_ids()
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
    rows_check, row_disagreements = None, []
    if summary.get("line_items"):  # the XML's rows replace the model's, which stay beside them
        rows, extra, rows_check, row_disagreements = embedded_line_items(
            doc, summary["line_items"], document["line_items"], currency, ids)
        document["line_items"] = rows
        if extra:
            document["model_only_line_items"] = extra
    validation = validate_invoice(document["fields"], document["line_items"])
    if summary.get("line_items") and summary.get("line_total") is not None:
        _sum_against_line_total(validation, document["line_items"], Decimal(summary["line_total"]))
    compared = [name for name, f in fields.items() if "model_agrees" in f]
    validation["checks"].append({"name": CHECK_NAME, "status": "fail" if disagreements else "pass" if compared else "skipped",
                                 "fields": sorted(n for n in compared if not fields[n]["model_agrees"])})
    if rows_check is not None:
        validation["checks"].append(rows_check)
    validation["review_reasons"] = disagreements + row_disagreements + validation["review_reasons"]
    validation["needs_review"] = bool(validation["review_reasons"])
    document["validation"] = validation
    return output


def embedded_line_items(doc: Document, xml_rows: Sequence[Mapping[str, Any]], model_rows: list[dict[str, Any]],
                        currency: str | None, ids) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any], list[str]]:
    """The XML's line items as the output's rows, each cell with ``"method": "embedded"`` (located on the page where it
    prints it), each row with the model's row read there under ``model`` and ``model_agrees`` (as a field's); the
    model's rows that no XML row pairs with; the check ``line_items_match_embedded_invoice``; and the review reasons
    of every disagreement. A model row pairs with the XML row whose cells it agrees with most (in order among equals);
    the rows left on both sides pair in order, so a row the model read wrongly is set beside the one the XML states
    there. Without model rows nothing is compared (the check is skipped)."""
    locations = locate_line_items(doc, [{k: _decimal_or_text(k, row.get(k)) for k in LINE_ITEM_CELLS} for row in xml_rows])
    rows = [_embedded_row(doc, index, row, location, currency, ids)
            for index, (row, location) in enumerate(zip(xml_rows, locations))]
    pairs = _pair_rows(rows, model_rows)
    reasons, disagreeing = [], []
    for row_index, model_index in pairs.items():
        row, read = rows[row_index], model_rows[model_index]
        row["model"] = read
        cells = [name for name in row["fields"] if name in read["fields"]]
        wrong = [name for name in cells if not agrees(row["fields"][name], read["fields"][name])]
        row["model_agrees"] = bool(cells) and not wrong
        if not row["model_agrees"]:
            disagreeing.append(row_index)
            shown = wrong or sorted(read["fields"])
            reasons.append(f"page disagrees with the embedded invoice: line item {row_index + 1}: " + "; ".join(
                f"{name}: page {read['fields'][name]['value']!r} vs embedded "
                f"{_shown(row['fields'][name]['normalized']) if name in row['fields'] else 'none'}" for name in shown))
    paired = set(pairs.values())
    extra = [read for index, read in enumerate(model_rows) if index not in paired]
    if extra:
        reasons.append(f"page disagrees with the embedded invoice: {len(extra)} line item(s) read on the page that "
                       "the embedded invoice does not state: " + ", ".join(
                           repr(" ".join(read["fields"][name]["value"] for name in LINE_ITEM_CELLS
                                         if name in read["fields"])[:60]) for read in extra))
    status = "skipped" if not model_rows else "fail" if disagreeing or extra else "pass"
    check = {"name": LINE_ITEMS_CHECK_NAME, "status": status, "rows": disagreeing, "model_only_rows": len(extra)}
    return rows, extra, check, reasons


def _sum_against_line_total(validation: dict[str, Any], rows: Sequence[Mapping[str, Any]], line_total: Decimal) -> None:
    """On the XML's rows, the sum check compares with the line total the XML states (LineTotalAmount: the sum of the
    line net amounts), not with the subtotal, which document-level allowances and charges move away from it (28 of
    the 119 shared e-invoices); a sub-line's amount is in its parent's. In place: the check and its reason."""
    amounts = [_money(row["fields"].get("amount")) for row in rows if "parent_line" not in row]
    observed = sum(amounts, Decimal(0)) if amounts and None not in amounts else None
    check = {"name": SUM_CHECK_NAME, "status": "skipped"} if observed is None else {
        "name": SUM_CHECK_NAME, "status": "pass" if abs(observed - line_total) <= MONEY_TOLERANCE else "fail",
        "expected": str(line_total), "observed": str(observed)}
    validation["checks"] = [check if c["name"] == "line_items_sum_equals_subtotal" else c for c in validation["checks"]]
    validation["review_reasons"] = [r for r in validation["review_reasons"]
                                    if r != "check failed: line_items_sum_equals_subtotal"]
    if check["status"] == "fail":
        validation["review_reasons"].insert(0, f"check failed: {SUM_CHECK_NAME}")


def _money(cell: Mapping[str, Any] | None) -> Decimal | None:
    try:
        return Decimal(cell["normalized"]["amount"]) if cell else None
    except (KeyError, TypeError, InvalidOperation):
        return None


def _decimal_or_text(name: str, value: Any) -> Any:
    if name == "description" or value is None:
        return value
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def _embedded_row(doc: Document, index: int, row: Mapping[str, Any], location: Mapping[str, Any], currency: str | None,
                  ids) -> dict[str, Any]:
    """One XML row as an output line item: its stated cells as embedded fields, located where the page prints them."""
    cells: dict[str, Any] = {}
    for name in LINE_ITEM_CELLS:
        text = row.get(name)
        if text is None or text == "":
            continue
        kind = FIELD_TYPES.get(f"{LINE_ITEM_PREFIX}{name}", "string")
        normalized: Any = {"amount": text, "currency": currency} if kind == "amount" else text
        cell: dict[str, Any] = {"type": kind, "value": text, "normalized": normalized, "confidence": 1.0,
                                "method": "embedded"}
        words = location.get(name)
        if words:
            page = doc.pages[words[0].page_index]
            box = Box.enclosing([doc.word(r).box for r in words if r.page_index == words[0].page_index])
            cell.update({"value": " ".join(doc.word(r).text for r in words), "page": page.number,
                         "bbox": [round(v, 4) for v in box.normalized(page.width, page.height)],
                         "source_tokens": [ids[r] for r in words]})
        cells[name] = cell
    located = [c for c in cells.values() if "page" in c]
    regions = sorted({(c["page"], tuple(c["bbox"])) for c in located})
    return {"index": index, "confidence": 1.0, "method": "embedded",
            **({"parent_line": row["parent"]} if row.get("parent") else {}),
            **({"page": min(c["page"] for c in located), "regions": [{"page": p, "bbox": list(b)} for p, b in regions]}
               if located else {}),
            "fields": cells}


def _pair_rows(rows: Sequence[Mapping[str, Any]], model_rows: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """XML row index -> the model row read there: most agreeing cells first (nearer in order among equals), then the
    rows left on both sides in order."""
    scored = []
    for i, row in enumerate(rows):
        for j, read in enumerate(model_rows):
            score = sum(agrees(row["fields"][name], read["fields"][name])
                        for name in row["fields"] if name in read["fields"])
            if score:
                scored.append((-score, abs(i - j), i, j))
    pairs: dict[int, int] = {}
    for _, _, i, j in sorted(scored):
        if i not in pairs and j not in pairs.values():
            pairs[i] = j
    left_rows = [i for i in range(len(rows)) if i not in pairs]
    left_reads = [j for j in range(len(model_rows)) if j not in pairs.values()]
    pairs.update(zip(left_rows, left_reads))
    return dict(sorted(pairs.items()))


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
    if kind == "number":  # a quantity: 5 and 5.00 are one
        try:
            return abs(Decimal(str(mine))) == abs(Decimal(str(theirs)))
        except (TypeError, InvalidOperation):
            return False
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
