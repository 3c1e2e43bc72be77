"""The review policy: which fields a user can accept without looking, and which documents a person must see.

Every field of a `run` output gets ``"status": "accepted"`` or ``"status": "review"``. A field is accepted when
its confidence reaches its field's threshold and its value normalises (a date, amount, number, currency or
IBAN that does not parse is never accepted). The threshold is the point of the field's risk-coverage curve,
measured on held-out labelled documents, where the fields accepted were right at the target precision
(0.99 unless `run --precision` asks for another point of the same curve):

* a model with a fitted policy (``docextract_review_policy`` in its config.json, written by
  `docextract calibrate --fields`) carries, per field, the curve's staircase ``[threshold, precision, coverage]``
  (each point's precision above every point with a lower threshold): the threshold for a precision P is the
  lowest threshold whose accepted fields reached P. A field measured on fewer than ``min_support`` documents
  uses the curve of all fields together. A policy fitted on scans too carries a second set of curves for the
  fields read by OCR (``ocr``), fitted on those alone;
* a model with a field calibration but no policy accepts a field when its calibrated confidence is at least
  P (right if the confidences are calibrated, unmeasured otherwise);
* a model without either accepts nothing: its confidences say nothing measured about precision. A model
  finetuned from one that had them says so (``docextract_review_policy_dropped``, written by `finetune`): they were
  fitted for the weights it started from, so they were dropped until `calibrate --fields` fits them anew.

A document ``needs_review`` (for a model whose labels include every one of :data:`REQUIRED_INVOICE_FIELDS`)
when a required field is ``review`` or missing, or an arithmetic check fails; other models keep the
validation of :mod:`docextract.extraction.checks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from docextract.extraction.evidence import is_unnormalised
from docextract.modeling.model_folder import POLICY_DROPPED_KEY, REVIEW_POLICY_KEY  # noqa: F401  (named here too: where they have always been)

DEFAULT_PRECISION = 0.99  # the share of accepted fields that must be right
ACCEPTED, REVIEW = "accepted", "review"
# The fields without which an invoice cannot be booked: a document needs a person when one of them is not
# accepted. Only for models whose labels include all of them (invoice models).
REQUIRED_INVOICE_FIELDS = ("invoice_number", "invoice_date", "total", "currency", "vendor_name")
DEFAULT_MIN_SUPPORT = 30  # a field's own curve is used when it was measured on at least this many documents
UNNORMALISED_MAX_CONFIDENCE = 0.5  # a value that does not normalise is never confident

# A field read by OCR is held to a tenth of the error asked for (99.9% for 99%): held out by producer, the OCR curves'
# 99% points kept 94.4% on scans of layouts never seen (54 fields), their 99.9% points 16 of 16
# (benchmarks/results/lopo_calibration_scans_ocr_policy_deskew.json, ..._scans_deskew_p0999.json)
OCR_ERROR_SHARE = 0.1

CurvePoint = tuple[float, float, float]  # (threshold, precision of the fields accepted at it, their coverage)


@dataclass(frozen=True)
class FieldCurve:
    """One field's (or all fields') staircase of risk-coverage points, ascending in threshold and precision."""

    support: int  # documents with the field in the data it was measured on
    points: tuple[CurvePoint, ...]

    def threshold(self, precision: float) -> float | None:
        """The lowest threshold whose accepted fields were right at ``precision`` (None: no point reached it)."""
        for threshold, reached, _ in self.points:
            if reached >= precision:
                return threshold
        return None

    def to_config(self) -> dict[str, Any]:
        return {"support": self.support, "curve": [list(p) for p in self.points]}

    @staticmethod
    def from_config(value: Mapping[str, Any]) -> FieldCurve:
        points = tuple((float(t), float(p), float(c)) for t, p, c in value["curve"])
        return FieldCurve(int(value["support"]), points)


@dataclass(frozen=True)
class ReviewPolicy:
    """Per-field risk-coverage staircases fitted on held-out documents, and the precision they were fitted for."""

    precision: float  # the default target (`run` without --precision)
    fields: Mapping[str, FieldCurve]
    pooled: FieldCurve  # every field together: for fields measured too rarely, or not at all
    min_support: int = DEFAULT_MIN_SUPPORT
    fitted_on: Mapping[str, Any] | None = None  # what the data was (documents, fields), for the record
    # the curves of fields read by OCR, fitted on those alone: a scan's fields are wrong more often at the same
    # confidence, and one threshold for both would accept the scans' errors or little of the text layer's fields
    ocr: ReviewPolicy | None = None

    def reading_threshold(self, label: str, precision: float | None = None, ocr: bool = False) -> float | None:
        """``label``'s threshold for a field read from a text layer, or by OCR (``ocr``): the OCR curves' point at a
        tenth of the error asked for (:data:`OCR_ERROR_SHARE`)."""
        if ocr and self.ocr is not None:
            target = self.precision if precision is None else precision
            return self.ocr.threshold(label, 1.0 - (1.0 - target) * OCR_ERROR_SHARE)
        return self.threshold(label, precision)

    def curve(self, label: str) -> FieldCurve:
        own = self.fields.get(label)
        return own if own is not None and own.support >= self.min_support else self.pooled

    def threshold(self, label: str, precision: float | None = None) -> float | None:
        return self.curve(label).threshold(self.precision if precision is None else precision)

    def to_config(self) -> dict[str, Any]:
        return {"precision": self.precision, "min_support": self.min_support,
                "fields": {k: v.to_config() for k, v in sorted(self.fields.items())},
                "pooled": self.pooled.to_config(), **({"fitted_on": dict(self.fitted_on)} if self.fitted_on else {}),
                **({"ocr": self.ocr.to_config()} if self.ocr is not None else {})}

    @staticmethod
    def from_config(value: Mapping[str, Any] | None) -> ReviewPolicy | None:
        if not value:
            return None
        return ReviewPolicy(
            precision=float(value["precision"]), min_support=int(value.get("min_support", DEFAULT_MIN_SUPPORT)),
            fields={str(k): FieldCurve.from_config(v) for k, v in value["fields"].items()},
            pooled=FieldCurve.from_config(value["pooled"]), fitted_on=value.get("fitted_on"),
            ocr=ReviewPolicy.from_config(value.get("ocr")))


def read_by_ocr(doc, field: Mapping[str, Any]) -> bool:
    """Whether an output field was read by OCR: the page it stands on (any page, when it names none) was."""
    page = field.get("page")
    pages = [doc.pages[page - 1]] if isinstance(page, int) and 0 < page <= len(doc.pages) else doc.pages
    return any(p.text_source == "ocr" for p in pages)


def field_status(field: Mapping[str, Any], threshold: float | None) -> str:
    """``accepted`` when the field's (rounded, as printed) confidence reaches ``threshold`` and its value normalises."""
    if threshold is None or is_unnormalised(field):
        return REVIEW
    return ACCEPTED if float(field["confidence"]) >= threshold else REVIEW


