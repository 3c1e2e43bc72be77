"""Field-level calibration: a map from a field's raw confidence to the probability that its value is right.

A field's raw confidence is the mean of its words' top-tag probabilities (:mod:`docextract.extraction.entities`), a
different quantity from "the field's normalised value is right" (a word temperature cannot fix that:
benchmarks/results/calibration_eval.md). The map is fitted on (raw confidence, correct) pairs of held-out
labelled documents (:func:`docextract.training.calibration.field_confidence_pairs`) and applied by `docextract run`
to every field, line-item cell, entity and document value it outputs:

* ``platt`` (default): ``p = sigmoid(a * logit(c) + b)`` (Platt 1999, on the logit of the confidence as in
  Kull et al. 2017's beta calibration with one shared exponent); two parameters, smooth, and
  non-decreasing (``a >= 0`` is enforced), fitted by LBFGS on the pairs' mean negative log-likelihood.
* ``isotonic``: pool-adjacent-violators (Zadrozny & Elkan 2002), the non-decreasing step function with the
  lowest squared error (and log-loss) on the pairs, read with linear interpolation between the pooled
  blocks' (mean confidence, accuracy) points.

The map lives in the model's config.json as ``docextract_field_calibration`` (:data:`FIELD_CALIBRATION_KEY`),
e.g. ``{"method": "platt", "a": 1.9, "b": 0.8}``; models without it output their raw confidences unchanged.
The map only moves the reported numbers: which entity becomes a field is still decided on raw confidences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import torch
import torch.nn.functional as F

FIELD_CALIBRATION_KEY = "docextract_field_calibration"  # model config key written by `docextract calibrate --fields`
CONFIDENCE_EPSILON = 1e-4  # confidences are clamped to [eps, 1 - eps] before a logit and after a map
LBFGS_MAX_ITERATIONS = 200  # a 2-parameter convex problem (logistic regression on one feature)
METHODS = ("platt", "isotonic")


def _clamp(c: float) -> float:
    return min(max(float(c), CONFIDENCE_EPSILON), 1.0 - CONFIDENCE_EPSILON)


def _logit(c: float) -> float:
    c = _clamp(c)
    return math.log(c / (1.0 - c))


@dataclass(frozen=True)
class PlattMap:
    """``p = sigmoid(a * logit(c) + b)``; ``a >= 0`` so the map never reverses the order of confidences."""

    a: float
    b: float

    def __call__(self, confidence: float) -> float:
        z = self.a * _logit(confidence) + self.b
        return _clamp(1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z)))

    def to_config(self) -> dict[str, Any]:
        return {"method": "platt", "a": self.a, "b": self.b}


@dataclass(frozen=True)
class IsotonicMap:
    """A non-decreasing piecewise-linear map through ``(x[i], y[i])``, constant beyond the ends."""

    x: tuple[float, ...]  # increasing pooled-block mean confidences
    y: tuple[float, ...]  # non-decreasing pooled-block accuracies

    def __call__(self, confidence: float) -> float:
        c = float(confidence)
        if c <= self.x[0]:
            return _clamp(self.y[0])
        for i in range(1, len(self.x)):
            if c <= self.x[i]:
                x0, x1, y0, y1 = self.x[i - 1], self.x[i], self.y[i - 1], self.y[i]
                return _clamp(y0 + (y1 - y0) * (c - x0) / (x1 - x0))
        return _clamp(self.y[-1])

    def to_config(self) -> dict[str, Any]:
        return {"method": "isotonic", "x": list(self.x), "y": list(self.y)}


FieldCalibration = PlattMap | IsotonicMap


def _check_pairs(confidences: Sequence[float], correct: Sequence[bool]) -> None:
    if len(confidences) != len(correct):
        raise ValueError("one correctness per confidence")
    if not confidences:
        raise ValueError("no (confidence, correct) pairs to fit a field calibration on")
    if all(correct) or not any(correct):
        raise ValueError("the pairs are all right or all wrong: a field calibration cannot be fitted on them")


def fit_platt(confidences: Sequence[float], correct: Sequence[bool]) -> PlattMap:
    """The (a, b) minimising the mean NLL of ``correct`` under ``sigmoid(a * logit(c) + b)``, with a >= 0."""
    _check_pairs(confidences, correct)
    x = torch.tensor([_logit(c) for c in confidences], dtype=torch.float64)  # (N,)
    y = torch.tensor([float(bool(v)) for v in correct], dtype=torch.float64)  # (N,)
    params = torch.tensor([1.0, 0.0], dtype=torch.float64, requires_grad=True)  # (a, b): start at the identity
    optimizer = torch.optim.LBFGS([params], lr=1.0, max_iter=LBFGS_MAX_ITERATIONS, line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        optimizer.zero_grad()
        loss = F.binary_cross_entropy_with_logits(params[0] * x + params[1], y)
        loss.backward()
        return loss

    optimizer.step(closure)
    a, b = (float(v) for v in params.detach())
    if a < 0:  # confidence predicts correctness backwards: the best non-decreasing map is the base rate
        a, b = 0.0, _logit(float(y.mean()))
    return PlattMap(a, b)


def fit_isotonic(confidences: Sequence[float], correct: Sequence[bool]) -> IsotonicMap:
    """Pool-adjacent-violators over the pairs sorted by confidence (equal confidences pooled first)."""
    _check_pairs(confidences, correct)
    groups: dict[float, list[float]] = {}  # confidence -> [sum of confidences, sum of correct, count]
    for c, ok in zip(confidences, correct):
        group = groups.setdefault(float(c), [0.0, 0.0, 0])
        group[0] += float(c)
        group[1] += float(bool(ok))
        group[2] += 1
    blocks: list[list[float]] = []  # pooled runs of groups, strictly increasing in accuracy
    for c in sorted(groups):  # equal confidences start as one block: they must get one value
        blocks.append(list(groups[c]))
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1] = [blocks[-1][0] + last[0], blocks[-1][1] + last[1], blocks[-1][2] + last[2]]
    return IsotonicMap(tuple(s / n for s, _, n in blocks), tuple(k / n for _, k, n in blocks))


def fit_field_calibration(confidences: Sequence[float], correct: Sequence[bool], method: str = "platt") -> FieldCalibration:
    if method == "platt":
        return fit_platt(confidences, correct)
    if method == "isotonic":
        return fit_isotonic(confidences, correct)
    raise ValueError(f"unknown field calibration method {method!r} (one of {', '.join(METHODS)})")


def binary_nll(confidences: Sequence[float], correct: Sequence[bool]) -> float:
    """Mean negative log-likelihood (nats per field) of ``correct`` under the (clamped) ``confidences``."""
    total = 0.0
    for c, ok in zip(confidences, correct):
        c = _clamp(c)
        total -= math.log(c if ok else 1.0 - c)
    return total / len(confidences)


def calibration_from_config(value: Mapping[str, Any] | None) -> FieldCalibration | None:
    """The map stored in a model config (``docextract_field_calibration``); None when absent."""
    if not value:
        return None
    method = value.get("method")
    if method == "platt":
        return PlattMap(float(value["a"]), float(value["b"]))
    if method == "isotonic":
        return IsotonicMap(tuple(map(float, value["x"])), tuple(map(float, value["y"])))
    raise ValueError(f"unknown field calibration method {method!r} in the model config")


def model_field_calibration(model) -> FieldCalibration | None:
    """The field calibration in ``model``'s config, None for a model without one."""
    from docextract.errors import ModelRefusedError

    try:
        return calibration_from_config(getattr(model.config, FIELD_CALIBRATION_KEY, None))
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ModelRefusedError(f"the model's {FIELD_CALIBRATION_KEY} is malformed: {error}") from error
