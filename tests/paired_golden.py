"""The paired tests' figures on fixed inputs, kept as golden values: the block size,
the BLAS's threads and the machine must not change one bit of them.

``python -m tests.paired_golden [FILE]`` writes them from the code as it is (default
``tests/fixtures/paired/golden.json``). ``golden.json`` was written by the code that
works in blocks (issue 50) and must never need rewriting; ``before-blocks.json`` by
the code before it (``OPENBLAS_NUM_THREADS=2``), against which only the interval ends
moved, in their last bits (``tests/test_compare_blocks.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from maieutic.stats import UndefinedStatistic
from maieutic.stats.paired import (
    AdditiveStatistic,
    approximate_randomization,
    mean_of,
    paired_bootstrap,
)

FIXTURES = Path(__file__).parent / "fixtures" / "paired"
GOLDEN = FIXTURES / "golden.json"
"""The figures of the tests as computed in blocks (issue 50): pinned to the bit."""
BEFORE_BLOCKS = FIXTURES / "before-blocks.json"
"""The figures of the code before (issue 50): one BLAS matrix product per 1,000
resamples, whose last bits change with the BLAS's threads (written with 2)."""


def _macro_f1(sums: np.ndarray) -> np.ndarray:
    # three classes: columns 0-2 true positives, 3-5 errors (as FOCUS's macro-F1)
    tp, wrong = sums[:, :3], sums[:, 3:]
    denominator = 2 * tp + wrong
    f1 = np.divide(2 * tp, denominator, out=np.zeros(tp.shape), where=denominator > 0)
    return f1.mean(axis=-1)


def _pair(kind: str, n: int, seed: int) -> tuple[AdditiveStatistic, AdditiveStatistic]:
    rng = np.random.default_rng(seed)
    if kind == "f1":
        a = rng.integers(0, 3, (n, 6)).astype(float)
        b = rng.integers(0, 3, (n, 6)).astype(float)
        return AdditiveStatistic(a, _macro_f1), AdditiveStatistic(b, _macro_f1)
    a = rng.random(n)
    b = np.clip(a + rng.normal(0.02, 0.3, n), 0, 1)
    if kind == "sparse":  # most units without a value: some resamples undefined
        a[rng.random(n) < 0.6] = np.nan
        b[np.isnan(a)] = np.nan
    elif kind == "thirds":  # scores in thirds, as critical questions' (many ties)
        a, b = np.round(a * 3) / 3, np.round(b * 3) / 3
    return mean_of(a), mean_of(b)


# kind, units, resamples, trials, seed: odd sizes, sizes below, at and above one
# block, exact and random shuffles, statistics of 2 and 6 columns
CASES: list[tuple[str, int, int, int, int]] = [
    ("mean", 1, 100, 100, 12345),
    ("mean", 3, 101, 100, 1),
    ("sparse", 7, 999, 1000, 2),
    ("thirds", 13, 2000, 10_000, 12345),
    ("mean", 21, 1001, 1001, 3),
    ("thirds", 257, 2345, 10_001, 12345),
    ("f1", 777, 1500, 2500, 7),
    ("sparse", 1001, 2000, 3001, 11),
    ("mean", 4999, 1000, 1000, 0),
    ("thirds", 12_345, 2000, 10_000, 12345),
    ("f1", 30_011, 1234, 2345, 99),
]


def _hex(value: float) -> str:
    return float(value).hex()


def figures(kind: str, n: int, resamples: int, trials: int, seed: int) -> dict[str, object]:
    """Both tests' figures on one case, floats as exact hexadecimal strings."""
    a, b = _pair(kind, n, seed)
    out: dict[str, object] = {}
    for confidence in (0.95, 0.5, 0.999):
        try:
            low, high, undefined = paired_bootstrap(
                a, other=b, n_resamples=resamples, confidence=confidence, seed=seed
            )
            out[f"bootstrap@{confidence}"] = [_hex(low), _hex(high), undefined]
        except UndefinedStatistic as exc:
            out[f"bootstrap@{confidence}"] = str(exc)
    p, made, exact, undefined = approximate_randomization(a, other=b, n_trials=trials, seed=seed)
    out["randomization"] = [_hex(p), made, exact, undefined]
    return out


# units, systems, options of maieutic compare: whole comparisons from results files
FILE_CASES: list[tuple[int, int, dict[str, object]]] = [
    (1001, 3, {"pairwise": True}),
    (10_007, 2, {"n_resamples": 1234, "n_trials": 2345, "seed": 5, "confidence": 0.9}),
]


def comparisons(folder: Path, n: int, systems: int, options: dict[str, object]) -> object:
    """``maieutic.compare``'s comparisons (as in its JSON) on a results file made by
    ``tests.large_results``."""
    import maieutic
    from tests.large_results import large_results, sample_results

    made = large_results(sample_results(folder), n, folder / f"{n}-{systems}.json", systems=systems)
    found = maieutic.compare([made], **options).to_json()["comparisons"]  # type: ignore[arg-type]
    return json.loads(json.dumps(found))


def every_case(folder: Path) -> Iterator[tuple[str, Callable[[], object]]]:
    """``(name, compute)`` for each case (results files made in ``folder``)."""
    for case in CASES:
        yield "-".join(map(str, case)), lambda case=case: figures(*case)
    for n, systems, options in FILE_CASES:
        name = f"compare-{n}-{systems}-" + ",".join(f"{k}={v}" for k, v in options.items())
        yield name, lambda n=n, s=systems, o=options: comparisons(folder, n, s, o)


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        found = {name: compute() for name, compute in every_case(Path(folder))}
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else GOLDEN
    target.write_text(json.dumps(found, indent=1) + "\n")
    print(f"wrote {target}")