def required_fields(labels: Iterable[str]) -> tuple[str, ...]:
    """:data:`REQUIRED_INVOICE_FIELDS` for a model whose labels include all of them, else none."""
    return REQUIRED_INVOICE_FIELDS if set(REQUIRED_INVOICE_FIELDS) <= set(labels) else ()


def review_validation(validation: Mapping[str, Any], fields: Mapping[str, Mapping[str, Any]],
                      required: Iterable[str]) -> dict[str, Any]:
    """The document's ``validation`` with ``needs_review`` decided by its required fields' statuses and its checks:
    a failed check, a required field to review, or a required field missing (a currency printed with the total
    counts as present) each add a reason."""
    reasons = [f"check failed: {c['name']}" for c in validation.get("checks", []) if c.get("status") == "fail"]
    for label in required:
        field = fields.get(label)
        if field is None:
            if label == "currency" and _currency_of_amounts(fields):
                continue
            reasons.append(f"missing: {label}")
        elif field.get("status") != ACCEPTED:
            reasons.append(f"review: {label}")
    return {**validation, "needs_review": bool(reasons), "review_reasons": reasons}


def _currency_of_amounts(fields: Mapping[str, Mapping[str, Any]]) -> str | None:
    for key in ("total", "amount_due", "subtotal"):
        normalized = (fields.get(key) or {}).get("normalized")
        if isinstance(normalized, dict) and normalized.get("currency"):
            return normalized["currency"]
    return None
