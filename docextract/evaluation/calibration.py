"""Temperature scaling: one scalar T that makes a tagger's confidences mean what they say.

The model's logits are divided by T before the softmax (Guo et al. 2017, "On Calibration of Modern
Neural Networks"). T is fitted on held-out labelled documents the model did not train on by
minimising the negative log-likelihood of the gold word tags, with LBFGS on log T; the logits are
computed once. Dividing by a scalar never changes a word's most likely tag, so T only moves the
confidences, never the extracted values. T < 1 sharpens (an under-confident model), T > 1 softens.

A fitted T lives in the model's config.json as ``docextract_temperature``
(:data:`docextract.modeling.inference.TEMPERATURE_KEY`), which inference applies; models without it use 1.0.
Calibration is reported as NLL and expected calibration error (ECE, 10 equal-width bins; the same
binning as benchmarks/invoice_eval.py) at word level, and at field level on documents with ``fields``.

Fields need their own map (:mod:`docextract.extraction.confidence`, fitted here by :func:`calibrate_fields`,
`docextract calibrate --fields`, with :mod:`docextract.evaluation.confidence_fit`): a field's confidence, the mean
of its words' tag probabilities, is not the probability that its value is right, and no word temperature makes
it so. The same fit writes the review policy (:mod:`docextract.extraction.review`).
"""

from __future__ import annotations

import json
import math
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import torch
import torch.nn.functional as F

from docextract.data.labelled import LabelledDocument
from docextract.data.tagging import document_tags
from docextract.document import WordRef
from docextract.errors import InputError, OutputError
from docextract.extraction.confidence import FieldCalibration
from docextract.extraction.entities import document_locale
from docextract.extraction.review import DEFAULT_PRECISION, ReviewPolicy
from docextract.modeling.inference import model_temperature, word_logits
from docextract.modeling.batching import IGNORE_INDEX
from docextract.modeling.model_folder import (
    FIELD_CALIBRATION_KEY, POLICY_DROPPED_KEY, REVIEW_POLICY_KEY, TEMPERATURE_KEY, model_scheme, model_tags,
)
from docextract.evaluation.confidence_fit import DEFAULT_FOLDS, fit_field_confidence
from docextract.evaluation.extraction_eval import CALIBRATION_BINS, expected_calibration_error, reliability_table

LBFGS_MAX_ITERATIONS = 100  # a 1-D convex problem (in 1/T); converges in a handful of steps
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.05, 20.0  # a fit outside this range means the data cannot say


@dataclass(frozen=True)
class DocumentLogits:
    """One labelled document's word logits, in the pipeline's reading order, and its gold tag ids."""

    document: LabelledDocument  # with the pipeline's layout (what the logits were computed on)
    refs: tuple[WordRef, ...]
    logits: torch.Tensor  # (W, num_tags)
    gold: torch.Tensor  # (W,) tag ids; IGNORE_INDEX where the gold tag is not one of the model's


def collect_logits(model, tokenizer, documents: Sequence[LabelledDocument],
                   on_document: Callable[[int], None] | None = None) -> list[DocumentLogits]:
    """Every document's word logits, windowed exactly as `docextract run` windows it for this model
    (:func:`docextract.pipeline.model_windows`: its window size, stride and page crossing)."""
    from docextract.pipeline import model_windows
    from docextract.evaluation.evaluate import prepare_for_model

    scheme = model_scheme(model)
    label2id = model.config.label2id
    collected = []
    for n, ldoc in enumerate(documents, 1):
        ldoc = prepare_for_model(ldoc)
        windows = model_windows(ldoc.document, model, tokenizer)
        by_word = word_logits(model, tokenizer, ldoc.document, windows)
        refs = tuple(r for r in ldoc.document.ordered_words() if r in by_word)
        tags = dict(zip(ldoc.document.ordered_words(), document_tags(ldoc, scheme)))
        if refs:
            logits = torch.stack([by_word[r] for r in refs])  # (W, num_tags)
            gold = torch.tensor([label2id.get(tags[r], IGNORE_INDEX) for r in refs], dtype=torch.long)  # (W,)
            collected.append(DocumentLogits(ldoc, refs, logits, gold))
        if on_document:
            on_document(n)
    return collected


def stack_words(collected: Sequence[DocumentLogits]) -> tuple[torch.Tensor, torch.Tensor]:
    """All words with a gold tag the model knows: logits ``(N, num_tags)`` and gold ids ``(N,)``."""
    if not collected:
        return torch.zeros(0, 0), torch.zeros(0, dtype=torch.long)
    logits = torch.cat([c.logits for c in collected])
    gold = torch.cat([c.gold for c in collected])
    keep = gold != IGNORE_INDEX
    return logits[keep], gold[keep]


