"""Measuring a token-classification model on labelled documents.

Entity-level precision/recall/F1 with seqeval (micro and per label; strict IOBES mode for BIESO),
over word-level tags in the pipeline's own reading order, and, for key-value data (SROIE,
Kleister), document-level field F1 and per-field accuracy: the best entity per label against the
expected values. Documents whose label set has a value policy (Kleister-NDA's, see
:mod:`docextract.extraction.values`) also get the Kleister metric under ``report["kleister"]``: F1 over
(key, value) pairs, values aggregated from every mention and normalised, compared upper-cased (and under
``report["kleister"]["true_case"]``, Kleister's auxiliary F1, with the case kept). A label map scores a model whose label names differ from the data's (the SROIE
transfer test: the invoice model's vendor_name/invoice_date/vendor_address/total against SROIE's
company/date/address/total): predicted labels are renamed into the data's names before scoring, and
predicted labels the map does not name count as O.
Documents with ``fields`` also get ``report["confidence"]``: every true field as `run` prints it (confidence and
review status through the model's field scoring), judged by the same field rule, gives the risk-coverage curve,
the straight-through rate at 99% and 95% precision, AUROC and ECE, overall and per field
(:mod:`docextract.evaluation.risk_coverage`).
Robustness modes change the test documents' reading order (global or neighbour block shuffles) or
drop 1D positions, to measure how much a model leans on the order it is given.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from seqeval.metrics import classification_report, f1_score, precision_score, recall_score
from seqeval.scheme import IOBES

from docextract.data.augment import global_block_shuffle, neighbour_block_swap
from docextract.data.labelled import LabelledDocument
from docextract.data.tagging import document_tags
from docextract.errors import UsageError
from docextract.extraction.contract_values import kleister_form
from docextract.extraction.entities import Entity, TaggedWord, decode_entities, document_locale, split_tag
from docextract.extraction.fields import decode_document_entities
from docextract.extraction.scoring import FieldScoring
from docextract.evaluation.field_rules import (
    FIELD_ACCURACY_RULE, RUN_FIELD_ACCURACY_RULE, comparable_forms, expected_forms,
)
from docextract.extraction.values import document_values, policy_for_labels, value_pairs
from docextract.modeling.inference import tag_words
from docextract.layout import analyze_layout
from docextract.modeling.model_folder import model_labels as labels_of_model

ROBUSTNESS_MODES = ("none", "global-shuffle", "neighbour-swap", "drop-1d")


@dataclass(frozen=True)
class EvalSettings:
    scheme: str = "BIO"
    max_tokens: int = 510
    stride: int = 128
    cross_pages: bool = False  # windows span pages (long-range models trained that way)
    robustness: str = "none"
    seed: int = 0  # for the shuffles
    # model label -> data label (e.g. {"vendor_name": "company"}); None scores the model's labels as they are
    label_map: Mapping[str, str] | None = None
    precision: float | None = None  # the review policy's point the statuses are judged at (None: the model's own)


def settings_for_model(model, **overrides) -> EvalSettings:
    """Settings that window and tag documents the way ``model`` was trained (its scheme, window size,
    stride and cross-page setting), as `run` reads them; ``overrides`` set robustness, seed or label_map."""
    from docextract.modeling.model_folder import model_cross_pages, model_scheme, model_stride, model_window_size

    window = model_window_size(model)
    return EvalSettings(scheme=model_scheme(model), max_tokens=window,
                        stride=model_stride(model, window), cross_pages=model_cross_pages(model), **overrides)


KLEISTER_METRIC_RULE = (
    "F1 over (key, value) pairs, micro over documents: predicted pairs from document_values (mentions "
    "normalised and merged, one value per single-valued key, at most two parties above their threshold named on "
    "the first two pages), expected pairs from the document's fields; values compared upper-cased with spaces as underscores (Kleister's "
    "F1 (UC)); a predicted key the document does not have counts as a false positive"
)
KLEISTER_TRUE_CASE_RULE = KLEISTER_METRIC_RULE.replace("upper-cased", "with their case").replace("F1 (UC)", "F1")


def parse_label_map(text: str) -> dict[str, str]:
    """``"company=vendor_name,date=invoice_date"`` (DATA=MODEL pairs) -> ``{model label: data label}``."""
    mapping: dict[str, str] = {}
    for pair in (p.strip() for p in text.split(",") if p.strip()):
        data_label, sep, model_label = (part.strip() for part in pair.partition("="))
        if not sep or not data_label or not model_label:
            raise UsageError(f"--label-map entry {pair!r} is not DATA_LABEL=MODEL_LABEL")
        if model_label in mapping:
            raise UsageError(f"--label-map names the model label {model_label!r} twice")
        mapping[model_label] = data_label
    if not mapping:
        raise UsageError("--label-map is empty: give DATA_LABEL=MODEL_LABEL pairs separated by commas")
    return mapping


def map_tag(tag: str, label_map: Mapping[str, str]) -> str:
    """``"B-vendor_name"`` -> ``"B-company"`` under ``{"vendor_name": "company"}``; unmapped labels -> ``"O"``."""
    prefix, label = split_tag(tag)
    if label is None or label not in label_map:
        return "O"
    return f"{prefix}-{label_map[label]}"


def map_tagged(tagged: Sequence[TaggedWord], label_map: Mapping[str, str] | None) -> list[TaggedWord]:
    if label_map is None:
        return list(tagged)
    return [TaggedWord(w.ref, map_tag(w.tag, label_map), w.probability) for w in tagged]


def only_annotated(tagged: Sequence[TaggedWord], label_set: Sequence[str]) -> list[TaggedWord]:
    """Predicted tags of labels the document does not annotate read as O: a partly annotated document
    (an e-invoice labels only the fields its XML states and its page prints) cannot say they are wrong."""
    annotated = set(label_set)
    return [w if w.tag == "O" or split_tag(w.tag)[1] in annotated else TaggedWord(w.ref, "O", w.probability)
            for w in tagged]


def prepare_for_model(ldoc: LabelledDocument) -> LabelledDocument:
    """The document with the pipeline's own lines, blocks and reading order (labels stay on their words)."""
    if ldoc.document.pages and all(p.has_layout for p in ldoc.document.pages):
        return ldoc
    return ldoc.with_document(analyze_layout(ldoc.document))


