"""Fitting field confidence (scikit-learn): the maps recover known ones and never raise the NLL of their pairs;
the evidence model recovers known weights; cross-fitting keeps an invoice's documents in one fold; the review
policy picks each field's own threshold where it was measured often enough, all fields' curve elsewhere, and
never accepts a value that does not normalise."""

import math

import pytest
import torch

from docextract.extraction.confidence import binary_nll, calibration_from_config
from docextract.extraction.evidence import FEATURES, logit
from docextract.evaluation.confidence_fit import (
    cross_fitted,
    fit_evidence,
    fit_field_confidence,
    fit_isotonic,
    fit_platt,
    fit_policy,
)
from docextract.evaluation.field_judgements import JudgedField

KNOWN_A, KNOWN_B = 1.8, -0.6  # the map the synthetic pairs are drawn from
PAIRS = 20_000  # enough to pin (a, b) down to a few hundredths
PARAMETER_TOLERANCE = 0.1  # absolute, on a and b
ISOTONIC_TOLERANCE = 0.05  # absolute, isotonic estimate vs the true map at mid-range confidences
RAW_LOGIT_MEAN, RAW_LOGIT_STD = 0.5, 1.5  # raw confidences spread over (0, 1), more of them high


def _synthetic_pairs(a: float, b: float, n: int = PAIRS, seed: int = 0) -> tuple[list[float], list[bool]]:
    generator = torch.Generator().manual_seed(seed)
    z = torch.randn(n, generator=generator, dtype=torch.float64) * RAW_LOGIT_STD + RAW_LOGIT_MEAN  # (n,) raw logits
    truth = torch.sigmoid(a * z + b)  # (n,) P(right | raw confidence)
    correct = torch.rand(n, generator=generator, dtype=torch.float64) < truth  # (n,)
    return torch.sigmoid(z).tolist(), correct.tolist()


def test_platt_recovers_a_known_map_and_lowers_the_nll():
    confidences, correct = _synthetic_pairs(KNOWN_A, KNOWN_B)
    fitted = fit_platt(confidences, correct)
    assert fitted.a == pytest.approx(KNOWN_A, abs=PARAMETER_TOLERANCE)
    assert fitted.b == pytest.approx(KNOWN_B, abs=PARAMETER_TOLERANCE)
    assert binary_nll([fitted(c) for c in confidences], correct) < binary_nll(confidences, correct)
    identity = fit_platt(*_synthetic_pairs(1.0, 0.0, seed=1))  # already calibrated pairs are left (nearly) alone
    assert identity.a == pytest.approx(1.0, abs=PARAMETER_TOLERANCE) and identity.b == pytest.approx(0.0, abs=PARAMETER_TOLERANCE)


def test_isotonic_is_monotone_follows_the_true_map_and_lowers_the_nll():
    confidences, correct = _synthetic_pairs(KNOWN_A, KNOWN_B)
    fitted = fit_isotonic(confidences, correct)
    assert list(fitted.x) == sorted(set(fitted.x)) and list(fitted.y) == sorted(fitted.y)
    mapped = [fitted(i / 100) for i in range(1, 100)]
    assert mapped == sorted(mapped)
    for c in (0.3, 0.5, 0.7, 0.9):
        truth = 1 / (1 + math.exp(-(KNOWN_A * math.log(c / (1 - c)) + KNOWN_B)))
        assert fitted(c) == pytest.approx(truth, abs=ISOTONIC_TOLERANCE)
    assert binary_nll([fitted(c) for c in confidences], correct) < binary_nll(confidences, correct)
    # equal confidences get one value, and a violator is pooled with its neighbour: 0.2 -> 1/2, (0.4, 0.6) -> 1/2, 0.8 -> 1
    small = fit_isotonic([0.2, 0.2, 0.4, 0.6, 0.8], [True, False, True, False, True])
    assert [small(c) for c in (0.2, 0.4, 0.6, 0.8)] == [pytest.approx(0.5)] * 3 + [pytest.approx(1.0, abs=1e-4)]
    assert calibration_from_config(small.to_config()) == small


def test_fits_never_reverse_the_order_and_refuse_one_sided_pairs():
    confidences, correct = _synthetic_pairs(-1.0, 0.0)  # confidence predicts correctness backwards
    backwards = fit_platt(confidences, correct)
    assert backwards.a == 0.0
    assert backwards(0.1) == backwards(0.9) == pytest.approx(sum(correct) / len(correct), abs=1e-6)
    for fit in (fit_platt, fit_isotonic):
        with pytest.raises(ValueError):
            fit([0.3, 0.8], [True, True])
        with pytest.raises(ValueError):
            fit([], [])


