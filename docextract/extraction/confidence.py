"""Field-level confidence: the probability that a field's value is right, from the model and the document.

A field's raw confidence is the mean of its words' top-tag probabilities (:mod:`docextract.extraction.entities`), a
different quantity from "the field's normalised value is right" (a word temperature cannot fix that:
benchmarks/results/calibration_eval.md). A map fitted on held-out labelled documents
(:mod:`docextract.evaluation.confidence_fit`, `docextract calibrate --fields`) turns it into that probability:

* ``platt``: ``p = sigmoid(a * logit(c) + b)`` (Platt 1999, on the logit of the confidence as in Kull et al.
  2017's beta calibration with one shared exponent); two parameters, smooth, non-decreasing (``a >= 0``).
* ``isotonic``: the non-decreasing step function with the lowest squared error on the pairs (Zadrozny & Elkan
  2002), read with linear interpolation between its points (scikit-learn's ``IsotonicRegression``).
* ``evidence``: a logistic regression over the field's evidence (:mod:`docextract.extraction.evidence`: the raw
  confidence plus what the document says: the value normalises, the arithmetic holds, a key word stands before
  it, it recurs, ...). It scores the document's fields; everything with only a raw confidence (line-item cells,
  alternatives, entities, document values) goes through its ``raw_map``, a Platt map fitted beside it.

The map lives in the model's config.json as ``docextract_field_calibration`` (:data:`FIELD_CALIBRATION_KEY`),
e.g. ``{"method": "platt", "a": 1.9, "b": 0.8}``; models without it output their raw confidences unchanged.
The map only moves the reported numbers: which entity becomes a field is still decided on raw confidences.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from docextract.modeling.model_folder import FIELD_CALIBRATION_KEY, read_setting

CONFIDENCE_EPSILON = 1e-4  # confidences are clamped to [eps, 1 - eps] before a logit and after a map
METHODS = ("evidence", "platt", "isotonic")


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
        return _clamp(_sigmoid(self.a * _logit(confidence) + self.b))

    def to_config(self) -> dict[str, Any]:
        return {"method": "platt", "a": self.a, "b": self.b}


@dataclass(frozen=True)
class IsotonicMap:
    """A non-decreasing piecewise-linear map through ``(x[i], y[i])``, constant beyond the ends."""

    x: tuple[float, ...]  # increasing confidences (scikit-learn's X_thresholds_)
    y: tuple[float, ...]  # non-decreasing probabilities there (y_thresholds_)

    def __call__(self, confidence: float) -> float:
        c = float(confidence)
        i = bisect.bisect_left(self.x, c)
        if i == 0:
            return _clamp(self.y[0])
        if i == len(self.x):
            return _clamp(self.y[-1])
        x0, x1, y0, y1 = self.x[i - 1], self.x[i], self.y[i - 1], self.y[i]
        return _clamp(y1 if x1 == x0 else y0 + (y1 - y0) * (c - x0) / (x1 - x0))

    def to_config(self) -> dict[str, Any]:
        return {"method": "isotonic", "x": list(self.x), "y": list(self.y)}


RawMap = PlattMap | IsotonicMap


@dataclass(frozen=True)
class EvidenceModel:
    """``p = sigmoid(intercept + sum(coefficient * evidence[feature]))`` over a field's evidence; called with a
    raw confidence alone (a line-item cell, an alternative, an entity), it is its ``raw_map``."""

    features: tuple[str, ...]
    coefficients: tuple[float, ...]
    intercept: float
    raw_map: RawMap

    def __call__(self, confidence: float) -> float:
        return self.raw_map(confidence)

    def field_probability(self, evidence: Mapping[str, float]) -> float:
        z = self.intercept + sum(w * float(evidence.get(name, 0.0)) for name, w in zip(self.features, self.coefficients))
        return _clamp(_sigmoid(z))

    def to_config(self) -> dict[str, Any]:
        return {"method": "evidence", "features": list(self.features), "coefficients": list(self.coefficients),
                "intercept": self.intercept, "raw_map": self.raw_map.to_config()}


FieldCalibration = PlattMap | IsotonicMap | EvidenceModel


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


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
        x, y = tuple(map(float, value["x"])), tuple(map(float, value["y"]))
        if not x or len(x) != len(y):
            raise ValueError("an isotonic map needs as many x as y, at least one")
        return IsotonicMap(x, y)
    if method == "evidence":
        features, coefficients = tuple(map(str, value["features"])), tuple(map(float, value["coefficients"]))
        if len(features) != len(coefficients):
            raise ValueError("an evidence model needs one coefficient per feature")
        raw_map = calibration_from_config(value["raw_map"])
        if not isinstance(raw_map, (PlattMap, IsotonicMap)):
            raise ValueError("an evidence model's raw_map must be a platt or isotonic map")
        return EvidenceModel(features, coefficients, float(value["intercept"]), raw_map)
    raise ValueError(f"unknown field calibration method {method!r} in the model config")


def model_field_calibration(model) -> FieldCalibration | None:
    """The field calibration in ``model``'s config, None for a model without one."""
    from docextract.errors import ModelRefusedError

    try:
        return calibration_from_config(read_setting(model, FIELD_CALIBRATION_KEY))
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ModelRefusedError(f"the model's {FIELD_CALIBRATION_KEY} is malformed: {error}") from error