def negative_log_likelihood(logits: torch.Tensor, gold: torch.Tensor, temperature: float = 1.0) -> float:
    """Mean NLL (nats per word) of the gold tags at ``temperature``."""
    return float(F.cross_entropy(logits.double() / temperature, gold))


def fit_temperature(logits: torch.Tensor, gold: torch.Tensor) -> float:
    """The T minimising the mean NLL of ``gold`` under ``softmax(logits / T)``; ``(N, C)``, ``(N,)``."""
    if logits.shape[0] == 0:
        raise ValueError("no words with a known gold tag to fit a temperature on")
    logits = logits.detach().double()
    log_t = torch.zeros((), dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([log_t], lr=1.0, max_iter=LBFGS_MAX_ITERATIONS, line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        optimizer.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), gold)
        loss.backward()
        return loss

    optimizer.step(closure)
    return min(max(math.exp(float(log_t.detach())), MIN_TEMPERATURE), MAX_TEMPERATURE)


def calibration_error(confidences: Sequence[float], correct: Sequence[bool], bins: int = CALIBRATION_BINS) -> float | None:
    """ECE over ``bins`` equal-width confidence bins (None without data); the benchmark's own binning."""
    return expected_calibration_error(reliability_table(zip(confidences, correct), bins))


def word_calibration_error(logits: torch.Tensor, gold: torch.Tensor, temperature: float = 1.0) -> float | None:
    """ECE of the words' top-tag probability against whether the top tag is the gold one."""
    confidence, predicted = (logits.double() / temperature).softmax(-1).max(-1)  # (N,), (N,)
    return calibration_error(confidence.tolist(), (predicted == gold).tolist())


def field_confidence_pairs(collected: Sequence[DocumentLogits], id2label: dict, temperature: float = 1.0
                           ) -> list[tuple[float, bool]]:
    """(confidence, correct) of the most confident entity of every expected field the model extracted.

    As ``evaluate``'s field accuracy: documents with ``fields`` only; a field the model did not extract
    has no confidence and is left out, and labels the document's ``fields`` do not name are not judged.
    """
    from docextract.modeling.inference import tagged_words
    from docextract.evaluation.evaluate import best_entity_per_label
    from docextract.evaluation.field_rules import printed_value_matches

    pairs = []
    for c in collected:
        if not c.document.fields:
            continue
        tagged = tagged_words(c.refs, (c.logits.double() / temperature).softmax(-1), id2label)  # as `run` tags them
        best = best_entity_per_label(c.document.document, tagged)
        locale = document_locale(c.document.document)
        for key, expected_values in c.document.fields.items():
            if key in best:
                value_confidence, text = best[key]
                pairs.append((value_confidence, printed_value_matches(key, text, locale, expected_values)))
    return pairs


@dataclass(frozen=True)
class CalibrationReport:
    temperature: float  # fitted
    previous_temperature: float  # the model's before fitting ("before" numbers use it)
    documents: int
    words: int
    nll_before: float
    nll_after: float
    ece_before: float | None
    ece_after: float | None
    fields: int  # extracted fields judged (documents with ``fields`` only)
    field_ece_before: float | None
    field_ece_after: float | None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ece_bins": CALIBRATION_BINS}


def calibrate(model, tokenizer, documents: Sequence[LabelledDocument],
              on_document: Callable[[int], None] | None = None) -> CalibrationReport:
    """Fit the model's temperature on held-out ``documents`` and measure calibration before and after."""
    collected = collect_logits(model, tokenizer, documents, on_document)
    logits, gold = stack_words(collected)
    if logits.shape[0] == 0:
        raise InputError("no word of the calibration data has a tag the model knows (are these the model's labels?)",
                         code="INPUT_EMPTY")
    t = fit_temperature(logits, gold)
    t0 = model_temperature(model)  # "before" is the model as it is now (1.0 unless calibrated already)
    id2label = model_tags(model)
    fields_before = field_confidence_pairs(collected, id2label, t0)
    fields_after = field_confidence_pairs(collected, id2label, t)
    return CalibrationReport(
        temperature=t, previous_temperature=t0, documents=len(collected), words=int(logits.shape[0]),
        nll_before=negative_log_likelihood(logits, gold, t0), nll_after=negative_log_likelihood(logits, gold, t),
        ece_before=word_calibration_error(logits, gold, t0), ece_after=word_calibration_error(logits, gold, t),
        fields=len(fields_after),
        field_ece_before=calibration_error(*zip(*fields_before)) if fields_before else None,
        field_ece_after=calibration_error(*zip(*fields_after)) if fields_after else None,
    )