def _evidence_rows(n: int, seed: int) -> tuple[list[dict], list[bool]]:
    """Rows of evidence drawn at random, right with P = sigmoid(2 raw_logit + 3 check_pass - 4 odd_shape - 1)."""
    generator = torch.Generator().manual_seed(seed)
    raw = torch.randn(n, generator=generator, dtype=torch.float64)  # (n,)
    check = (torch.rand(n, generator=generator) < 0.4).double()  # (n,)
    odd = (torch.rand(n, generator=generator) < 0.1).double()  # (n,)
    truth = torch.sigmoid(2 * raw + 3 * check - 4 * odd - 1)
    correct = (torch.rand(n, generator=generator, dtype=torch.float64) < truth).tolist()
    rows = [{name: 0.0 for name in FEATURES} | {"raw_logit": r, "check_pass": c, "odd_shape": o}
            for r, c, o in zip(raw.tolist(), check.tolist(), odd.tolist())]
    return rows, correct


def test_evidence_model_recovers_known_weights_and_its_config_round_trips():
    rows, correct = _evidence_rows(PAIRS, seed=3)
    model = fit_evidence(rows, correct)
    weights = dict(zip(model.features, model.coefficients))
    assert weights["raw_logit"] == pytest.approx(2.0, abs=0.15)
    assert weights["check_pass"] == pytest.approx(3.0, abs=0.2)
    assert weights["odd_shape"] == pytest.approx(-4.0, abs=0.3)
    assert model.intercept == pytest.approx(-1.0, abs=0.15)
    assert all(weights[name] == 0.0 for name in FEATURES if name not in ("raw_logit", "check_pass", "odd_shape"))
    assert calibration_from_config(model.to_config()) == model
    # alone (a line-item cell, an entity), a raw confidence goes through the Platt map fitted beside it
    assert model(0.7) == model.raw_map(0.7)


def _judged(label: str, group: str, raw: float, correct: bool, acceptable: bool = True, key: str | None = None):
    return JudgedField(group, group, key or label, label, correct, round(raw, 4), None, acceptable,
                       {name: 0.0 for name in FEATURES} | {"raw_logit": logit(raw)})


def test_cross_fitting_scores_each_invoice_with_a_model_that_never_saw_it():
    # invoice A is right when unsure and wrong when sure; invoice B the other way round. Scored by a model
    # fitted on B alone, A's sure fields must come out more confident than its unsure ones (a file-wise split,
    # fitted on A and B mixed, would flatten both).
    judged = []
    for i in range(40):
        raw = 0.5 + i / 100
        judged.append(_judged("total", "A", raw, correct=raw < 0.7))
        judged.append(_judged("total", "B", raw, correct=raw >= 0.7))
    scores, folds = cross_fitted("platt", judged, folds=5)
    assert folds == 2  # two invoices: two folds, whatever was asked
    a_sure = [s for j, s in zip(judged, scores) if j.group == "A" and j.raw_confidence >= 0.7]
    a_unsure = [s for j, s in zip(judged, scores) if j.group == "A" and j.raw_confidence < 0.7]
    assert min(a_sure) > max(a_unsure)


def test_cross_fitting_uses_fewer_folds_when_a_fold_leaves_only_right_fields_to_fit_on():
    # three invoices, the only wrong fields all in invoice C: leaving C out leaves nothing wrong to fit on
    judged = [_judged("total", group, 0.5 + i / 20, correct=group != "C" or i % 2 == 0)
              for group in "ABC" for i in range(10)]
    scores, folds = cross_fitted("evidence", judged, folds=3)
    assert folds == 1 and all(s is not None for s in scores)  # 2 folds fail the same way: in-sample, said so
    judged += [_judged("total", "A", 0.55, correct=False), _judged("total", "B", 0.6, correct=False)]
    assert cross_fitted("evidence", judged, folds=3)[1] == 3


def test_policy_thresholds_per_field_and_all_fields_for_rarely_seen_ones():
    judged, scores = [], []
    # total, 40 documents: right at 0.95 and above, one wrong at 0.9, right below down to 0.5
    for i in range(40):
        score = 0.99 - i * 0.0125
        judged.append(_judged("total", f"t{i}", score, correct=not (0.89 < score < 0.91)))
        scores.append(round(score, 4))
    # iban, 5 documents: too few for its own curve (min_support 30): the curve of all fields decides
    for i in range(5):
        judged.append(_judged("iban", f"i{i}", 0.97, correct=True))
        scores.append(0.97)
    # an unnormalised date at 0.999: never accepted, whatever its score
    judged.append(_judged("invoice_date", "d0", 0.999, correct=True, acceptable=False))
    scores.append(0.5)
    policy = fit_policy(judged, scores, precision=0.99, min_support=30)
    total = policy.fields["total"]
    assert total.support == 40
    # precision 1 down to 0.915 (7 right); the wrong one at 0.9025 makes it 7/8, and 32 right fields below it
    # never bring it back to 0.99 (39/40 at most): 0.915 is the lowest threshold at 0.99
    assert policy.threshold("total") == pytest.approx(0.915)
    assert policy.threshold("total", 0.95) == pytest.approx(0.5025)  # 39/40 right when all are accepted
    assert policy.fields["iban"].support == 5 and policy.curve("iban") is policy.pooled
    assert policy.threshold("iban") == policy.pooled.threshold(0.99)
    assert policy.fields["invoice_date"].points == ()  # nothing to accept: its only value did not normalise
    assert policy.threshold("never_seen") == policy.pooled.threshold(0.99)


