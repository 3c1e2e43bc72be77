"""How much of a document set a user could accept unread: risk-coverage curves and the straight-through rate.

Accept every field whose confidence reaches a threshold: the *coverage* is the share of true fields accepted
(a field the model did not output, or whose value does not normalise, is never accepted but still counts),
the *precision* the share of accepted fields that are right. Lowering the threshold walks the risk-coverage
curve (El-Yaniv & Wiener 2010; Geifman & El-Yaniv 2017) from few, safe fields to all of them. The
*straight-through rate* at a precision P is the largest coverage whose accepted fields are right at P.

Beside the curve, :func:`confidence_report` gives how well the confidence ranks right above wrong (AUROC:
the probability that a right field is more confident than a wrong one, ties half) and how well it is
calibrated (ECE over 10 equal-width bins, as elsewhere in docextract), overall and per field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from docextract.extraction.confidence import binary_nll
from docextract.evaluation.extraction_eval import CALIBRATION_BINS, expected_calibration_error, reliability_table

PRECISION_TARGETS = (0.99, 0.95)  # the straight-through rates a report gives
CONFIDENCE_RULE = (
    "over the true fields of documents with `fields` (evaluate's field rule decides right or wrong; a field the "
    "model did not output is wrong and never accepted): accepting the fields whose confidence is at least a "
    "threshold, coverage = accepted / true fields and precision = right / accepted; a value that does not "
    "normalise is never accepted; straight-through at P = the largest coverage with precision >= P, with one "
    "threshold for all fields, and (straight_through_per_field) with each field's own threshold chosen on this set; "
    "AUROC and ECE (10 equal-width bins) over the fields output"
)


@dataclass(frozen=True)
class CurvePoint:
    threshold: float  # accept fields with a score >= threshold
    accepted: int
    correct: int  # right among the accepted
    total: int  # every field, accepted or not

    @property
    def coverage(self) -> float:
        return self.accepted / self.total if self.total else 0.0

    @property
    def precision(self) -> float:
        return self.correct / self.accepted if self.accepted else 1.0


def risk_coverage(items: Iterable[tuple[float | None, bool]]) -> list[CurvePoint]:
    """The curve of ``(score, correct)`` items (score None: never accepted), one point per distinct score,
    from the highest threshold (fewest accepted) down."""
    items = list(items)
    scored = sorted(((s, ok) for s, ok in items if s is not None), key=lambda item: -item[0])
    points: list[CurvePoint] = []
    accepted = correct = 0
    for i, (score, ok) in enumerate(scored):
        accepted += 1
        correct += bool(ok)
        if i + 1 == len(scored) or scored[i + 1][0] != score:  # equal scores are accepted together
            points.append(CurvePoint(score, accepted, correct, len(items)))
    return points


def straight_through(curve: Sequence[CurvePoint], precision: float) -> CurvePoint | None:
    """The point of largest coverage whose accepted fields are right at ``precision`` (None: no point is)."""
    reaching = [p for p in curve if p.precision >= precision]
    return max(reaching, key=lambda p: p.accepted) if reaching else None


def staircase(curve: Sequence[CurvePoint]) -> list[tuple[float, float, float]]:
    """The points no other point beats with a lower threshold and at least its precision, ascending:
    ``(threshold, precision floored to 0.001, coverage)``. The lowest threshold reaching a precision P is the first point whose
    precision is at least P (what :class:`docextract.extraction.review.FieldCurve` reads)."""
    kept: list[tuple[float, float, float]] = []
    best = -1.0
    for point in sorted(curve, key=lambda p: p.threshold):
        # precision floored to 0.001 (never rounded up past a target): a model's config keeps hundreds of points, not thousands
        precision = math.floor(point.precision * 1000 + 1e-9) / 1000
        if precision > best:
            kept.append((round(point.threshold, 4), precision, round(point.coverage, 4)))
            best = precision
    return kept


def auroc(confidences: Sequence[float], correct: Sequence[bool]) -> float | None:
    """Area under the ROC curve of confidence for right against wrong (None when all are right or all wrong)."""
    if len(set(map(bool, correct))) < 2:
        return None
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score([bool(c) for c in correct], list(confidences)))


def summary(items: Sequence[tuple[float | None, bool, bool, str | None]],
            targets: Sequence[float] = PRECISION_TARGETS, with_curve: bool = True) -> dict[str, Any]:
    """``items``: (confidence or None, correct, acceptable, status) per true field -> the figures of one set."""
    extracted = [(c, ok) for c, ok, _, _ in items if c is not None]
    curve = risk_coverage((c if acceptable else None, ok) for c, ok, acceptable, _ in items)
    table = reliability_table(extracted) if extracted else []
    result: dict[str, Any] = {
        "fields": len(items), "extracted": len(extracted), "correct": sum(ok for _, ok, _, _ in items),
        "accuracy": sum(ok for _, ok, _, _ in items) / len(items) if items else None,
        "auroc": auroc([c for c, _ in extracted], [ok for _, ok in extracted]),
        "ece": expected_calibration_error(table) if extracted else None,
        "nll": binary_nll([c for c, _ in extracted], [ok for _, ok in extracted]) if extracted else None,
        "straight_through": {f"{p:g}": _point(straight_through(curve, p), len(items)) for p in targets},
    }
    if any(status is not None for *_, status in items):  # the statuses `run` printed: the model's own policy
        accepted = [ok for _, ok, _, status in items if status == "accepted"]
        result["policy"] = {"accepted": len(accepted), "review": len(items) - len(accepted),
                            "coverage": len(accepted) / len(items) if items else 0.0,
                            "precision": sum(accepted) / len(accepted) if accepted else None}
    if with_curve:
        result["reliability"] = table
        result["curve"] = [[round(p.threshold, 4), round(p.coverage, 6), round(p.precision, 6)] for p in curve]
    return result


def _point(point: CurvePoint | None, total: int) -> dict[str, Any]:
    if point is None:
        return {"coverage": 0.0, "threshold": None, "precision": None, "accepted": 0}
    return {"coverage": point.coverage, "threshold": point.threshold, "precision": point.precision,
            "accepted": point.accepted}


def confidence_report(judged: Sequence, targets: Sequence[float] = PRECISION_TARGETS) -> dict[str, Any]:
    """Overall and per-field figures of :class:`docextract.evaluation.field_judgements.JudgedField` s: accuracy,
    AUROC, ECE, NLL, straight-through at each target, the risk-coverage curve and the reliability table; with
    ``policy`` (accepted/review counts, coverage and precision of the statuses `run` printed)."""
    def items(js) -> list[tuple[float | None, bool, bool, str | None]]:
        return [(j.confidence, j.correct, j.acceptable, j.status) for j in js]

    by_key: dict[str, list] = {}
    for j in judged:
        by_key.setdefault(j.key, []).append(j)
    per_field = {key: summary(items(js), targets) for key, js in sorted(by_key.items())}
    overall = summary(items(judged), targets)
    overall["straight_through_per_field"] = {target: _combined(per_field, target, len(judged))
                                             for target in overall["straight_through"]}
    return {"rule": CONFIDENCE_RULE, "bins": CALIBRATION_BINS, "documents": len({j.document for j in judged}),
            "overall": overall, "per_field": per_field}


def per_group_report(judged: Sequence, group_of) -> dict[str, Any]:
    """Per group (``group_of(judged field)``: a producer), the figures of :func:`summary`, among them what the review
    policy accepted of the group's true fields and how much of that was right."""
    groups: dict[str, list] = {}
    for j in judged:
        groups.setdefault(str(group_of(j)), []).append(j)
    return {name: summary([(j.confidence, j.correct, j.acceptable, j.status) for j in js])
            for name, js in sorted(groups.items())}


def _combined(per_field: Mapping[str, Mapping[str, Any]], target: str, total: int) -> dict[str, Any]:
    """Every field at its own straight-through threshold, together: what per-field thresholds chosen on this
    very set would accept (each field right at the target, so all of them too)."""
    points = [s["straight_through"][target] for s in per_field.values()]
    accepted = sum(p["accepted"] for p in points)
    correct = sum(round(p["precision"] * p["accepted"]) for p in points if p["accepted"])
    return {"coverage": accepted / total if total else 0.0, "precision": correct / accepted if accepted else None,
            "accepted": accepted}
