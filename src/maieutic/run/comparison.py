"""``maieutic.compare``: paired significance between results on the same units.

It does what ``maieutic compare`` does: reads results files (or takes results already
in memory), asks their task how each score is made from units, refuses results that
are not comparable, and tests each system against the baseline, or every pair.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from maieutic.errors import DataError
from maieutic.evaluate.compare import Comparison, Settings, build_systems, compare_systems
from maieutic.evaluate.result import EvalResult
from maieutic.stats.bootstrap import DEFAULT_SEED
from maieutic.stats.paired import CONFIDENCE, N_RESAMPLES, N_TRIALS


def _results(inputs: Iterable[Any]) -> list[tuple[str, EvalResult]]:
    """``(where, result)`` for each result in the inputs: results files (paths), an
    ``Evaluation``, or results."""
    from maieutic.evaluate.results_file import load_record

    found: list[tuple[str, EvalResult]] = []
    for given in inputs:
        if isinstance(given, str | Path):
            record = load_record(given)
            if not record.is_complete:
                raise DataError("the run that wrote this file did not finish", where=str(given))
            found += [(str(given), r) for r in record.results]
        elif isinstance(given, EvalResult):
            found.append(("", given))
        elif hasattr(given, "results"):
            found += [("", r) for r in given.results]
        else:
            raise DataError(
                f"cannot compare a {type(given).__name__}: give results files or results"
            )
    return found


def compare(
    results: Iterable[Any],
    *,
    baseline: str | None = None,
    pairwise: bool = False,
    n_resamples: int = N_RESAMPLES,
    n_trials: int = N_TRIALS,
    confidence: float = CONFIDENCE,
    seed: int = DEFAULT_SEED,
) -> Comparison:
    """Each system in ``results`` against ``baseline`` (default: the first), or every
    pair with ``pairwise``: the difference, its paired-bootstrap interval over the
    task's units and the approximate-randomization p-value (seeded: the same inputs
    always give the same figures). ``results`` are results files, ``Evaluation``s or
    ``EvalResult``s of one task, made under one signature, on the same units."""
    from maieutic.core import get_task

    found = _results(results)
    if not found:
        raise DataError("no results to compare")
    tasks = sorted({r.task for _, r in found})
    if len(tasks) > 1:
        raise DataError(f"these results are of different tasks ({', '.join(tasks)})")
    task = get_task(tasks[0])
    if task.paired_units is None:
        raise DataError(f"the task {task.name!r} does not say how its score is made from units")
    systems = build_systems(found, task.paired_units)
    settings = Settings(
        n_resamples=n_resamples, n_trials=n_trials, confidence=confidence, seed=seed
    )
    return compare_systems(
        task.name, systems, baseline=baseline, every_pair=pairwise, settings=settings
    )
