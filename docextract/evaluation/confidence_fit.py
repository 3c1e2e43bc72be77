"""Fitting field confidence and the review policy on held-out labelled documents, with scikit-learn.

* ``platt``: logistic regression of right/wrong on the logit of the raw confidence (unpenalised; a slope
  below 0 would reverse the order of confidences, so the base rate is used instead);
* ``isotonic``: ``IsotonicRegression`` of right/wrong on the raw confidence;
* ``evidence``: L2-regularised logistic regression on the field's evidence
  (:data:`docextract.extraction.evidence.FEATURES`), standardised for the fit and folded back into plain
  coefficients, with a Platt map beside it for what has only a raw confidence.

:func:`fit_field_confidence` fits a method and the review policy in one go. The policy's risk-coverage curves
must come from confidences the fit did not see, so they are cross-fitted: the documents are split into
folds by invoice (:func:`docextract.evaluation.field_judgements.document_group`, never by file: the same
invoice in two files would leak), each fold is scored by a model fitted on the others, and the curves of
those out-of-fold confidences give the thresholds. The shipped calibration is then fitted on all documents.
The out-of-fold figures are the report's honest "after".
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from docextract.extraction.confidence import EvidenceModel, FieldCalibration, IsotonicMap, PlattMap
from docextract.extraction.evidence import FEATURES, logit
from docextract.extraction.review import (
    DEFAULT_MIN_SUPPORT, DEFAULT_PRECISION, UNNORMALISED_MAX_CONFIDENCE, FieldCurve, ReviewPolicy,
)
from docextract.evaluation.risk_coverage import PRECISION_TARGETS, CurvePoint, risk_coverage, staircase, summary

DEFAULT_FOLDS = 5
EVIDENCE_C = 1.0  # inverse L2 strength on standardised evidence: a few hundred fields pin ~18 weights down only loosely
UNPENALISED_C = 1e6  # Platt's two parameters need no penalty
SHRINK_STRENGTH = 30.0  # a field's precision is drawn toward all fields' as if this many more were accepted (see shrunk)


def _check_pairs(n: int, correct: Sequence[bool]) -> None:
    if n != len(correct):
        raise ValueError("one correctness per confidence")
    if not n:
        raise ValueError("no (confidence, correct) pairs to fit a field calibration on")
    if all(correct) or not any(correct):
        raise ValueError("the pairs are all right or all wrong: a field calibration cannot be fitted on them")


def fit_platt(confidences: Sequence[float], correct: Sequence[bool]) -> PlattMap:
    """``sigmoid(a * logit(c) + b)`` by maximum likelihood, with ``a >= 0`` (else the base rate: ``a = 0``)."""
    from sklearn.linear_model import LogisticRegression

    _check_pairs(len(confidences), correct)
    x = [[logit(c)] for c in confidences]
    y = [int(bool(v)) for v in correct]
    fitted = LogisticRegression(C=UNPENALISED_C, max_iter=1000).fit(x, y)
    a, b = float(fitted.coef_[0][0]), float(fitted.intercept_[0])
    if a < 0:  # confidence predicts correctness backwards: the best non-decreasing map is the base rate
        rate = sum(y) / len(y)
        a, b = 0.0, math.log(rate / (1.0 - rate))
    return PlattMap(a, b)


def fit_isotonic(confidences: Sequence[float], correct: Sequence[bool]) -> IsotonicMap:
    """The non-decreasing least-squares map (equal confidences share one value), read by linear interpolation."""
    from sklearn.isotonic import IsotonicRegression

    _check_pairs(len(confidences), correct)
    fitted = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(
        [float(c) for c in confidences], [float(bool(v)) for v in correct])
    return IsotonicMap(tuple(map(float, fitted.X_thresholds_)), tuple(map(float, fitted.y_thresholds_)))


def fit_evidence(evidence: Sequence[Mapping[str, float]], correct: Sequence[bool], c: float = EVIDENCE_C) -> EvidenceModel:
    """Logistic regression on the :data:`FEATURES` of each field's evidence; its ``raw_map`` is a Platt map of
    the raw confidences (``raw_logit``) of the same fields."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    _check_pairs(len(evidence), correct)
    x = np.array([[float(row.get(name, 0.0)) for name in FEATURES] for row in evidence])  # (N, F)
    y = np.array([int(bool(v)) for v in correct])  # (N,)
    scaler = StandardScaler().fit(x)
    fitted = LogisticRegression(C=c, max_iter=5000).fit(scaler.transform(x), y)
    weights = fitted.coef_[0] / scaler.scale_  # w . (x - mean) / scale + b  ==  (w / scale) . x + b'
    intercept = float(fitted.intercept_[0] - np.sum(fitted.coef_[0] * scaler.mean_ / scaler.scale_))
    raw = [1.0 / (1.0 + math.exp(-row["raw_logit"])) for row in evidence]
    return EvidenceModel(FEATURES, tuple(round(float(w), 6) for w in weights), round(intercept, 6), fit_platt(raw, correct))


