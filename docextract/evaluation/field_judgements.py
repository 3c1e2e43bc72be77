"""Each true field of a labelled document, as `run` outputs it, judged right or wrong.

The document's tagged words go through `run`'s own output builder with the model's field scoring
(:class:`docextract.extraction.scoring.FieldScoring`), so the confidence and status judged are exactly the ones
`run` prints. A field is right under ``evaluate``'s field rule (:data:`docextract.evaluation.field_rules.FIELD_ACCURACY_RULE`:
the value as printed, or its typed normalised form, equals one expected value). Only the keys of the document's
``fields`` are judged; a true field the model did not output is a :class:`JudgedField` without confidence (never
accepted: it counts against the straight-through rate). With a label map (a model scored under the data's label
names), output fields are renamed into the data's names and fields the map does not name are not judged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from docextract.data.labelled import LabelledDocument
from docextract.extraction.entities import TaggedWord
from docextract.extraction.evidence import is_unnormalised
from docextract.extraction.fields import decode_document_entities
from docextract.extraction.output import build_output
from docextract.extraction.review import read_by_ocr
from docextract.extraction.scoring import FieldScoring, document_evidence
from docextract.evaluation.field_rules import printed_value_matches, typed_value_matches

GROUP_FIELD = "invoice_number"  # documents whose true invoice number is the same are one invoice (one group)


@dataclass(frozen=True)
class JudgedField:
    document: str  # the labelled document's id
    group: str  # the invoice it belongs to: a split must keep a group together (:func:`document_group`)
    key: str  # the field's name in the data
    label: str  # the model's label for it (``key`` unless a label map renames)
    correct: bool
    confidence: float | None  # as `run` prints it; None: the model output no such field
    status: str | None  # as `run` prints it
    acceptable: bool  # output and normalised: the only fields a policy may accept
    evidence: Mapping[str, float] | None = None  # the field's evidence (for fitting a confidence model)
    ocr: bool = False  # read by OCR (its page had no text layer): the review policy's OCR curves are fitted on these

    @property
    def raw_confidence(self) -> float | None:
        """The model's own confidence (its words' mean tag probability), from the evidence."""
        if self.evidence is None:
            return None
        return 1.0 / (1.0 + math.exp(-self.evidence["raw_logit"]))


def document_group(ldoc: LabelledDocument) -> str:
    """The invoice a document shows: its true invoice number when it has one (the same invoice in several files,
    profiles or renderings shares it), else the document's own id. Splits are by group, never by file."""
    numbers = sorted({"".join(v.split()).casefold() for v in ldoc.fields.get(GROUP_FIELD, ()) if v.strip()})
    return f"{GROUP_FIELD}:{'|'.join(numbers)}" if numbers else f"id:{ldoc.id}"


def judge_document(ldoc: LabelledDocument, tagged: Sequence[TaggedWord], scoring: FieldScoring,
                   label_map: Mapping[str, str] | None = None, with_evidence: bool = False) -> list[JudgedField]:
    """One :class:`JudgedField` per key of ``ldoc.fields``; ``tagged``: every word in reading order with its tag
    (as `run` tags it); ``label_map``: model label -> data label."""
    if not ldoc.fields:
        return []
    doc = ldoc.document
    output = build_output(doc, tagged, model={"labels": list(scoring.labels)}, scoring=scoring)
    document = output["documents"][0]
    locale = output["run"]["locale"]
    evidence = document_evidence(doc, document, decode_document_entities(doc, tagged, scoring.candidates)) if with_evidence else {}
    by_key = {}
    for label, field in document["fields"].items():
        if label_map is None or label in label_map:
            by_key[label if label_map is None else label_map[label]] = (label, field)
    to_model = {v: k for k, v in (label_map or {}).items()}
    group = document_group(ldoc)
    judged = []
    for key, values in ldoc.fields.items():
        label, field = by_key.get(key, (to_model.get(key, key), None))
        if field is None:
            judged.append(JudgedField(ldoc.id, group, key, label, False, None, None, False, None, read_by_ocr(doc, {})))
            continue
        # an amount is right also where its normalized value is: the sign a credit note left off and the totals'
        # arithmetic gave (docextract.extraction.checks.signed_by_the_totals)
        correct = printed_value_matches(label, field["value"], locale, values) or (
            field.get("type") == "amount" and any(typed_value_matches(field, v) for v in values))
        judged.append(JudgedField(ldoc.id, group, key, label, correct, float(field["confidence"]), field.get("status"),
                                  not is_unnormalised(field), evidence.get(label), read_by_ocr(doc, field)))
    return judged
