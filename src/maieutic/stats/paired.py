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

Both tests work in blocks of resamples (or shuffles) of at most ``_BLOCK_CELLS`` unit
cells, so memory stays bounded whatever the units × resamples; the random numbers are
drawn block after block from one generator, the same stream as in one piece. A
resample's column sums are sums over its units in their order (numpy's pairwise
``add.reduce``), not a matrix product: a BLAS product rounds differently with the
number of rows and of threads, so its figures would change with the block size and
the machine; these do not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from maieutic.stats._errors import UndefinedStatistic
from maieutic.stats.bootstrap import DEFAULT_SEED

N_RESAMPLES = 2000
"""Paired-bootstrap resamples (the report's per-system intervals use as many)."""
N_TRIALS = 10_000
"""Approximate-randomization shuffles (sacrebleu's default)."""
CONFIDENCE = 0.95
_BLOCK_CELLS = 1 << 21
"""Unit cells (resamples × units) computed at once: about 16 MB per array, so the
tests' memory does not grow with units × resamples (a block holds one resample at
least, so it grows with the units alone)."""

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


@dataclass(frozen=True, kw_only=True)
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


def _check_pair(baseline: AdditiveStatistic, *, other: AdditiveStatistic) -> int:
    n = baseline.counts.shape[0]
    if other.counts.shape != baseline.counts.shape:
        raise ValueError(
            f"the systems' counts differ in shape: {baseline.counts.shape} and {other.counts.shape}"
        )
    if n < 1:
        raise UndefinedStatistic("no units to compare")
    return n


def _blocks(total: int, *, n: int) -> Iterator[int]:
    """Sizes of the blocks of ``total`` resamples of ``n`` units (the last one short)."""
    rows = max(1, _BLOCK_CELLS // n)
    for start in range(0, total, rows):
        yield min(rows, total - start)


def _columns(statistic: AdditiveStatistic) -> list[np.ndarray]:
    return [np.ascontiguousarray(column) for column in statistic.counts.T]


def _sums(columns: Iterable[np.ndarray]) -> np.ndarray:
    """Column sums ``(m, k)`` of the statistic's columns, each ``(m, n)``: a resample's
    values unit by unit (made one at a time: a generator keeps one in memory)."""
    return np.stack([np.add.reduce(column, axis=1) for column in columns], axis=1)


def _swapped(swap: np.ndarray, *, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Each shuffle's values of one column ``(m, n)``: ``theirs`` where units are
    swapped, ``mine`` elsewhere. A column the two systems share (a mean's count of
    units with a value, mostly) is the same whatever the swaps: it is not copied."""
    if np.array_equal(mine, theirs):
        return np.broadcast_to(mine, swap.shape)
    return np.where(swap, theirs, mine)


def paired_bootstrap(
    baseline: AdditiveStatistic,
    *,
    other: AdditiveStatistic,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float, int]:
    """The percentile interval of ``other − baseline`` over units resampled together,
    and how many resamples left the difference undefined. Indices are drawn as
    ``rng.integers(0, n, (n_resamples, n))`` from ``numpy.random.default_rng(seed)``."""
    n = _check_pair(baseline, other=other)
    rng = np.random.default_rng(seed)
    a, b = _columns(baseline), _columns(other)
    found = np.empty(n_resamples)
    done = 0
    for size in _blocks(n_resamples, n=n):
        drawn = rng.integers(0, n, (size, n))
        base = baseline.finish(_sums(column[drawn] for column in a))
        found[done : done + size] = other.finish(_sums(column[drawn] for column in b)) - base
        done += size
    defined = found[~np.isnan(found)]
    undefined = n_resamples - defined.size
    if defined.size < n_resamples / 2:
        raise UndefinedStatistic(
            f"the difference is undefined on {undefined} of {n_resamples} resamples"
        )
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(defined, [tail, 100 - tail])
    return float(low), float(high), undefined


def is_exact(n_units: int, *, n_trials: int) -> bool:
    """Whether every one of the ``2**n_units`` shuffles is made (no more than asked)."""
    return n_units <= 20 and 2**n_units <= n_trials


def _swaps(n: int, *, n_trials: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Swap masks ``(m, n)``, block after block: every pattern when there are no more
    than ``n_trials`` of them (``is_exact``), else ``n_trials`` random ones."""
    if is_exact(n, n_trials=n_trials):
        # pattern i swaps unit j when bit n-1-j of i is set (itertools.product's order)
        bits = np.arange(n - 1, -1, -1)
        start = 0
        for size in _blocks(2**n, n=n):
            yield (np.arange(start, start + size)[:, None] >> bits) & 1 == 1
            start += size
        return
    for size in _blocks(n_trials, n=n):
        yield rng.random((size, n)) < 0.5


def approximate_randomization(
    baseline: AdditiveStatistic,
    *,
    other: AdditiveStatistic,
    n_trials: int = N_TRIALS,
    seed: int = DEFAULT_SEED,
) -> tuple[float, int, bool, int]:
    """The two-sided p-value of ``other − baseline`` under random swaps of each unit's
    rows, with the number of shuffles, whether it is exact, and how many shuffles were
    undefined."""
    n = _check_pair(baseline, other=other)
    observed = abs(other.value() - baseline.value())
    # ties of the absolute difference count as extreme; sums in another order differ
    # in the last bits, so "equal" is equal up to a relative 1e-9 (scipy does the same)
    bar = observed - 1e-9 * max(observed, 1.0)
    rng = np.random.default_rng(seed)
    exact = is_exact(n, n_trials=n_trials)
    extreme = made = undefined = 0
    a, b = _columns(baseline), _columns(other)
    for swap in _swaps(n, n_trials=n_trials, rng=rng):
        sums_a = _sums(_swapped(swap, mine=x, theirs=y) for x, y in zip(a, b, strict=True))
        sums_b = _sums(_swapped(swap, mine=y, theirs=x) for x, y in zip(a, b, strict=True))
        difference = np.abs(other.finish(sums_b) - baseline.finish(sums_a))
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
    *,
    other: AdditiveStatistic,
    n_resamples: int = N_RESAMPLES,
    n_trials: int = N_TRIALS,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
) -> PairedTest:
    """Both tests on one pair of systems (the same seed for each)."""
    a, b = baseline.value(), other.value()
    low, high, boot_undefined = paired_bootstrap(
        baseline, other=other, n_resamples=n_resamples, confidence=confidence, seed=seed
    )
    p, made, exact, ar_undefined = approximate_randomization(
        baseline, other=other, n_trials=n_trials, seed=seed
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
