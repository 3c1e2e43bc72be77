"""CSV views of the entity JSON: one row per document (its fields' normalised values) and one row per line item."""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable

DOCUMENT_KEYS = ("source", "document_index", "needs_review")
LINE_ITEM_KEYS = ("source", "document_index", "line_item_index")


def _flat(field: dict[str, Any] | None) -> dict[str, str]:
    """A field's normalised value as CSV cells: amounts split into amount and currency."""
    if not field:
        return {}
    normalized = field.get("normalized")
    if isinstance(normalized, dict):
        return {k: "" if v is None else str(v) for k, v in normalized.items()}
    return {"": "" if normalized is None else str(normalized)}


def _cells(prefix: str, field: dict[str, Any] | None) -> dict[str, str]:
    return {(f"{prefix}.{k}" if k else prefix): v for k, v in _flat(field).items()}


def document_rows(outputs: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    rows = []
    for out in outputs:
        for doc in out["documents"]:
            row = {"source": out["source"]["path"], "document_index": str(doc["document_index"]),
                   "needs_review": str(doc["validation"]["needs_review"]).lower()}
            for name, field in sorted(doc["fields"].items()):
                row.update(_cells(name, field))
            rows.append(row)
    return rows


def line_item_rows(outputs: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    rows = []
    for out in outputs:
        for doc in out["documents"]:
            for item in doc["line_items"]:
                row = {"source": out["source"]["path"], "document_index": str(doc["document_index"]),
                       "line_item_index": str(item["index"])}
                for name, field in sorted(item["fields"].items()):
                    row.update(_cells(name, field))
                rows.append(row)
    return rows


def to_csv(rows: list[dict[str, str]], leading: tuple[str, ...]) -> str:
    """CSV text with the ``leading`` columns first and every other column sorted, so files diff cleanly."""
    columns = list(leading) + sorted({k for row in rows for k in row} - set(leading))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
