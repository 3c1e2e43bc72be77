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


def signed_by_the_totals(fields: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``fields`` with the minus a credit note left off an amount: "Steuerbetrag 1,12" between "Rechnungssumme ohne
    USt. -7,67" and "Bruttosumme -8,79". Where the total is negative and the printed amounts do not add up, but do
    with the tax (or the subtotal) negated, that amount's normalized value is negative; its printed value stays
    as printed and ``normalization.sign_from`` names the check that gave the sign."""
    subtotal, tax, total = _amount(fields.get("subtotal")), _amount(fields.get("total_tax")), _amount(fields.get("total"))
    if subtotal is None or tax is None or total is None or total >= 0 or abs(subtotal + tax - total) <= MONEY_TOLERANCE:
        return fields
    for label, negated in (("total_tax", subtotal - tax), ("subtotal", tax - subtotal)):
        if _amount(fields[label]) > 0 and abs(negated - total) <= MONEY_TOLERANCE:
            field = fields[label]
            signed = {**field, "normalized": {**field["normalized"], "amount": str(-_amount(field))},
                      "normalization": {**field.get("normalization", {}), "sign_from": "subtotal_plus_tax_equals_total"}}
            return {**fields, label: signed}
    return fields


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
