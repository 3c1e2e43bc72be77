"""When a field is right: the one module that says so, with the two rules measurement needs, named apart.

* **A printed value** (the text of a decoded entity, or of a field as `run` prints it) matches the expected values of
  a labelled document (:func:`printed_value_matches`): both NFKC-normalised, case-folded, whitespace collapsed and
  outer ``.,:;`` stripped; the prediction may also match in its typed-normalised form (ISO date, decimal amount,
  canonical IBAN). `evaluate`'s field accuracy, the field judgements `calibrate --fields` fits on, and the
  temperature's value pairs use it (:data:`FIELD_ACCURACY_RULE`, :data:`RUN_FIELD_ACCURACY_RULE`); the field
  judgements take an amount as right also where the output's normalized value matches by the typed rule below (the
  minus a credit note left off, which the totals' arithmetic gave it).
* **A typed output field** (``normalized`` of `run`'s JSON) equals a true normalised value under the rule of its
  type (:func:`typed_value_matches`, :data:`COMPARISON_RULES`): for synthetic invoices, whose truth is written
  normalised (benchmarks/invoice_eval.py through :mod:`docextract.evaluation.extraction_eval`).

Both read a value's comparison form from :func:`normalize_field`.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable, Mapping

from docextract.extraction.entities import normalize_value

FIELD_ACCURACY_RULE = (
    "share of documents that have the field whose most confident predicted entity of that label matches one "
    "expected value: both NFKC-normalised, case-folded, whitespace collapsed and outer .,:; stripped; the "
    "prediction may also match in its typed-normalised form (ISO date, decimal amount, canonical IBAN); "
    "no prediction counts as wrong"
)


RUN_FIELD_ACCURACY_RULE = (  # what `evaluate` reports as field accuracy (judged by FIELD_ACCURACY_RULE's matching)
    "share of documents that have the field whose field as `run` prints it (the most confident entity of its label, "
    "or the value read from its key on the page) matches one expected value: both NFKC-normalised, case-folded, "
    "whitespace collapsed and outer .,:; stripped; the prediction may also match in its typed-normalised form (ISO "
    "date, decimal amount, canonical IBAN); no field printed counts as wrong"
)


COMPARISON_RULES = {
    "amount": "the output's normalized.amount equals the true decimal as a number (1190.00 == 1190.0)",
    "date": "ISO date strings equal",
    "currency_code": "ISO 4217 codes equal; when the output has no currency field, the currency of its total's money value",
    "iban": "upper-case, spaces removed, equal",
    "vat_id": "upper-case, spaces removed, equal",
    "string": "NFKC, case-folded, commas read as spaces, whitespace collapsed, outer .:; stripped, equal "
              "(addresses: the truth joins lines with ', ', the output with spaces)",
}


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).upper()


def _decimal(text: Any) -> Decimal | None:
    try:
        return Decimal(str(text))
    except (InvalidOperation, ValueError):
        return None


def typed_value_matches(field: Mapping[str, Any] | None, truth: str) -> bool:
    """Whether an output field object (schemas/output.schema.json ``field``) holds the true normalised value."""
    if field is None or field.get("normalized") is None:
        return False
    kind, normalized = field.get("type", "string"), field["normalized"]
    if kind == "amount":
        predicted, expected = _decimal(normalized.get("amount")), _decimal(truth)
        return predicted is not None and predicted == expected
    if kind in ("date", "currency_code"):
        return str(normalized) == truth.strip()
    if kind in ("iban", "vat_id"):
        return _compact(str(normalized)) == _compact(truth)
    return normalize_field(str(normalized)) == normalize_field(truth)


def normalize_field(text: str) -> str:
    """Comparison form of a field value: NFKC, case-folded, commas read as spaces (a multi-line address
    is printed on lines but written as "street, city" in ground truth), whitespace collapsed, outer
    punctuation stripped."""
    text = unicodedata.normalize("NFKC", text).casefold().replace(",", " ")
    return re.sub(r"\s+", " ", text).strip(" .:;")


def comparable_forms(label: str, text: str, locale: str) -> set[str]:
    """The forms a predicted value may match an expected one in: as printed, and typed-normalised
    (ISO date, decimal amount, canonical IBAN) when the expected values are written normalised."""
    forms = {normalize_field(text)}
    _, normalized, _ = normalize_value(label, text, locale)
    if isinstance(normalized, dict):
        forms.add(normalized["amount"])
    elif normalized:
        forms.add(normalize_field(normalized))
    return forms


def expected_forms(expected_values: Iterable[str]) -> set[str]:
    return {normalize_field(v) for v in expected_values if v.strip()}


def printed_value_matches(label: str, text: str, locale: str, expected_values: Iterable[str]) -> bool:
    """Whether a printed value of ``label`` matches one of the expected values (the first rule above)."""
    return bool(comparable_forms(label, text, locale) & expected_forms(expected_values))
