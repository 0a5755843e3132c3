"""Paired bootstrap and approximate randomization (``maieutic.stats.paired``) against
independent computations: scipy's ``permutation_test`` and ``bootstrap`` with the
same seeds, scikit-learn's macro-F1, and hand-worked small cases."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats
from sklearn.metrics import f1_score

from maieutic.evaluate.units import grouped_mean
from maieutic.stats import UndefinedStatistic
from maieutic.stats.paired import (
    AdditiveStatistic,
    approximate_randomization,
    mean_of,
    paired_bootstrap,
    paired_test,
)


def _abs_mean_difference(x, y, axis=-1):
    return np.abs(np.mean(y, axis=axis) - np.mean(x, axis=axis))


def test_hand_worked_exact_randomization():
    # differences 1, 1, 1, 0: |mean| 0.75 needs the first three signs alike (2 of 8
    # patterns), whatever the fourth (× 2): 4 of 16 shuffles are as extreme
    p, made, exact, undefined = approximate_randomization(
        mean_of(np.array([0.0, 0.0, 0.0, 1.0])), other=mean_of(np.array([1.0, 1.0, 1.0, 1.0]))
    )
    assert (p, made, exact, undefined) == (0.25, 16, True, 0)


def test_exact_randomization_equals_scipys_exact_permutation_test():
    rng = np.random.default_rng(3)
    a = rng.random(11)
    b = a + rng.normal(0.08, 0.2, 11)
    p, made, exact, _ = approximate_randomization(mean_of(a), other=mean_of(b), n_trials=10_000)
    expected = scipy_stats.permutation_test(
        (a, b),
        _abs_mean_difference,
        permutation_type="samples",
        alternative="greater",
        n_resamples=10_000,
        vectorized=True,
    )
    assert exact and made == 2**11
    assert p == pytest.approx(expected.pvalue, abs=1e-12)


def test_random_randomization_agrees_with_scipy_within_monte_carlo_error():
    rng = np.random.default_rng(5)
    a = rng.random(80)
    b = a + rng.normal(0.04, 0.2, 80)
    p, made, exact, _ = approximate_randomization(
        mean_of(a), other=mean_of(b), n_trials=20_000, seed=1
    )
    expected = scipy_stats.permutation_test(
        (a, b),
        _abs_mean_difference,
        permutation_type="samples",
        alternative="greater",
        n_resamples=20_000,
        vectorized=True,
        rng=np.random.default_rng(2),
    )
    assert not exact and made == 20_000
    assert 0.02 < expected.pvalue < 0.5  # a case where the p-value is not at an edge
    # two independent 20,000-shuffle estimates: sd of each about 0.003
    assert p == pytest.approx(expected.pvalue, abs=0.015)


def test_paired_bootstrap_equals_scipys_paired_percentile_bootstrap_with_the_same_seed():
    rng = np.random.default_rng(9)
    a = rng.random(60)
    b = a + rng.normal(0.05, 0.3, 60)
    low, high, undefined = paired_bootstrap(mean_of(a), other=mean_of(b), n_resamples=2000, seed=7)
    expected = scipy_stats.bootstrap(
        (a, b),
        lambda x, y, axis=-1: np.mean(y, axis=axis) - np.mean(x, axis=axis),
        paired=True,
        vectorized=True,
        method="percentile",
        n_resamples=2000,
        rng=np.random.default_rng(7),
    )
    assert undefined == 0
    assert low == pytest.approx(expected.confidence_interval.low, abs=1e-12)
    assert high == pytest.approx(expected.confidence_interval.high, abs=1e-12)


def test_two_identical_systems_do_not_differ():
    values = np.random.default_rng(0).random(40)
    test = paired_test(mean_of(values), other=mean_of(values.copy()))
    assert test.difference == 0.0
    assert (test.low, test.high) == (0.0, 0.0)
    assert test.p_value == 1.0  # every shuffle is as extreme as no difference
    assert not test.significant()


def test_two_clearly_different_systems_differ():
    test = paired_test(mean_of(np.zeros(200)), other=mean_of(np.ones(200)), n_trials=10_000)
    assert test.difference == 1.0
    assert (test.low, test.high) == (1.0, 1.0)
    # no shuffle of 200 units reaches a difference of 1: only the observed one counts
    assert test.p_value == pytest.approx(1 / 10_001)
    assert test.significant() and not test.exact


def test_the_same_seed_gives_the_same_figures_and_another_seed_others():
    rng = np.random.default_rng(1)
    a, b = mean_of(rng.random(50)), mean_of(rng.random(50))
    first, again = paired_test(a, other=b, seed=4), paired_test(a, other=b, seed=4)
    other = paired_test(a, other=b, seed=5)
    assert first == again
    assert (first.low, first.p_value) != (other.low, other.p_value)


def test_a_mean_over_units_with_values_leaves_missing_ones_out():
    # per-unit scores with a missing one: the mean is over the three present (2/3)
    stat = mean_of(np.array([1.0, np.nan, 0.0, 1.0]))
    assert stat.value() == pytest.approx(2 / 3)
    with pytest.raises(UndefinedStatistic):
        mean_of(np.array([np.nan, np.nan])).value()


def test_grouped_items_keep_the_item_mean_and_move_together():
    # three items in two units: the score is still the mean over items (1 + 0 + 1)/3
    units = grouped_mean(["q1", "q1", "q2"], [1.0, 0.0, 1.0], "questions")
    assert units.ids == ("q1", "q2")
    assert units.statistic.value() == pytest.approx(2 / 3)
    np.testing.assert_array_equal(units.statistic.counts, [[1.0, 2.0], [1.0, 1.0]])
    # an item without a value adds to neither sum
    partial = grouped_mean(["q1", "q1"], [1.0, None], "questions")
    np.testing.assert_array_equal(partial.statistic.counts, [[1.0, 1.0]])


def _f1_counts(truth: np.ndarray, guess: np.ndarray) -> AdditiveStatistic:
    k = truth.shape[1]

    def finish(sums):
        tp, wrong = sums[:, :k], sums[:, k:]
        denominator = 2 * tp + wrong
        return np.divide(2 * tp, denominator, out=np.zeros(tp.shape), where=denominator > 0).mean(
            axis=1
        )

    counts = np.hstack([(truth & guess), (truth ^ guess)]).astype(float)
    return AdditiveStatistic(counts, finish)


def test_an_additive_macro_f1_equals_scikit_learn_on_any_mix_of_two_systems():
    rng = np.random.default_rng(11)
    truth = rng.random((70, 6)) < 0.3
    guess_a = rng.random((70, 6)) < 0.35
    guess_b = rng.random((70, 6)) < 0.25
    a, b = _f1_counts(truth, guess_a), _f1_counts(truth, guess_b)
    expected = f1_score(truth, guess_a, average="macro", zero_division=0)
    assert a.value() == pytest.approx(expected, abs=1e-12)
    # a shuffle: system A with units 0..34 swapped for B's, as the test computes it
    swap = np.zeros((1, 70))
    swap[0, :35] = 1.0
    mixed = a.finish((1 - swap) @ a.counts + swap @ b.counts)[0]
    mixed_guess = np.vstack([guess_b[:35], guess_a[35:]])
    assert mixed == pytest.approx(f1_score(truth, mixed_guess, average="macro", zero_division=0))
    # a resample: unit weights give the F1 of the repeated rows
    drawn = rng.integers(0, 70, 70)
    weights = np.bincount(drawn, minlength=70)[None, :].astype(float)
    assert a.weighted(weights)[0] == pytest.approx(
        f1_score(truth[drawn], guess_a[drawn], average="macro", zero_division=0)
    )


def test_more_than_half_undefined_is_an_error_not_a_figure():
    # one unit with a value per system, on different units: a resample must draw both
    # units for both means to exist, which 1 − 2(2/3)³ + (1/3)³ = 44% of them do
    a = mean_of(np.array([1.0, np.nan, np.nan]))
    b = mean_of(np.array([np.nan, np.nan, 0.0]))
    with pytest.raises(UndefinedStatistic, match=r"undefined on 1[01]\d\d of 2000 resamples"):
        paired_bootstrap(a, other=b)
    # the shuffles leave exactly half undefined (by symmetry): counted, not an error
    _p, made, exact, undefined = approximate_randomization(a, other=b)
    assert (made, exact, undefined) == (8, True, 4)


def test_systems_on_a_different_number_of_units_are_refused():
    with pytest.raises(ValueError, match="differ in shape"):
        paired_test(mean_of(np.ones(3)), other=mean_of(np.ones(4)))
