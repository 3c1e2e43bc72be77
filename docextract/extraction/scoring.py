"""A model's field scoring, applied to one document of a `run` output: confidence, status and needs_review.

:class:`FieldScoring` gathers what a model's config.json says about its fields: the field calibration
(:mod:`docextract.extraction.confidence`; an ``evidence`` model scores each field from the document's evidence,
:mod:`docextract.extraction.evidence`) and the review policy (:mod:`docextract.extraction.review`). `run`
builds it once per model and applies it to every document after the fields are decoded; `evaluate` and
`calibrate` apply the same object, so what they measure is what `run` prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from docextract.document import Document, WordRef
from docextract.errors import ModelRefusedError
from docextract.extraction.candidate_scorer import CandidateScorer
from docextract.extraction.checks import validate_invoice
from docextract.extraction.confidence import EvidenceModel, FieldCalibration, model_field_calibration
from docextract.extraction.doctype import document_type, model_document_types
from docextract.extraction.entities import LINE_ITEM_PREFIX, Entity
from docextract.extraction.identifiers import INVALID_IDENTIFIER_MAX_CONFIDENCE
from docextract.extraction.key_context import line_of
from docextract.extraction.evidence import DocumentIndex, field_evidence, is_unnormalised
from docextract.extraction.review import (
    DEFAULT_PRECISION,
    REVIEW,
    UNNORMALISED_MAX_CONFIDENCE,
    ReviewPolicy,
    field_status,
    read_by_ocr,
    required_fields,
    review_validation,
)
from docextract.modeling.model_folder import POLICY_DROPPED_KEY, REVIEW_POLICY_KEY, SCORER_KEY, model_labels, read_setting

POLICY_SOURCES = {
    "fitted": "per-field thresholds measured on held-out labelled documents (docextract_review_policy)",
    "calibrated_confidence": "no fitted policy: a field is accepted when its calibrated confidence reaches the precision",
    "none": "no field calibration and no policy: nothing is accepted without review",
    "dropped": "finetuning dropped the policy and calibration fitted for the weights it started from: nothing is "
               "accepted without review until `docextract calibrate MODEL HELD_OUT.jsonl --fields` fits them anew",
}


# A number read by OCR that a digit group follows closely on its line may be cut short: Tesseract splits long numbers
# on coarse scans ("INV-08-447 1902" for "INV-08-4471902", accepted at 0.99 on a vendor page's 150-dpi scan) and the
# gap it leaves is as wide as a real space (0.2-0.5 of the word's height against 0.22 and up, README "Stop 66"), so
# the value is never joined, only sent to review.
SPLIT_NUMBER_LABELS = ("invoice_number", "purchase_order")
# The fields a self-billed invoice's sides decide: its letterhead, legal line and bank details are the buyer's
SELF_BILLED_REVIEW_FIELDS = frozenset({"vendor_name", "vendor_address", "vendor_tax_id", "iban", "customer_name",
                                       "billing_address"})
SPLIT_GAP_OF_HEIGHT = 1.0


def maybe_cut_by_ocr(doc: Document, words: Sequence[WordRef]) -> bool:
    """Whether OCR'd ``words`` are followed on their line, within :data:`SPLIT_GAP_OF_HEIGHT` of their height, by a
    word that starts with a digit: the rest of the number, or a second group of one printed in groups."""
    if not words or doc.pages[words[-1].page_index].text_source != "ocr":
        return False
    line = line_of(doc, words[-1])
    if line is None:
        return False
    at = line.word_indices.index(words[-1].word_index)
    if at + 1 >= len(line.word_indices):
        return False
    last, after = doc.word(words[-1]), doc.pages[words[-1].page_index].words[line.word_indices[at + 1]]
    return after.text[:1].isdigit() and after.box.x0 - last.box.x1 <= SPLIT_GAP_OF_HEIGHT * last.box.height


def _field_words(doc: Document, field: Mapping[str, Any]) -> tuple[WordRef, ...]:
    """The words of an output field (its ``source_tokens``)."""
    words = {token: ref for ref, token in doc.token_ids().items()}
    return tuple(words[token] for token in field.get("source_tokens", ()))


@dataclass(frozen=True)
class FieldScoring:
    calibration: FieldCalibration | None
    policy: ReviewPolicy | None
    labels: tuple[str, ...]  # the model's entity labels
    precision: float | None = None  # None: the policy's own target (else DEFAULT_PRECISION)
    # picks the one-value fields among the page's typed values (docextract.extraction.candidate_scorer); None: the
    # tagger's entities and the key rules decide
    candidates: CandidateScorer | None = None
    dropped: bool = False  # finetuning dropped a policy fitted for other weights (POLICY_DROPPED_KEY)

    @staticmethod
    def from_model(model, precision: float | None = None) -> FieldScoring:
        """The scoring in ``model``'s config (a malformed one refuses the model, exit 6)."""
        try:
            policy = ReviewPolicy.from_config(read_setting(model, REVIEW_POLICY_KEY))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ModelRefusedError(f"the model's {REVIEW_POLICY_KEY} is malformed: {error}") from error
        try:
            candidates = CandidateScorer.from_config(read_setting(model, SCORER_KEY))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ModelRefusedError(f"the model's {SCORER_KEY} is malformed: {error}") from error
        labels = model_labels(model)
        dropped = bool(read_setting(model, POLICY_DROPPED_KEY))
        return FieldScoring(model_field_calibration(model), policy, labels, precision, candidates, dropped)

    @property
    def target(self) -> float:
        if self.precision is not None:
            return self.precision
        return self.policy.precision if self.policy is not None else DEFAULT_PRECISION

    @property
    def source(self) -> str:
        if self.policy is not None:
            return "fitted"
        if self.calibration is not None:
            return "calibrated_confidence"
        return "dropped" if self.dropped else "none"

    def threshold(self, label: str, ocr: bool = False) -> float | None:
        """``label``'s threshold for a field read from a text layer, or by OCR (``ocr``)."""
        if self.policy is not None:
            return self.policy.reading_threshold(label, self.target, ocr)
        return self.target if self.calibration is not None else None

    def describe(self) -> dict[str, Any]:
        """``run.model.review``: the precision, where the thresholds come from, each field's threshold."""
        field_labels = [label for label in self.labels if not label.startswith(LINE_ITEM_PREFIX)]
        return {"precision": self.target, "source": self.source,
                "thresholds": {label: self.threshold(label) for label in field_labels},
                **({"thresholds_ocr": {label: self.threshold(label, ocr=True) for label in field_labels}}
                   if self.policy is not None and self.policy.ocr is not None else {}),
                "required": list(required_fields(self.labels))}

    def apply(self, doc: Document, document: dict[str, Any], entities: Sequence[Entity]) -> None:
        """Score ``document`` (one entry of the output's ``documents``) in place: each field's confidence (from
        its evidence for an evidence model; capped for a value that does not normalise) and ``status``; then
        ``needs_review`` by the required fields (models with invoice labels). A model made for some document types
        (:func:`docextract.extraction.doctype.model_document_types`) gets the document's ``document_type``; on a
        document of another type no field is accepted and the document needs review, with the type as its reason."""
        fields = document["fields"]
        before = {label: field["confidence"] for label, field in fields.items()}
        if isinstance(self.calibration, EvidenceModel):
            for label, evidence in document_evidence(doc, document, entities).items():
                fields[label]["confidence"] = round(self.calibration.field_probability(evidence), 4)
        for label, field in fields.items():
            if is_unnormalised(field):
                field["confidence"] = min(field["confidence"], UNNORMALISED_MAX_CONFIDENCE)
            if field.get("valid") is False:  # an identifier failing its check (the evidence model does not see it)
                field["confidence"] = min(field["confidence"], INVALID_IDENTIFIER_MAX_CONFIDENCE)
            if (label in SPLIT_NUMBER_LABELS and read_by_ocr(doc, field)
                    and maybe_cut_by_ocr(doc, _field_words(doc, field))):
                field["confidence"] = min(field["confidence"], INVALID_IDENTIFIER_MAX_CONFIDENCE)
            field["status"] = field_status(field, self.threshold(label, read_by_ocr(doc, field)))
        made_for = model_document_types(self.labels)
        kind = document_type(doc) if made_for is not None else None
        if kind is not None:
            document["document_type"] = kind.to_dict()
            if kind.type not in made_for:  # nothing the model reads on such a page is what its policy measured
                for field in fields.values():
                    field["status"] = REVIEW
            elif kind.signals.get("self_billed"):  # the buyer's letterhead, the seller addressed: sides swapped
                for label in SELF_BILLED_REVIEW_FIELDS & set(fields):
                    fields[label]["status"] = REVIEW
        required = required_fields(self.labels)
        if required:
            document["validation"] = review_validation(document["validation"], fields, required)
        elif any(fields[label]["confidence"] != c for label, c in before.items()):  # its low-confidence reasons moved
            document["validation"] = validate_invoice(fields, document["line_items"])
        if kind is not None and kind.signals.get("self_billed") and required:
            document["validation"] = _needing_review(
                document["validation"], "self-billed: issued by the buyer, the parties read from it need a person")
        if kind is not None and kind.type not in made_for:
            document["validation"] = _needing_review(
                document["validation"], f"document type: {kind.type}, not one this model reads ({', '.join(made_for)})")


def _needing_review(validation: Mapping[str, Any], reason: str) -> dict[str, Any]:
    """``validation`` with the document needing review, ``reason`` first among its reasons."""
    return {**validation, "needs_review": True, "review_reasons": [reason, *validation.get("review_reasons", [])]}


def document_evidence(doc: Document, document: Mapping[str, Any], entities: Sequence[Entity]
                      ) -> dict[str, dict[str, float]]:
    """Label -> the evidence (:func:`docextract.extraction.evidence.field_evidence`) of each of ``document``'s
    fields; ``entities``: every decoded entity of the document (the fields' candidates)."""
    index = DocumentIndex(doc)
    candidates: dict[str, list[Entity]] = {}
    for entity in entities:
        if not entity.label.startswith(LINE_ITEM_PREFIX):
            candidates.setdefault(entity.label, []).append(entity)
    fields = document["fields"]
    checks = document["validation"]["checks"]
    return {label: field_evidence(index, label, fields[label], sorted(candidates[label], key=Entity.rank),
                                  fields, checks)
            for label in fields if label in candidates}
