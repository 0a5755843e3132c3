"""Kappa's interval over groups, against a plain loop with scikit-learn's kappa on the
same draws (an independent count of every resample's items)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from maieutic.stats import UndefinedStatistic, grouped_kappa_interval


def loop_oracle(a, b, groups, *, n_resamples, seed):
    names = list(dict.fromkeys(groups))
    members = {g: [i for i, x in enumerate(groups) if x == g] for g in names}
    draws = np.random.default_rng(seed).integers(0, len(names), size=(n_resamples, len(names)))
    values = []
    for row in draws:
        idx = [i for d in row for i in members[names[d]]]
        values.append(cohen_kappa_score([a[i] for i in idx], [b[i] for i in idx]))
    return cohen_kappa_score(a, b), *np.percentile(values, [2.5, 97.5])


def test_the_interval_is_the_plain_loops_on_the_same_draws():
    rng = np.random.default_rng(7)
    labels = ["Useful", "Unhelpful", "Invalid", "NAE"]
    groups = [f"I{g}" for g in range(12) for _ in range(rng.integers(3, 9))]
    a = [labels[i] for i in rng.integers(0, 4, len(groups))]
    # agreeing more in some groups than others, so the groups matter
    b = [x if rng.random() < 0.3 + 0.05 * int(g[1:]) else labels[rng.integers(0, 4)]
         for x, g in zip(a, groups, strict=True)]  # fmt: skip
    found = grouped_kappa_interval(a, b, groups=groups, n_resamples=300, seed=3)
    estimate, low, high = loop_oracle(a, b, groups, n_resamples=300, seed=3)
    assert found.estimate == pytest.approx(estimate, abs=1e-12)
    assert (found.low, found.high) == pytest.approx((low, high), abs=1e-12)
    assert found.low < found.estimate < found.high and found.n_undefined == 0


def test_groups_alike_give_no_width_and_one_group_cannot_vary():
    # every group the same two items, one agreement and one not: each resample is the
    # whole table scaled, so kappa never moves. By hand: p_o = 1/2; a says x, y half
    # each and b always x, so p_e = 1/2 · 1 + 1/2 · 0 = 1/2, and kappa = 0
    a, b = ["x", "y"] * 5, ["x", "x"] * 5
    groups = [g for g in range(5) for _ in range(2)]
    found = grouped_kappa_interval(a, b, groups=groups, n_resamples=50)
    assert found.estimate == found.low == found.high == 0.0


def test_resamples_that_draw_one_category_are_counted_and_too_many_refuse():
    # two groups: one where both say x, one where both say y. Half the resamples draw
    # one group twice (kappa undefined); the rest draw both (kappa 1)
    a = b = ["x", "x", "y", "y"]
    groups = ["g1", "g1", "g2", "g2"]
    found = grouped_kappa_interval(a, b, groups=groups, n_resamples=400, seed=1)
    assert found.estimate == 1.0 and found.low == found.high == 1.0
    assert 150 < found.n_undefined < 250
    # with few resamples, whether most are undefined depends on the draws: refused
    # exactly when more than half of the draws are one group twice
    refused = 0
    for seed in range(20):
        draws = np.random.default_rng(seed).integers(0, 2, size=(5, 2))
        one_group = sum(row[0] == row[1] for row in draws)
        if one_group > 5 / 2:
            refused += 1
            with pytest.raises(UndefinedStatistic, match=f"undefined on {one_group} of 5"):
                grouped_kappa_interval(a, b, groups=groups, n_resamples=5, seed=seed)
        else:
            assert grouped_kappa_interval(a, b, groups=groups, n_resamples=5, seed=seed).low == 1.0
    assert 0 < refused < 20  # both ways were seen