def fit_calibration(method: str, judged: Sequence) -> FieldCalibration:
    """``method`` fitted on judged fields that were output (and carry their evidence)."""
    extracted = [j for j in judged if j.evidence is not None]
    correct = [j.correct for j in extracted]
    if method == "evidence":
        return fit_evidence([j.evidence for j in extracted], correct)
    raw = [j.raw_confidence for j in extracted]
    if method == "platt":
        return fit_platt(raw, correct)
    if method == "isotonic":
        return fit_isotonic(raw, correct)
    raise ValueError(f"unknown field calibration method {method!r}")


def printed_confidence(calibration: FieldCalibration, judged) -> float:
    """The confidence `run` would print for a judged field under ``calibration`` (rounded, capped when the value
    does not normalise)."""
    if isinstance(calibration, EvidenceModel):
        p = calibration.field_probability(judged.evidence)
    else:
        p = calibration(judged.raw_confidence)
    p = round(p, 4)
    return p if judged.acceptable else min(p, UNNORMALISED_MAX_CONFIDENCE)


def cross_fitted(method: str, judged: Sequence, folds: int = DEFAULT_FOLDS) -> tuple[list[float | None], int]:
    """Each output field's confidence from a ``method`` fitted on the other folds (split by group), None for a field
    not output; and the number of folds used. Fewer folds are used when some fold's other folds hold only right
    (or only wrong) fields, which nothing can be fitted on; 1: no split works, the scores are in-sample."""
    for k in range(min(folds, len({j.group for j in judged})), 1, -1):
        splits = _group_folds(judged, k)
        if all(_fittable([judged[i] for i in train]) for train, _ in splits):
            scores: list[float | None] = [None] * len(judged)
            for train, test in splits:
                calibration = fit_calibration(method, [judged[i] for i in train])
                for i in test:
                    if judged[i].evidence is not None:
                        scores[i] = printed_confidence(calibration, judged[i])
            return scores, k
    calibration = fit_calibration(method, judged)
    return [printed_confidence(calibration, j) if j.evidence is not None else None for j in judged], 1


def _group_folds(judged: Sequence, k: int) -> list[tuple[list[int], list[int]]]:
    from sklearn.model_selection import GroupKFold

    indices = list(range(len(judged)))
    return [(list(train), list(test))
            for train, test in GroupKFold(n_splits=k).split(indices, groups=[j.group for j in judged])]


def _fittable(judged: Sequence) -> bool:
    outcomes = {j.correct for j in judged if j.evidence is not None}
    return outcomes == {True, False}


def fit_policy(judged: Sequence, scores: Sequence[float | None], precision: float,
               min_support: int = DEFAULT_MIN_SUPPORT, fitted_on: Mapping[str, Any] | None = None) -> ReviewPolicy:
    """Per model label, the staircase of the risk-coverage curve of ``scores`` (a field not output or not
    normalised is never accepted), and the same over all fields."""
    per_label: dict[str, list[tuple[float | None, bool]]] = {}
    for j, score in zip(judged, scores):
        per_label.setdefault(j.label, []).append((score if j.acceptable else None, j.correct))
    pooled = [item for items in per_label.values() for item in items]
    pooled_curve = risk_coverage(pooled)
    return ReviewPolicy(
        precision=precision, min_support=min_support,
        fields={label: FieldCurve(len(items), tuple(staircase(shrunk(risk_coverage(items), pooled_curve))))
                for label, items in per_label.items()},
        pooled=FieldCurve(len(pooled), tuple(staircase(pooled_curve))), fitted_on=fitted_on)


MIN_OCR_FIELDS = 100  # fields read by OCR that a policy needs before it fits their own curves


def fit_reading_policy(judged: Sequence, scores: Sequence[float | None], precision: float, min_support: int,
                       fitted_on: Mapping[str, Any]) -> ReviewPolicy:
    """:func:`fit_policy` on the fields read from a text layer, with the curves of the fields read by OCR fitted on
    those alone (``ocr``) when there are at least :data:`MIN_OCR_FIELDS` of them; without them, one policy for all."""
    ocr = [i for i, j in enumerate(judged) if getattr(j, "ocr", False)]
    if len(ocr) < MIN_OCR_FIELDS:
        return fit_policy(judged, scores, precision, min_support, fitted_on)
    text = [i for i, j in enumerate(judged) if not getattr(j, "ocr", False)]
    read_by_ocr = fit_policy([judged[i] for i in ocr], [scores[i] for i in ocr], precision, min_support,
                             {**fitted_on, "fields_read_by_ocr": len(ocr)})
    policy = fit_policy([judged[i] for i in text], [scores[i] for i in text], precision, min_support, fitted_on)
    return replace(policy, ocr=read_by_ocr)


