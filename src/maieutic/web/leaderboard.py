"""The Leaderboard page's work: read the labelled data and the submissions, score
them with an evaluator the task offers, and rank them as ``maieutic evaluate`` does.

The page serves the first registered task that offers one (``LEADERBOARDS``);
everything task-specific comes from there and from the registry.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maieutic.core import Task
from maieutic.errors import DataError
from maieutic.web.hooks import LEADERBOARDS
from maieutic.web.jobs import Step


@functools.cache
def leaderboard_task() -> Task | None:
    """The task whose Leaderboard page is served: the first (by name) that offers one."""
    from maieutic.core import get_task
    from maieutic.registry import tasks

    for name in tasks():
        if LEADERBOARDS.get(name) is not None:
            return get_task(name)
    return None


def load_leaderboard_inputs(
    task: Task, data_path: Path, submission_paths: Sequence[Path], *, skip_unknown: bool
) -> tuple[Any, list[Any]]:
    """The labelled data and the submissions, read and checked before any model work
    (the same checks as ``maieutic evaluate``)."""
    from maieutic.evaluate.result import unique_names

    dataset = task.load_reference(data_path)
    loaded = [task.load_submission(path) for path in submission_paths]
    for submission in loaded:
        if task.check_submission:
            task.check_submission(submission, dataset)
        LEADERBOARDS.get(task.name).check_ids(dataset, submission, skip_unknown)
    names = unique_names([s.name for s in loaded], sources=[s.source for s in loaded])
    for submission, name in zip(loaded, names, strict=True):
        submission.name = name
    return dataset, loaded


def _evaluator(task: Task, name: str) -> tuple[Any, bool]:
    """The evaluator ``name`` and whether it embeds (its model is then the process's
    shared copy, loaded once for every request)."""
    from maieutic.embed.encoder import Encoder, shared_encoder
    from maieutic.registry import create

    offered = LEADERBOARDS.get(task.name).evaluators
    if name not in offered:
        raise DataError(f"unknown evaluator {name!r} (known: {', '.join(offered)})")
    built = create("evaluator", task=task.name, name=name)
    matcher = getattr(built, "matcher", None)
    encoder = getattr(matcher, "encoder", None)
    if isinstance(encoder, Encoder) and encoder.backend == "torch":
        matcher.encoder = shared_encoder(encoder.model_name)  # type: ignore[union-attr]
    return built, isinstance(encoder, Encoder)


def _rows(task: Task, results: Sequence[Any], marks: Any) -> list[dict[str, Any]]:
    """The ranked rows; the ``vs #1`` cell last when ``marks`` has the tests."""
    from maieutic.report.tables import fmt, top_cell

    tested = not isinstance(marks, str)
    ranked = sorted(results, key=lambda r: -(r.score if r.score is not None else -1))
    return [
        {
            "rank": rank,
            "submission": r.submission,
            "score": fmt(r.score),
            "cells": [fmt(c.value(r), c.fmt) for c in task.columns]
            + ([top_cell(marks, r)] if tested else []),
            "signature": str(r.signature),
            "warnings": list(r.warnings),
        }
        for rank, r in enumerate(ranked, start=1)
    ]


def dataset_warnings(dataset: Any) -> list[str]:
    """What the labelled data's reader tolerated, each warning prefixed with the
    uploaded file's name (as ``maieutic evaluate`` prints them): a page scoring several
    files says which one a warning is about."""
    name = Path(dataset.source).name
    return [f"{name}: {warning}" for warning in getattr(dataset, "warnings", [])]


def run_leaderboard(
    task: Task,
    dataset: Any,
    submissions: Sequence[Any],
    *,
    evaluator: str,
    skip_unknown: bool,
    step: Step,
) -> dict[str, Any]:
    """Score the submissions; the leaderboard rows (each tested against the top one),
    the legend and the results file."""
    from maieutic.report.tables import legend, marks_against_top, top_note
    from maieutic.run import evaluate

    built, embeds = _evaluator(task, evaluator)
    step("loading the evaluator" + (" and its embedding model" if embeds else ""))
    step(f"scoring {len(submissions)} submission(s)")
    options = {
        "evaluator": evaluator,
        "data": Path(dataset.source).name,
        "submissions": [Path(s.source).name for s in submissions],
        "skip_unknown": skip_unknown,
        "via": "maieutic serve",
    }
    run = evaluate(
        task.name,
        dataset,
        submissions=list(submissions),
        evaluator=built,
        skip_unknown=skip_unknown,
        provenance=options,
    )
    marks = marks_against_top(task, run.results)
    note = top_note(marks)
    headers = [(c.header, c.description) for c in task.columns]
    return {
        "evaluator": evaluator,
        "dataset": options["data"],
        "size": LEADERBOARDS.get(task.name).describe(dataset),
        "headers": headers + ([("vs #1", note or "")] if not isinstance(marks, str) else []),
        "rows": _rows(task, run.results, marks),
        "legend": legend(task) + ([note] if note else []),
        "warnings": dataset_warnings(dataset) + run.evaluator_warnings,
        "payload": run.to_json(),
    }
