"""Risk-coverage arithmetic on a small hand-made set whose answer is worked out by hand: the curve, the
straight-through rate at a precision, the staircase the review policy reads thresholds from, AUROC, and the
per-field report with the statuses a model printed."""

import pytest

from docextract.extraction.review import FieldCurve
from docextract.evaluation.field_judgements import JudgedField
from docextract.evaluation.risk_coverage import auroc, confidence_report, risk_coverage, staircase, straight_through

# (score, right): ten true fields; None = never accepted (not output, or its value does not normalise)
ITEMS = [(0.99, True), (0.97, True), (0.95, True), (0.93, False), (0.90, True), (0.90, True), (0.80, False),
         (0.70, True), (None, False), (None, True)]


def test_the_curve_accepts_from_the_top_and_counts_every_true_field():
    curve = risk_coverage(ITEMS)
    # one point per distinct score, highest threshold first; equal scores (0.90) are accepted together
    assert [(p.threshold, p.accepted, p.correct) for p in curve] == [
        (0.99, 1, 1), (0.97, 2, 2), (0.95, 3, 3), (0.93, 4, 3), (0.90, 6, 5), (0.80, 7, 5), (0.70, 8, 6)]
    assert all(p.total == 10 for p in curve)  # the two never-accepted fields still count against coverage
    assert curve[-1].coverage == pytest.approx(0.8) and curve[-1].precision == pytest.approx(0.75)


def test_straight_through_is_the_largest_coverage_at_the_precision():
    curve = risk_coverage(ITEMS)
    at_99 = straight_through(curve, 0.99)
    assert (at_99.threshold, at_99.coverage, at_99.precision) == (0.95, pytest.approx(0.3), 1.0)
    assert straight_through(curve, 0.95).coverage == pytest.approx(0.3)  # nothing below 0.95 is that clean
    at_80 = straight_through(curve, 0.80)  # 5 of 6 right at 0.90: 60% accepted
    assert (at_80.threshold, at_80.coverage) == (0.90, pytest.approx(0.6))
    assert straight_through(curve, 0.70).coverage == pytest.approx(0.8)
    assert straight_through(risk_coverage([(0.9, False), (None, True)]), 0.99) is None


def test_the_staircase_gives_the_lowest_threshold_reaching_each_precision():
    steps = staircase(risk_coverage(ITEMS))
    assert steps == [(0.70, 0.75, 0.8), (0.90, 0.833, 0.6), (0.95, 1.0, 0.3)]  # precision floored to 0.001
    curve = FieldCurve(10, tuple(steps))
    assert curve.threshold(0.99) == 0.95 and curve.threshold(1.0) == 0.95
    assert curve.threshold(0.80) == 0.90  # 0.93 and 0.80 are beaten by a lower threshold at least as precise
    assert curve.threshold(0.75) == 0.70
    assert FieldCurve(1, ((0.9, 0.5, 1.0),)).threshold(0.99) is None  # no point reached it: nothing accepted
    # 99 of 100 right is 0.99 exactly, and stays so after flooring; 98 of 99 (0.98990) is not rounded up to 0.99
    exact = staircase(risk_coverage([(1 - i / 1000, i != 50) for i in range(100)]))
    assert FieldCurve(100, tuple(exact)).threshold(0.99) == pytest.approx(0.901)
    near = FieldCurve(99, tuple(staircase(risk_coverage([(1 - i / 1000, i != 0) for i in range(99)]))))
    assert near.threshold(0.99) is None and near.threshold(0.989) == pytest.approx(0.902)


def test_auroc_counts_the_pairs_ranked_right_above_wrong():
    scored = [(s, ok) for s, ok in ITEMS if s is not None]
    # wrong 0.93 is beaten by 3 of the 6 right fields, wrong 0.80 by 5: 8 of 12 pairs
    assert auroc([s for s, _ in scored], [ok for _, ok in scored]) == pytest.approx(8 / 12)
    assert auroc([0.2, 0.9], [True, True]) is None


def test_confidence_report_per_field_and_with_the_printed_statuses():
    judged = [JudgedField("d1", "g1", "total", "total", True, 0.98, "accepted", True),
              JudgedField("d1", "g1", "invoice_date", "invoice_date", False, 0.91, "accepted", True),
              JudgedField("d2", "g2", "total", "total", True, 0.6, "review", True),
              JudgedField("d2", "g2", "invoice_date", "invoice_date", False, None, None, False),  # not output
              JudgedField("d3", "g3", "total", "total", False, 0.4, "review", False)]  # did not normalise
    report = confidence_report(judged)
    overall = report["overall"]
    assert (overall["fields"], overall["extracted"], overall["correct"]) == (5, 4, 2)
    assert overall["straight_through"]["0.99"] == {"coverage": pytest.approx(0.2), "threshold": 0.98,
                                                   "precision": 1.0, "accepted": 1}
    assert overall["policy"] == {"accepted": 2, "review": 3, "coverage": pytest.approx(0.4), "precision": 0.5}
    assert overall["auroc"] == pytest.approx(0.75)  # right 0.98 and 0.6 against wrong 0.91 and 0.4: 3 of 4 pairs
    total = report["per_field"]["total"]
    assert (total["fields"], total["straight_through"]["0.99"]["coverage"]) == (3, pytest.approx(2 / 3))
    assert total["curve"] == [[0.98, pytest.approx(1 / 3, abs=1e-6), 1.0], [0.6, pytest.approx(2 / 3, abs=1e-6), 1.0]]
    assert report["per_field"]["invoice_date"]["straight_through"]["0.99"]["coverage"] == 0.0
    # each field at its own threshold: both totals output and normalised (0.98, 0.6), no invoice date: 2 of 5
    assert overall["straight_through_per_field"]["0.99"] == {"coverage": pytest.approx(0.4), "precision": 1.0,
                                                             "accepted": 2}
    assert report["documents"] == 3
