"""Paired significance of the difference between two systems scored on the same units.

Both tests work on *additive* statistics: each unit (an intervention, an argument, a
question, a document) contributes a row of counts, and the score is a function of the
column sums (``AdditiveStatistic``). A mean is ``[value, 1]`` per unit finished by
``sum/count``; a macro-F1 is per-class true positives and errors per unit finished by
the F1 formula. Resampling then only re-weights rows, so thousands of resamples cost a
few matrix products, and a statistic that is not a plain mean (macro-F1, a mean over
the units that have a value) is resampled exactly as it is computed.

- ``paired_bootstrap``: units are drawn with replacement, the same draw for both
  systems; the percentile interval of ``other − baseline`` (Koehn, 2004; sacrebleu's
  ``--paired-bs``).
- ``approximate_randomization``: each unit's two rows are swapped between the systems
  with probability ½; the p-value is the share of shuffles whose absolute difference
  is at least the observed one, ``(c + 1) / (R + 1)`` as sacrebleu's ``--paired-ar``
  (Riezler and Maxwell, 2005). When ``2**n`` shuffles are no more than the trials
  asked for, every shuffle is enumerated and the p-value is exact, ``c / 2**n``, as
  ``scipy.stats.permutation_test`` does for paired samples.

Shuffles and resamples on which a statistic is undefined (a mean over no unit with a
value) are counted, left out, and reported; more than half undefined is an error.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from maieutic.stats._errors import UndefinedStatistic
from maieutic.stats.bootstrap import DEFAULT_SEED

N_RESAMPLES = 2000
"""Paired-bootstrap resamples (the report's per-system intervals use as many)."""
N_TRIALS = 10_000
"""Approximate-randomization shuffles (sacrebleu's default)."""
CONFIDENCE = 0.95
_CHUNK = 1000
"""Resamples or shuffles computed at once (bounds memory: chunk × units floats)."""

Finish = Callable[[np.ndarray], np.ndarray]
"""Column sums, one row per resample ``(m, k)`` → the statistic per row ``(m,)``
(NaN where it is undefined)."""


@dataclass(frozen=True)
class AdditiveStatistic:
    """A statistic made from column sums of per-unit counts."""

    counts: np.ndarray
    """``(units, k)``: what each unit adds."""
    finish: Finish

    def value(self) -> float:
        """The statistic on all units (``UndefinedStatistic`` when it has none)."""
        found = float(self.finish(self.counts.sum(axis=0, keepdims=True))[0])
        if np.isnan(found):
            raise UndefinedStatistic("the statistic is undefined on these units")
        return found

    def weighted(self, weights: np.ndarray) -> np.ndarray:
        """The statistic under each row of unit ``weights`` ``(m, units)``."""
        return self.finish(weights @ self.counts)


def mean_of(values: np.ndarray) -> AdditiveStatistic:
    """The mean of ``values`` over the units that have one (NaN: no value)."""
    values = np.asarray(values, dtype=float)
    present = ~np.isnan(values)
    counts = np.column_stack([np.where(present, values, 0.0), present.astype(float)])
    return AdditiveStatistic(counts, ratio)


def ratio(sums: np.ndarray) -> np.ndarray:
    """Column 0 over column 1 (NaN where column 1 is 0): a mean from its sums."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(
            sums[:, 1] > 0, sums[:, 0] / np.where(sums[:, 1] > 0, sums[:, 1], 1), np.nan
        )


@dataclass(frozen=True)
class PairedTest:
    """``other − baseline`` with its paired-bootstrap interval and randomization p-value."""

    baseline: float
    other: float
    difference: float
    low: float
    high: float
    p_value: float
    n_units: int
    confidence: float
    n_resamples: int
    n_trials: int
    """Shuffles made (``2**n_units`` when ``exact``)."""
    exact: bool
    seed: int
    n_undefined: int
    """Resamples and shuffles on which a statistic was undefined (left out)."""

    def significant(self, alpha: float | None = None) -> bool:
        """Whether the p-value is below ``alpha`` (default: 1 − confidence)."""
        return self.p_value < (1 - self.confidence if alpha is None else alpha)


def _check_pair(baseline: AdditiveStatistic, other: AdditiveStatistic) -> int:
    n = baseline.counts.shape[0]
    if other.counts.shape != baseline.counts.shape:
        raise ValueError(
            f"the systems' counts differ in shape: {baseline.counts.shape} and {other.counts.shape}"
        )
    if n < 1:
        raise UndefinedStatistic("no units to compare")
    return n


def _chunks(total: int) -> list[int]:
    return [min(_CHUNK, total - start) for start in range(0, total, _CHUNK)]


def paired_bootstrap(
    baseline: AdditiveStatistic,
    other: AdditiveStatistic,
    *,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float, int]:
    """The percentile interval of ``other − baseline`` over units resampled together,
    and how many resamples left the difference undefined. Indices are drawn as
    ``rng.integers(0, n, (n_resamples, n))`` from ``numpy.random.default_rng(seed)``."""
    n = _check_pair(baseline, other)
    rng = np.random.default_rng(seed)
    differences = []
    for size in _chunks(n_resamples):
        drawn = rng.integers(0, n, (size, n))
        weights = np.zeros((size, n))
        np.add.at(weights, (np.arange(size)[:, None], drawn), 1.0)
        differences.append(other.weighted(weights) - baseline.weighted(weights))
    found = np.concatenate(differences)
    defined = found[~np.isnan(found)]
    undefined = n_resamples - defined.size
    if defined.size < n_resamples / 2:
        raise UndefinedStatistic(
            f"the difference is undefined on {undefined} of {n_resamples} resamples"
        )
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(defined, [tail, 100 - tail])
    return float(low), float(high), undefined


def is_exact(n_units: int, n_trials: int) -> bool:
    """Whether every one of the ``2**n_units`` shuffles is made (no more than asked)."""
    return n_units <= 20 and 2**n_units <= n_trials


def _swaps(n: int, n_trials: int, rng: np.random.Generator) -> tuple[list[np.ndarray], bool]:
    """Swap masks ``(m, n)`` in chunks: every pattern when there are no more than
    ``n_trials`` of them (exact), else ``n_trials`` random ones."""
    if is_exact(n, n_trials):
        every = np.array(list(itertools.product((0.0, 1.0), repeat=n)))
        return [every], True
    return [(rng.random((size, n)) < 0.5).astype(float) for size in _chunks(n_trials)], False


def approximate_randomization(
    baseline: AdditiveStatistic,
    other: AdditiveStatistic,
    *,
    n_trials: int = N_TRIALS,
    seed: int = DEFAULT_SEED,
) -> tuple[float, int, bool, int]:
    """The two-sided p-value of ``other − baseline`` under random swaps of each unit's
    rows, with the number of shuffles, whether it is exact, and how many shuffles were
    undefined."""
    n = _check_pair(baseline, other)
    observed = abs(other.value() - baseline.value())
    # ties of the absolute difference count as extreme; sums in another order differ
    # in the last bits, so "equal" is equal up to a relative 1e-9 (scipy does the same)
    bar = observed - 1e-9 * max(observed, 1.0)
    rng = np.random.default_rng(seed)
    masks, exact = _swaps(n, n_trials, rng)
    extreme = made = undefined = 0
    a, b = baseline.counts, other.counts
    for swap in masks:
        keep = 1.0 - swap
        shuffled_a = baseline.finish(keep @ a + swap @ b)
        shuffled_b = other.finish(swap @ a + keep @ b)
        difference = np.abs(shuffled_b - shuffled_a)
        defined = ~np.isnan(difference)
        undefined += int((~defined).sum())
        extreme += int((difference[defined] >= bar).sum())
        made += swap.shape[0]
    if undefined > made / 2:
        raise UndefinedStatistic(f"the difference is undefined on {undefined} of {made} shuffles")
    p = extreme / (made - undefined) if exact else (extreme + 1) / (made - undefined + 1)
    return float(p), made, exact, undefined


def paired_test(
    baseline: AdditiveStatistic,
    other: AdditiveStatistic,
    *,
    n_resamples: int = N_RESAMPLES,
    n_trials: int = N_TRIALS,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
) -> PairedTest:
    """Both tests on one pair of systems (the same seed for each)."""
    a, b = baseline.value(), other.value()
    low, high, boot_undefined = paired_bootstrap(
        baseline, other, n_resamples=n_resamples, confidence=confidence, seed=seed
    )
    p, made, exact, ar_undefined = approximate_randomization(
        baseline, other, n_trials=n_trials, seed=seed
    )
    return PairedTest(
        baseline=a,
        other=b,
        difference=b - a,
        low=low,
        high=high,
        p_value=p,
        n_units=baseline.counts.shape[0],
        confidence=confidence,
        n_resamples=n_resamples,
        n_trials=made,
        exact=exact,
        seed=seed,
        n_undefined=boot_undefined + ar_undefined,
    )
