"""Agreement statistics against independent implementations and hand-worked values."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from maieutic.stats import (
    PreferenceItem,
    UndefinedStatistic,
    bootstrap_ci,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    observed_agreement,
    pabak,
    pearson,
    preference_agreement,
    spearman,
    three_rater_agreement,
)

RNG = np.random.default_rng(7)
A = RNG.choice(["Useful", "Unhelpful", "Invalid"], 200, p=[0.6, 0.25, 0.15]).tolist()
B = [a if RNG.random() < 0.6 else RNG.choice(["Useful", "Unhelpful", "Invalid"]) for a in A]


def test_cohen_kappa_matches_scikit_learn():
    assert cohen_kappa(A, B) == pytest.approx(cohen_kappa_score(A, B))
    ordered = ["Invalid", "Unhelpful", "Useful"]
    for weights in ("linear", "quadratic"):
        assert cohen_kappa(A, B, labels=ordered, weights=weights) == pytest.approx(
            cohen_kappa_score(A, B, labels=ordered, weights=weights)
        )


def test_cohen_kappa_hand_worked_and_missing():
    # 4 items: agree, agree, disagree, agree -> po = .75
    # marginals a: x 2/4, y 2/4; b: x 3/4, y 1/4 -> pe = .5*.75 + .5*.25 = .5 -> k = .5
    assert cohen_kappa(["x", "x", "y", "y", None], ["x", "x", "x", "y", "y"]) == pytest.approx(0.5)


def test_kappa_with_a_single_category_is_an_error_not_nan():
    with pytest.raises(UndefinedStatistic, match="same single category"):
        cohen_kappa(["a", "a", "a"], ["a", "a", "a"])
    with pytest.raises(UndefinedStatistic, match="no item was rated by both"):
        cohen_kappa([None, "a"], ["b", None])


def test_pabak_and_observed_agreement():
    a, b = ["y", "y", "n", "y", "n"], ["y", "n", "n", "y", "n"]
    assert observed_agreement(a, b) == pytest.approx(0.8)
    assert pabak(a, b) == pytest.approx(0.6)  # 2·0.8 − 1
    assert pabak(a, b, n_categories=3) == pytest.approx((3 * 0.8 - 1) / 2)


def test_three_rater_scheme_of_focus():
    items = [("a", "a", "a"), ("a", "a", "b"), ("a", "b", "c"), ("b", "b", "a")]
    assert three_rater_agreement(items) == pytest.approx((1 + 0.5 + 0 + 0.5) / 4)


def _multi(n_items=60, raters=4):
    truth = RNG.choice(["p", "q", "r"], n_items)
    return [
        [t if RNG.random() < 0.7 else RNG.choice(["p", "q", "r"]) for _ in range(raters)]
        for t in truth
    ]


def test_fleiss_matches_statsmodels():
    items = _multi()
    table, _ = aggregate_raters(np.array(items))
    assert fleiss_kappa(items) == pytest.approx(sm_fleiss(table, method="fleiss"))
    with pytest.raises(UndefinedStatistic):
        fleiss_kappa([["a", "a"], ["a", "a"]])


def test_gwet_ac1_hand_worked():
    # two raters, 4 items, binary: agree on 3 -> pa = .75
    # pi_yes = (2/2 + 1/2 + 0 + 2/2)/4 = .625, pi_no = .375
    # pe = 1/(2-1) · (.625·.375 + .375·.625) = .46875 -> AC1 = (.75−.46875)/(1−.46875)
    items = [["y", "y"], ["y", "n"], ["n", "n"], ["y", "y"]]
    assert gwet_ac1(items) == pytest.approx((0.75 - 0.46875) / (1 - 0.46875))
    with pytest.raises(UndefinedStatistic):
        gwet_ac1([["a", "a"], ["a", "a"]])


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_krippendorff_matches_the_krippendorff_package(level):
    data = RNG.integers(0, 3, size=(3, 40)).astype(float)
    data[0, :25] = data[1, :25]  # some agreement
    data[2, 5] = np.nan
    data[1, 7] = np.nan
    data[0, 9] = data[1, 9] = np.nan  # a unit with one value: not pairable
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    as_lists = [[None if np.isnan(v) else v for v in row] for row in data]
    assert krippendorff_alpha(as_lists, level) == pytest.approx(expected)


def test_krippendorff_edge_cases():
    with pytest.raises(UndefinedStatistic, match="every value is missing"):
        krippendorff_alpha([[None, None], [None, None]])
    with pytest.raises(UndefinedStatistic, match="all pairable values are equal"):
        krippendorff_alpha([[1, 1, 1], [1, 1, 1]])
    assert krippendorff_alpha([[1, 2, 3], [1, 2, 3]], "interval") == pytest.approx(1.0)


def test_correlations_match_scipy_and_numpy():
    x = RNG.normal(size=30)
    y = x + RNG.normal(size=30)
    assert pearson(x, y).r == pytest.approx(np.corrcoef(x, y)[0, 1])
    ranks = lambda v: np.argsort(np.argsort(v))  # noqa: E731 - no ties in continuous data
    assert spearman(x, y).r == pytest.approx(np.corrcoef(ranks(x), ranks(y))[0, 1])
    assert 0 <= pearson(x, y).p_value < 0.01
    with pytest.raises(UndefinedStatistic, match="zero variance"):
        pearson([1, 1, 1, 1], [1, 2, 3, 4])


def test_bootstrap_ci_contains_the_estimate_and_is_reproducible():
    first = bootstrap_ci(cohen_kappa, A, B, n_resamples=300)
    again = bootstrap_ci(cohen_kappa, A, B, n_resamples=300)
    assert first == again
    assert first.low < first.estimate < first.high
    assert first.estimate == pytest.approx(cohen_kappa_score(A, B))


def test_preference_agreement_hand_worked():
    items = [
        # humans 4-1 for A; ans prefers A (agrees), cov B; sums 1.3 vs 1.0 -> A (agrees)
        PreferenceItem({"ans": (0.9, 0.5), "cov": (0.4, 0.5)}, ["A", "A", "A", "A", "B"]),
        # humans 3-2 for B; ans prefers A, cov B (agrees); sums 0.9 vs 0.7 -> A (disagrees)
        PreferenceItem({"ans": (0.8, 0.2), "cov": (0.1, 0.5)}, ["A", "A", "B", "B", "B"]),
        # humans tied -> skipped
        PreferenceItem({"ans": (0.1, 0.2), "cov": (0.3, 0.2)}, ["A", "B"]),
    ]
    out = preference_agreement(items, aggregate="sum")
    assert out["n_items"] == 2 and out["n_tied_skipped"] == 1
    assert out["per_metric"]["ans"] == {"agree": 1, "n": 2, "proportion": 0.5}
    assert out["per_metric"]["cov"]["agree"] == 1
    assert out["aggregate"]["agree"] == 1
    assert out["p_annotator_agrees_given_agree"] == pytest.approx(4 / 5)
    assert out["p_annotator_agrees_given_disagree"] == pytest.approx(2 / 5)
    # by majority vote of the two metrics item 1 and 2 are ties (one each): no choice
    assert preference_agreement(items, aggregate="vote")["aggregate"]["agree"] == 0


def test_weighted_kappa_orders_numeric_categories_by_value():
    # totals such as CompQA's 0–19 must be ordered 1 < 2 < 10, not as text (1, 10, 2)
    a = [1, 2, 10, 2, 1, 10, 2]
    b = [2, 2, 10, 1, 1, 2, 10]
    for weights in ("linear", "quadratic"):
        expected = cohen_kappa_score(a, b, weights=weights)  # sklearn orders by value
        assert cohen_kappa(a, b, weights=weights) == pytest.approx(expected)
    # the text order would give another value: the test can tell the two apart
    as_text = cohen_kappa(a, b, labels=[1, 10, 2], weights="linear")
    assert as_text != pytest.approx(cohen_kappa_score(a, b, weights="linear"))