def test_fit_field_confidence_reports_before_and_cross_fitted_after():
    judged = []
    for i in range(60):
        raw = 0.4 + i / 100
        judged.append(_judged("total", f"g{i}", raw, correct=(i % 7 != 0) and raw > 0.55))
    calibration, policy, report = fit_field_confidence(judged, "platt", precision=0.99, folds=3)
    assert report["folds"] == 3 and report["fields"] == 60 and report["invoices"] == 60
    assert report["calibration"] == calibration.to_config() and report["review_policy"] == policy.to_config()
    assert set(report["thresholds_at"]) == {"0.99", "0.95"}
    assert report["after"]["nll"] < report["before"]["nll"] + 0.5
    with pytest.raises(ValueError):
        fit_field_confidence([_judged("total", "g", 0.9, True)], "evidence")


def test_a_fields_own_curve_is_drawn_toward_all_fields_precision():
    """A field right 10 times out of 10 above 0.9, where all fields together are right 90% of the time, is not taken
    for a 99% field: its precision there counts as (10 + 30 x 0.9) / (10 + 30)."""
    from docextract.evaluation.confidence_fit import SHRINK_STRENGTH, shrunk
    from docextract.evaluation.risk_coverage import risk_coverage

    own = [(0.95, True)] * 10 + [(0.5, True)] * 20
    others = [(0.95, True)] * 80 + [(0.95, False)] * 20 + [(0.5, True)] * 100
    pooled = risk_coverage(own + others)
    (high, low) = shrunk(risk_coverage(own), pooled)
    assert high.threshold == 0.95 and high.accepted == 10 and high.coverage == pytest.approx(10 / 30)
    assert high.precision == pytest.approx((10 + SHRINK_STRENGTH * 90 / 110) / (10 + SHRINK_STRENGTH))
    assert low.precision == pytest.approx((30 + SHRINK_STRENGTH * 210 / 230) / (30 + SHRINK_STRENGTH))
    judged = [_judged("total", f"t{i}", s, correct=ok) for i, (s, ok) in enumerate(own)]
    judged += [_judged("iban", f"i{i}", s, correct=ok) for i, (s, ok) in enumerate(others)]
    policy = fit_policy(judged, [s for s, _ in own + others], precision=0.99, min_support=30)
    assert policy.threshold("total") is None  # unshrunk, 0.95 would have passed at 10/10


def test_the_held_out_report_counts_each_part_of_a_producer_apart():
    # three producers, each read from its text layer and from scans (documents named "...#scan"): what a policy
    # fitted on the other two accepts, counted per producer and per part; the parts add up to the producer
    from dataclasses import replace

    from docextract.evaluation.confidence_fit import held_out_group_report

    judged = []
    for producer in ("p1", "p2", "p3"):
        for i in range(40):
            raw = 0.5 + i / 85
            field = _judged("total", producer, raw, correct=raw > 0.6 or i % 3 == 0)
            judged.append(replace(field, document=f"{producer}-{i}" + ("#scan" if i % 2 else "")))
    report = held_out_group_report(judged, "evidence", 0.95, min_support=10,
                                   part=lambda j: "scans" if j.document.endswith("#scan") else "digital")
    assert set(report) == {"p1", "p2", "p3"}
    for row in report.values():
        assert set(row["parts"]) == {"digital", "scans"}
        for key in ("true_fields", "accepted", "right"):
            assert sum(part.get(key, 0) for part in row["parts"].values()) == row[key]
        assert row["parts"]["scans"]["true_fields"] == 20


def test_fields_read_by_ocr_get_curves_of_their_own():
    # text-layer fields right from 0.6 up, OCR fields wrong up to 0.9: one policy for both would accept the
    # scans' errors or little of the text layer; the OCR curves are fitted on the OCR fields alone
    from dataclasses import replace

    from docextract.evaluation.confidence_fit import MIN_OCR_FIELDS, fit_reading_policy

    judged, scores = [], []
    for i in range(MIN_OCR_FIELDS):
        score = 0.5 + i / (2 * MIN_OCR_FIELDS)
        judged.append(_judged("total", f"t{i}", score, correct=score >= 0.6))
        judged.append(replace(_judged("total", f"o{i}", score, correct=score >= 0.9), ocr=True))
        scores += [score, score]
    policy = fit_reading_policy(judged, scores, 0.99, 30, {})
    assert policy.threshold("total") == pytest.approx(0.6)
    assert policy.ocr is not None and policy.ocr.threshold("total") == pytest.approx(0.9)
    # too few OCR fields: one policy for all
    few = [j for j in judged if not j.ocr] + [j for j in judged if j.ocr][:10]
    assert fit_reading_policy(few, [0.7] * len(few), 0.99, 30, {}).ocr is None
