"""Amounts in a VAT relation to other printed amounts: the tax, its base and their sum, graded."""

import math
from decimal import Decimal

import pytest

from docextract.extraction.candidate_scorer import CandidateScorer, choose_fields
from docextract.extraction.candidates import FEATURES
from docextract.extraction.vat_shares import PAIR, TRIPLE, vat_shares
from tests.extraction.test_candidate_scorer import _model, _page


def _amounts(*texts: str) -> list[Decimal]:
    return [Decimal(t) for t in texts]


def test_base_tax_and_sum_printed_make_a_triple():
    shares = vat_shares(_amounts("198.00", "37.62", "235.62"))
    assert shares.tax == {Decimal("37.62"): TRIPLE}
    assert shares.base[Decimal("198.00")] == TRIPLE
    assert shares.gross == {Decimal("235.62"): TRIPLE}


def test_two_of_three_printed_make_a_pair_and_signs_do_not_matter():
    # a credit note: -5.90 net and -1.12 tax (19%, rounded), the gross not printed
    shares = vat_shares(_amounts("-5.90", "-1.12"))
    assert shares.tax == {Decimal("1.12"): PAIR} and shares.base == {Decimal("5.90"): PAIR}
    assert not shares.gross
    # base and gross without the tax: 1.500,00 and 1.785,00 (the tax printed where the reader split it)
    shares = vat_shares(_amounts("1500.00", "1785.00", "0.00"))
    assert shares.gross == {Decimal("1785.00"): PAIR} and shares.base == {Decimal("1500.00"): PAIR}
    assert not shares.tax


def test_amounts_in_no_relation_have_none():
    shares = vat_shares(_amounts("12.34", "56.78", "0.00"))
    assert not shares.tax and not shares.base and not shares.gross


def test_an_unkeyed_tax_after_its_base_is_chosen_by_the_relation():
    # "Steuerbasisbetrag USt. 19% 198,00 37,62": the key keys the base, nothing keys the tax; a scorer that
    # weighs the tax relation picks 37,62, not the unit price 9,90 or the unrelated 12,00
    doc = _page(["Rechnungssumme Netto 198,00", "Einzelpreis 9,90 Versand 12,00",
                 "Steuerbasisbetrag USt. 19% 198,00 37,62", "Rechnungssumme Brutto 235,62"])
    scorer = CandidateScorer(FEATURES, {"total_tax": _model(-2.0, amount_vat_tax=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"total_tax": "37,62"}


def test_a_scorer_fitted_before_the_new_features_reads_them_with_weight_zero():
    stored = [name for name in FEATURES if not name.startswith("amount_vat_")]
    n = len(stored)
    config = {"features": stored, "min_probability": 0.2, "fields": {"total": {
        "mean": [0.5] * n, "scale": [2.0] * n, "weights": [float(i) for i in range(n)], "intercept": -1.0}}}
    model = CandidateScorer.from_config(config).fields["total"]
    for name in FEATURES:
        i = FEATURES.index(name)
        if name in stored:
            assert (model.mean[i], model.scale[i], model.weights[i]) == (0.5, 2.0, float(stored.index(name)))
        else:
            assert (model.mean[i], model.scale[i], model.weights[i]) == (0.0, 1.0, 0.0)
    # the same probability as the stored model computes on its own features
    row = [1.0] * len(FEATURES)
    expected = -1.0 + sum(float(j) * (1.0 - 0.5) / 2.0 for j in range(n))
    assert abs(model.probability(row) - 1 / (1 + math.exp(-expected))) < 1e-12


def test_a_scorer_fitted_on_a_feature_this_version_lacks_is_refused():
    config = {"features": [*FEATURES, "gone"], "fields": {}}
    with pytest.raises(ValueError, match="refit"):
        CandidateScorer.from_config(config)
