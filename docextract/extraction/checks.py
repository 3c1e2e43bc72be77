"""Arithmetic checks on extracted invoice fields, and the ``needs_review`` flag.

A value the model read wrongly usually breaks the invoice's own arithmetic, so the checks catch
errors without ground truth: line items must sum to the subtotal, subtotal plus tax must equal
the total. Bank and tax identifiers must pass their own checks (country format and check digits,
:mod:`docextract.extraction.identifiers`): invoice fraud changes bank details first. A failed check, or a
field the model was unsure of, sets ``needs_review``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

REVIEW_CONFIDENCE = 0.5  # fields below this confidence are flagged for a person
MONEY_TOLERANCE = Decimal("0.01")  # rounding of printed amounts


def _amount(field: dict[str, Any] | None) -> Decimal | None:
    if not field or not isinstance(field.get("normalized"), dict):
        return None
    return Decimal(field["normalized"]["amount"])


def _check(name: str, expected: Decimal | None, observed: Decimal | None) -> dict[str, Any]:
    if expected is None or observed is None:
        return {"name": name, "status": "skipped"}
    status = "pass" if abs(expected - observed) <= MONEY_TOLERANCE else "fail"
    return {"name": name, "status": status, "expected": str(expected), "observed": str(observed)}


def validate_invoice(fields: dict[str, dict[str, Any]], line_items: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``validation`` object of a document: checks, ``needs_review`` and the reasons."""
    subtotal, tax, total = _amount(fields.get("subtotal")), _amount(fields.get("total_tax")), _amount(fields.get("total"))
    item_amounts = [_amount(item["fields"].get("amount")) for item in line_items]
    items_sum = sum(item_amounts, Decimal(0)) if item_amounts and None not in item_amounts else None
    arithmetic = [
        _check("line_items_sum_equals_subtotal", subtotal, items_sum),
        _check("subtotal_plus_tax_equals_total", total, subtotal + tax if subtotal is not None and tax is not None else None),
    ]
    identifiers = [{"name": f"{name}_valid", "status": "pass" if f["valid"] else "fail"}
                   for name, f in sorted(fields.items()) if f.get("valid") is not None]
    reasons = [f"check failed: {c['name']}" for c in arithmetic if c["status"] == "fail"]
    for name, f in sorted(fields.items()):  # one reason per field, the most telling
        if f.get("valid") is False:
            reasons.append(f"invalid identifier: {name} ({f.get('invalid_reason', 'failed its check')})")
        elif f["confidence"] < REVIEW_CONFIDENCE:
            reasons.append(f"low confidence: {name}")
    reasons += [f"unparsable value: {name}" for name, f in sorted(fields.items())
                if f["normalized"] is None and f.get("valid") is not False]
    return {"checks": arithmetic + identifiers, "needs_review": bool(reasons), "review_reasons": reasons}