def judge_collected(model, collected: Sequence[DocumentLogits], scoring=None, label_map: dict | None = None,
                    with_evidence: bool = True) -> list:
    """Every true field of the documents with ``fields``, as `run` outputs it with ``scoring`` (default: the
    model's own), judged (:func:`docextract.evaluation.field_judgements.judge_document`), with its evidence."""
    from docextract.extraction.scoring import FieldScoring
    from docextract.modeling.inference import tagged_words
    from docextract.evaluation.field_judgements import judge_document

    scoring = scoring or FieldScoring.from_model(model)
    id2label = model_tags(model)
    t = model_temperature(model)
    judged = []
    for c in collected:
        if c.document.fields:
            tagged = tagged_words(c.refs, (c.logits.double() / t).softmax(-1), id2label)  # as `run` tags them
            judged += judge_document(c.document, tagged, scoring, label_map, with_evidence)
    return judged


def calibrate_fields(model, tokenizer, documents: Sequence[LabelledDocument], method: str = "evidence",
                     precision: float = DEFAULT_PRECISION, label_map: dict | None = None, folds: int = DEFAULT_FOLDS,
                     on_document: Callable[[int], None] | None = None):
    """Fit the field confidence (``method``) and the review policy on held-out ``documents`` with ``fields``, at
    the model's own temperature: ``(calibration, policy, report)`` (:func:`fit_field_confidence`)."""
    return fit_field_calibration_on(model, collect_logits(model, tokenizer, documents, on_document), method,
                                    precision, label_map, folds)


def fit_field_calibration_on(model, collected: Sequence[DocumentLogits], method: str = "evidence",
                             precision: float = DEFAULT_PRECISION, label_map: dict | None = None,
                             folds: int = DEFAULT_FOLDS):
    """:func:`calibrate_fields` on logits already collected (to fit several methods on one pass)."""
    judged = judge_collected(model, collected, label_map=label_map)
    try:
        calibration, policy, report = fit_field_confidence(judged, method, precision, folds)
    except ValueError as error:
        raise InputError(f"cannot fit a field calibration on {sum(j.evidence is not None for j in judged)} extracted "
                         f"fields of {sum(bool(c.document.fields) for c in collected)} documents with `fields`: {error}",
                         code="INPUT_EMPTY") from error
    report = {**report, "temperature": model_temperature(model), "ece_bins": CALIBRATION_BINS}
    return calibration, policy, report


def write_model_config(model_dir: Path, updates: dict[str, Any], out_dir: Path | None = None,
                       remove: Sequence[str] = ()) -> Path:
    """Set ``updates`` (and drop ``remove``) in a model folder's config.json, atomically; returns the folder written.

    Without ``out_dir`` config.json is replaced in place (temporary file + rename). With it, the whole
    folder is copied to ``out_dir`` (which must not exist yet) through a temporary sibling folder that
    is renamed when complete, so a half-written model folder never appears.
    """
    from docextract.files import write_json_atomic

    model_dir = Path(model_dir)
    target = model_dir
    staging = None
    if out_dir is not None:
        out_dir = Path(out_dir)
        if out_dir.exists():
            raise OutputError("the output model folder already exists; choose a new --out", path=str(out_dir))
        staging = out_dir.with_name(out_dir.name + ".calibrating")
        shutil.rmtree(staging, ignore_errors=True)
        try:
            shutil.copytree(model_dir, staging)
        except OSError as error:
            raise OutputError(f"cannot copy the model folder: {error}", path=str(out_dir)) from error
        target = staging
    config_path = target / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    for key in remove:
        config.pop(key, None)
    config.update(updates)
    write_json_atomic(config_path, config)
    if staging is not None:
        staging.rename(out_dir)
        target = out_dir
    return target


def write_temperature(model_dir: Path, temperature: float, out_dir: Path | None = None) -> Path:
    """Record ``temperature`` in a model folder's config.json (see :func:`write_model_config`).

    A field calibration and review policy already there were fitted on confidences at the old temperature and
    no longer describe the new ones, so they are removed (refit them with `docextract calibrate --fields`).
    """
    return write_model_config(model_dir, {TEMPERATURE_KEY: temperature}, out_dir,
                              remove=(FIELD_CALIBRATION_KEY, REVIEW_POLICY_KEY))


def write_field_calibration(model_dir: Path, calibration: FieldCalibration, out_dir: Path | None = None,
                            policy: ReviewPolicy | None = None) -> Path:
    """Record a field calibration (and the review policy fitted with it) in a model folder's config.json (see
    :func:`write_model_config`). Without a policy, one already there is removed: its thresholds were measured
    on the old confidences. Either way the note that finetuning dropped the old ones goes: these are fitted for
    the model's own weights."""
    updates = {FIELD_CALIBRATION_KEY: calibration.to_config()}
    if policy is not None:
        updates[REVIEW_POLICY_KEY] = policy.to_config()
    remove = (POLICY_DROPPED_KEY,) if policy is not None else (REVIEW_POLICY_KEY, POLICY_DROPPED_KEY)
    return write_model_config(model_dir, updates, out_dir, remove=remove)
