"""Judging `docextract run` output against known true field values, and how well its confidences are calibrated.

Used by benchmarks/invoice_eval.py on synthetic invoices, whose labels.jsonl lines carry the true
normalised ``fields`` (ISO dates, decimal-string amounts, ISO 4217 currency, compact IBAN and VAT id,
addresses as their lines joined with ", "). A field is right when the output's ``normalized`` value
equals the truth under the rule of its type (:data:`docextract.evaluation.field_rules.COMPARISON_RULES`); a missing field is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from docextract.evaluation.field_rules import typed_value_matches

CALIBRATION_BINS = 10  # equal-width confidence bins over [0, 1]

def output_fields(output: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The document-level fields of one `run` output (first document), with the currency filled in from
    the total's money value when no currency word was extracted (that is where a glued ``$`` ends up)."""
    documents = output.get("documents") or []
    fields = dict(documents[0]["fields"]) if documents else {}
    if "currency" not in fields:
        for key in ("total", "amount_due", "subtotal"):
            money = (fields.get(key) or {}).get("normalized")
            if isinstance(money, dict) and money.get("currency"):
                fields["currency"] = {"type": "currency_code", "normalized": money["currency"],
                                      "confidence": fields[key]["confidence"], "derived_from": key}
                break
    return fields


@dataclass(frozen=True)
class FieldJudgement:
    key: str
    correct: bool
    confidence: float | None  # None when the field was not extracted
    in_truth: bool  # False: extracted though the document has no such field (always wrong)


def judge_output(output: Mapping[str, Any], truth: Mapping[str, Sequence[str]]) -> list[FieldJudgement]:
    """One judgement per true field (extracted or not) and per extracted field the truth lacks."""
    fields = output_fields(output)
    judgements = []
    for key, values in sorted(truth.items()):
        field = fields.get(key)
        correct = any(typed_value_matches(field, v) for v in values)
        judgements.append(FieldJudgement(key, correct, None if field is None else float(field["confidence"]), True))
    for key, field in sorted(fields.items()):
        if key not in truth:
            judgements.append(FieldJudgement(key, False, float(field["confidence"]), False))
    return judgements


def reliability_table(pairs: Iterable[tuple[float, bool]], bins: int = CALIBRATION_BINS) -> list[dict[str, Any]]:
    """Per equal-width confidence bin: its range, count, mean confidence and accuracy (None when empty)."""
    counts, confidence_sums, correct_sums = [0] * bins, [0.0] * bins, [0] * bins
    for confidence, correct in pairs:
        b = min(int(confidence * bins), bins - 1)  # confidence 1.0 belongs to the last bin
        counts[b] += 1
        confidence_sums[b] += confidence
        correct_sums[b] += bool(correct)
    return [{"low": b / bins, "high": (b + 1) / bins, "count": counts[b],
             "mean_confidence": confidence_sums[b] / counts[b] if counts[b] else None,
             "accuracy": correct_sums[b] / counts[b] if counts[b] else None} for b in range(bins)]


def expected_calibration_error(table: Sequence[Mapping[str, Any]]) -> float | None:
    """ECE: the count-weighted mean of |accuracy - mean confidence| over the bins (None without data)."""
    total = sum(row["count"] for row in table)
    if not total:
        return None
    return sum(row["count"] / total * abs(row["accuracy"] - row["mean_confidence"]) for row in table if row["count"])