def perturb(ldoc: LabelledDocument, mode: str, seed: int) -> LabelledDocument:
    if mode == "global-shuffle":
        return ldoc.with_document(global_block_shuffle(ldoc.document, seed))
    if mode == "neighbour-swap":
        return ldoc.with_document(neighbour_block_swap(ldoc.document, seed))
    return ldoc


def evaluate_model(model, tokenizer, documents: Sequence[LabelledDocument], settings: EvalSettings,
                   on_document: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The metrics report (JSON-able) of ``model`` on ``documents``."""
    from docextract.pipeline import document_windows

    if settings.label_map is not None:
        model_labels = set(labels_of_model(model))
        unknown = sorted(set(settings.label_map) - model_labels)
        if unknown:
            raise UsageError(f"--label-map names labels the model does not have: {', '.join(unknown)} "
                             f"(model labels: {', '.join(sorted(model_labels))})")

    window_counts = {"windows": 0, "spanning_pages": 0}
    scoring = FieldScoring.from_model(model, settings.precision)
    judged = []

    def tagged_documents():
        from docextract.evaluation.field_judgements import judge_document

        for i, ldoc in enumerate(documents):
            ldoc = perturb(prepare_for_model(ldoc), settings.robustness, settings.seed + i)
            windows = document_windows(ldoc.document, tokenizer, max_tokens=settings.max_tokens, stride=settings.stride,
                                       cross_pages=settings.cross_pages)
            window_counts["windows"] += len(windows)
            window_counts["spanning_pages"] += sum(len(w.pages) > 1 for w in windows)
            tagged = tag_words(model, tokenizer, ldoc.document, windows, drop_1d=settings.robustness == "drop-1d")
            judged.extend(judge_document(ldoc, tagged, scoring, settings.label_map))  # fields as `run` prints them
            yield ldoc, tagged
            if on_document:
                on_document(i + 1)

    report = score_tagged(tagged_documents(), settings)
    if judged:  # how far the confidences rank and calibrate, and how much could be accepted unread
        from docextract.data.producers import producer_of
        from docextract.evaluation.risk_coverage import confidence_report, per_group_report

        report["confidence"] = {**confidence_report(judged), "review": scoring.describe()}
        producers = {ldoc.id: producer_of({"id": ldoc.id, "source": ldoc.document.source, "producer": ldoc.producer})
                     for ldoc in documents}
        if len(set(producers.values())) > 1:  # what the review policy accepted on each producer's documents
            report["confidence"]["per_producer"] = per_group_report(judged, lambda j: producers.get(j.document))
        if "fields" in report:
            _accuracy_as_run_prints(report["fields"], judged)
    # How the documents were read: window size and page crossing are the model's (see pipeline.model_windows).
    report["windows"] = {"max_tokens": settings.max_tokens, "stride": settings.stride,
                         "cross_pages": settings.cross_pages, **window_counts}
    return report


def _accuracy_as_run_prints(fields: dict[str, Any], judged) -> None:
    """The field accuracy of the report is that of the fields as `run` prints them (a value read from its key where the
    model found none, ...), the one figure ``report["confidence"]`` judges too; precision, recall and F1 stay the
    model's most confident entity per label. Before, evaluate printed both (0.5755 and 0.5468 on factur-x-kit)."""
    counts: dict[str, Counter] = {}
    for field in judged:
        counts.setdefault(field.key, Counter()).update(documents=1, correct=field.correct)
    for key, scores in fields["per_key"].items():
        if key in counts:
            scores["accuracy"] = counts[key]["correct"] / counts[key]["documents"]
    total = sum(counts.values(), Counter())
    fields["micro"]["accuracy"] = total["correct"] / total["documents"] if total["documents"] else 0.0
    fields["accuracy_rule"] = RUN_FIELD_ACCURACY_RULE


def score_tagged(pairs: Iterable[tuple[LabelledDocument, Sequence[TaggedWord]]], settings: EvalSettings) -> dict[str, Any]:
    """The metrics report of predicted tags (every word in the document's reading order) against the labels."""
    gold_sequences, predicted_sequences = [], []
    field_counts: dict[str, Counter] = {}
    kleister_counts: dict[str, Counter] = {}
    kleister_true_case_counts: dict[str, Counter] = {}  # Kleister's auxiliary metric: F1 with the case kept
    kleister_documents = 0
    for ldoc, tagged in pairs:
        tagged = only_annotated(map_tagged(tagged, settings.label_map), ldoc.label_set)
        gold_sequences.append(document_tags(ldoc, settings.scheme))
        predicted_sequences.append([t.tag for t in tagged])
        if ldoc.fields:
            _count_fields(field_counts, ldoc, tagged)
        policy = policy_for_labels(ldoc.label_set)
        if policy is not None:
            values = document_values(ldoc.document, decode_entities(tagged), policy)
            for upper, counts in ((True, kleister_counts), (False, kleister_true_case_counts)):
                expected = [(k, kleister_form(v, upper)) for k, vs in ldoc.fields.items() if k in policy
                            for v in vs if v.strip()]
                count_pairs(counts, expected, value_pairs(values, upper))
            kleister_documents += 1
    report = _entity_report(gold_sequences, predicted_sequences, settings.scheme)
    report["documents"] = len(gold_sequences)
    report["robustness"] = settings.robustness
    if settings.label_map is not None:
        report["label_map"] = dict(settings.label_map)
    if field_counts:
        report["fields"] = _field_report(field_counts)
    if kleister_documents:
        report["kleister"] = pair_report(kleister_counts, kleister_documents)
        report["kleister"]["true_case"] = pair_report(kleister_true_case_counts, kleister_documents,
                                                      KLEISTER_TRUE_CASE_RULE)
    return report


def count_pairs(counts: dict[str, Counter], expected: Sequence[tuple[str, str]],
                predicted: Sequence[tuple[str, str]]) -> None:
    """Add one document's (key, value) pairs to per-key tp/fp/fn counts (pairs as multisets)."""
    gold, guess = Counter(expected), Counter(predicted)
    for (key, _), n in (gold & guess).items():
        counts.setdefault(key, Counter())["tp"] += n
    for (key, _), n in (gold - guess).items():
        counts.setdefault(key, Counter())["fn"] += n
    for (key, _), n in (guess - gold).items():
        counts.setdefault(key, Counter())["fp"] += n


def pair_report(counts: dict[str, Counter], documents: int, rule: str = KLEISTER_METRIC_RULE) -> dict[str, Any]:
    """Kleister's metric from per-key counts: micro precision/recall/F1 and the same per key."""
    total = sum(counts.values(), Counter())

    def scores(c: Counter) -> dict[str, Any]:
        return {**_prf(c), "tp": c["tp"], "fp": c["fp"], "fn": c["fn"], "support": c["tp"] + c["fn"]}

    return {"micro": scores(total), "per_key": {k: scores(c) for k, c in sorted(counts.items())},
            "documents": documents, "rule": rule}


def _entity_report(gold: list[list[str]], predicted: list[list[str]], scheme: str) -> dict[str, Any]:
    kwargs = {"mode": "strict", "scheme": IOBES} if scheme == "BIESO" else {}
    per_label = classification_report(gold, predicted, output_dict=True, zero_division=0, **kwargs)
    return {
        "precision": float(precision_score(gold, predicted, zero_division=0, **kwargs)),
        "recall": float(recall_score(gold, predicted, zero_division=0, **kwargs)),
        "f1": float(f1_score(gold, predicted, zero_division=0, **kwargs)),
        "per_label": {
            label: {"precision": float(v["precision"]), "recall": float(v["recall"]), "f1": float(v["f1-score"]),
                    "support": int(v["support"])}
            for label, v in per_label.items() if not label.endswith(" avg")
        },
    }


def best_entity_per_label(document, tagged: Sequence[TaggedWord]) -> dict[str, tuple[float, str]]:
    """Label -> (confidence, text as words joined by spaces) of its most confident decoded entity."""
    best: dict[str, tuple[float, str]] = {}
    for entity in sorted(decode_document_entities(document, tagged), key=Entity.rank):
        if entity.label not in best:  # the label's field value, as `run` picks it
            best[entity.label] = (entity.confidence, " ".join(document.word(r).text for r in entity.words))
    return best


def _count_fields(counts: dict[str, Counter], ldoc: LabelledDocument, tagged) -> None:
    """Document-level field matching: the most confident entity per label vs the expected values."""
    locale = document_locale(ldoc.document)
    best = best_entity_per_label(ldoc.document, tagged)
    for key, expected_values in ldoc.fields.items():
        expected = expected_forms(expected_values)
        counter = counts.setdefault(key, Counter())
        predicted = comparable_forms(key, best[key][1], locale) if key in best else None
        counter["documents"] += 1
        if predicted is not None and predicted & expected:
            counter["tp"] += 1
            counter["fn"] += len(expected) - 1
            counter["correct"] += 1
        else:
            counter["fn"] += len(expected)
            counter["fp"] += predicted is not None


def _prf(c: Counter) -> dict[str, float]:
    precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 0.0
    recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def _field_report(counts: dict[str, Counter]) -> dict[str, Any]:
    total = sum(counts.values(), Counter())

    def accuracy(c: Counter) -> float:
        return c["correct"] / c["documents"] if c["documents"] else 0.0

    return {
        "micro": {**_prf(total), "accuracy": accuracy(total)},
        "per_key": {k: {**_prf(c), "accuracy": accuracy(c), "support": c["tp"] + c["fn"], "documents": c["documents"]}
                    for k, c in sorted(counts.items())},
        "accuracy_rule": FIELD_ACCURACY_RULE,
    }