def shrunk(curve: Sequence[CurvePoint], pooled: Sequence[CurvePoint], strength: float = SHRINK_STRENGTH
           ) -> list[CurvePoint]:
    """A field's curve with each point's precision drawn toward all fields' precision at that threshold, as if
    ``strength`` more fields had been accepted there at the pooled rate: (right + strength x pooled) / (accepted +
    strength). A field's own curve rests on a few dozen validation documents, where no error among 16 accepted
    addresses let the policy accept an OCR-garbled one at 0.979; the pooled rate is measured on every field."""
    if not pooled:
        return list(curve)
    ordered = sorted(pooled, key=lambda p: -p.threshold)  # from the highest threshold down, as risk_coverage
    out = []
    for point in curve:
        at = next((p for p in reversed(ordered) if p.threshold >= point.threshold), ordered[0])  # the pooled point accepting the same scores
        precision = (point.correct + strength * at.precision) / (point.accepted + strength)
        out.append(CurvePoint(point.threshold, point.accepted, precision * point.accepted, point.total))
    return out


def fit_field_confidence(judged: Sequence, method: str = "evidence", precision: float = DEFAULT_PRECISION,
                         folds: int = DEFAULT_FOLDS, min_support: int = DEFAULT_MIN_SUPPORT,
                         ) -> tuple[FieldCalibration, ReviewPolicy, dict[str, Any]]:
    """The calibration (fitted on every output field of ``judged``), the review policy (from cross-fitted
    confidences) and a report: the model's current figures ("before") against the cross-fitted ones ("after")."""
    extracted = [j for j in judged if j.evidence is not None]
    _check_pairs(len(extracted), [j.correct for j in extracted])
    calibration = fit_calibration(method, judged)
    scores, used_folds = cross_fitted(method, judged, folds)
    documents, groups = len({j.document for j in judged}), len({j.group for j in judged})
    policy = fit_reading_policy(judged, scores, precision, min_support,
                                {"documents": documents, "invoices": groups, "fields": len(judged), "folds": used_folds})
    before = summary([(j.confidence, j.correct, j.acceptable, None) for j in judged], with_curve=False)
    after = summary([(s, j.correct, j.acceptable, None) for j, s in zip(judged, scores)], with_curve=False)
    report = {
        "method": method, "documents": documents, "invoices": groups, "fields": len(judged),
        "extracted": len(extracted), "fields_correct": sum(j.correct for j in judged), "folds": used_folds,
        "before": before, "after": after, "calibration": calibration.to_config(),
        "thresholds_at": {f"{p:g}": {label: policy.threshold(label, p) for label in sorted(policy.fields)}
                          for p in sorted({precision, *PRECISION_TARGETS}, reverse=True)},
        **({"thresholds_read_by_ocr_at": {f"{p:g}": {label: policy.reading_threshold(label, p, ocr=True)
                                                     for label in sorted(policy.ocr.fields)}
                                          for p in sorted({precision, *PRECISION_TARGETS}, reverse=True)}}
           if policy.ocr is not None else {}),
        "review_policy": policy.to_config(),
    }
    return calibration, policy, report


def held_out_group_report(judged: Sequence, method: str = "evidence", precision: float = DEFAULT_PRECISION,
                          min_support: int = DEFAULT_MIN_SUPPORT, part: Callable[[Any], str] | None = None
                          ) -> dict[str, dict[str, Any]]:
    """For each group of ``judged`` (a producer of the leave-one-producer-out yardstick), what a calibration and
    review policy fitted on the *other* groups alone do on it: the share of its true fields accepted at
    ``precision`` and how many of those were right. The thresholds never saw the group, as they never see the
    producers users bring. Groups whose others cannot be fitted (all right or all wrong) are left out. ``part``
    names a part of each field (its document read by OCR or not): the same counts per part, under ``parts``."""
    report = {}
    for group in sorted({j.group for j in judged}):
        train = [j for j in judged if j.group != group]
        test = [j for j in judged if j.group == group]
        if not _fittable(train) or len({j.group for j in train}) < 2:
            continue
        calibration, policy, _ = fit_field_confidence(train, method, precision, len({j.group for j in train}),
                                                      min_support)
        accepted = right = 0
        wrong_by_field: dict[str, int] = {}
        parts: dict[str, dict[str, int]] = {}
        for j in test:
            counts = parts.setdefault(part(j) if part else "", {"true_fields": 0, "accepted": 0, "right": 0})
            counts["true_fields"] += 1
            threshold = policy.reading_threshold(j.label, precision, getattr(j, "ocr", False))
            if j.evidence is None or not j.acceptable or threshold is None:
                continue  # not output, not normalised, or a field no threshold reached: never accepted
            if printed_confidence(calibration, j) >= threshold:  # field_status's rule, on the printed confidence
                accepted += 1
                right += j.correct
                counts["accepted"] += 1
                counts["right"] += j.correct
                if not j.correct:
                    wrong_by_field[j.label] = wrong_by_field.get(j.label, 0) + 1
        report[group] = {"true_fields": len(test), "accepted": accepted, "right": right,
                         "coverage": accepted / len(test) if test else 0.0,
                         "precision": right / accepted if accepted else None,
                         "accepted_wrong_by_field": dict(sorted(wrong_by_field.items())), "parts": parts if part else {}}
    return report
