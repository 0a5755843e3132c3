"""What the pages do, apart from the web: read an uploaded or pasted text, ask about
it, score critical-question submissions into a leaderboard, draw a results report.

Uploads are saved under their (cleaned) names in a temporary folder of their own, so
the library reads them exactly as it reads files on the command line, and messages
name the upload, not the temporary path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from maieutic.errors import DataError, MaieuticError
from maieutic.web.jobs import Step

EVALUATORS = {
    "sts": "sts — embedding similarity to the references (the benchmark's default)",
    "chrf": "chrf — character n-gram overlap with the references (no model)",
}
"""The evaluators the leaderboard page offers (the ones that need no language model)."""

Asker = Callable[[str, str, Step], dict[str, Any]]
"""``(text, source, step) -> the ask result's JSON``: what the Ask page runs."""


def safe_name(filename: str | None, default: str) -> str:
    """An upload's file name reduced to a plain, harmless base name."""
    base = re.split(r"[\\/]", filename or "")[-1]
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", base).lstrip("._")[:100]
    return base or default


class Workspace:
    """A temporary folder for the uploads of one request (removed with ``remove``)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="maieutic-web-"))

    def save(self, filename: str | None, stream: BinaryIO, default: str = "upload") -> Path:
        """Copy an upload into the folder under a cleaned, unused name."""
        name = safe_name(filename, default)
        path, n = self.dir / name, 1
        while path.exists():  # two uploads of the same name both stay, as NAME-2, NAME-3
            n += 1
            path = self.dir / f"{Path(name).stem}-{n}{Path(name).suffix}"
        with open(path, "wb") as out:
            shutil.copyfileobj(stream, out)
        return path

    def message(self, exc: BaseException) -> str:
        """The error's text with the temporary folder left out of every path."""
        return self.clean(str(exc))

    def clean(self, text: str) -> str:
        """``text`` with the temporary folder left out of every path in it."""
        return text.replace(f"{self.dir}{os.sep}", "").replace(str(self.dir), "")

    def scrub(self, data: Any) -> Any:
        """JSON-ready ``data`` with the temporary folder left out of every string (a
        results file records where each submission came from: the upload's name)."""
        return json.loads(self.clean(json.dumps(data, ensure_ascii=False)))

    def remove(self) -> None:
        """Delete the folder and the uploads in it."""
        shutil.rmtree(self.dir, ignore_errors=True)


def read_ask_input(text: str, upload: Path | None) -> tuple[str, str]:
    """The checked text to ask about and where it came from: the pasted text, or the
    uploaded .txt/.md/.pdf file (a ``DataError`` for both, neither, binary or empty)."""
    from maieutic.ask import read_input
    from maieutic.ask.reading import check_text

    if upload is not None:
        if text.strip():
            raise DataError("paste a text or choose a file, not both")
        read, _ = read_input(str(upload))
        return read, upload.name
    return check_text(text, "the pasted text"), "pasted text"


def run_ask(text: str, source: str, step: Step) -> dict[str, Any]:
    """The ``ask`` result for ``text`` as JSON (format ``maieutic.ask/1``)."""
    from maieutic.ask import AskOptions, ask_text
    from maieutic.embed.encoder import shared_encoder

    # loaded once per process and kept: later asks skip the ~10 s load
    step("loading the embedding model (about 10 s the first time)")
    shared_encoder().load()
    return ask_text(text, AskOptions(), source=source, on_step=step).to_json()


def load_leaderboard_inputs(
    data_path: Path, submission_paths: Sequence[Path], *, skip_unknown: bool
) -> tuple[Any, list[Any]]:
    """The labelled dataset and the submissions, read and checked before any model work
    (the same checks as ``maieutic evaluate cqs``)."""
    from maieutic.evaluate.result import unique_names
    from maieutic.tasks import get_task
    from maieutic.tasks.cqs.evaluate import check_ids

    task = get_task("cqs")
    dataset = task.load_reference(data_path)
    loaded = [task.load_submission(path) for path in submission_paths]
    for submission in loaded:
        if task.check_submission:
            task.check_submission(submission, dataset)
        check_ids(dataset, submission, skip_unknown=skip_unknown)
    names = unique_names([s.name for s in loaded], [s.source for s in loaded])
    for submission, name in zip(loaded, names, strict=True):
        submission.name = name
    return dataset, loaded


def _evaluator(name: str) -> Any:
    from maieutic.embed.encoder import Encoder, shared_encoder
    from maieutic.registry import create

    if name not in EVALUATORS:
        raise DataError(f"unknown evaluator {name!r} (known: {', '.join(EVALUATORS)})")
    scorer = create("evaluator", "cqs", name)
    matcher = getattr(scorer, "matcher", None)
    encoder = getattr(matcher, "encoder", None)
    if isinstance(encoder, Encoder) and encoder.backend == "torch":
        # the process's shared copy of the same model: loaded once for every request
        matcher.encoder = shared_encoder(encoder.model_name)  # type: ignore[union-attr]
    return scorer


def run_leaderboard(
    dataset: Any, submissions: Sequence[Any], evaluator: str, skip_unknown: bool, step: Step
) -> dict[str, Any]:
    """Score the submissions; the leaderboard rows, the legend and the results file."""
    from maieutic.evaluate.results_file import ResultsFile
    from maieutic.provenance import provenance
    from maieutic.report.tables import fmt, legend
    from maieutic.tasks import get_task

    task = get_task("cqs")
    step("loading the evaluator" + (" and its embedding model" if evaluator == "sts" else ""))
    scorer = _evaluator(evaluator)
    step(f"scoring {len(submissions)} submission(s)")
    options = {
        "evaluator": evaluator,
        "data": Path(dataset.source).name,
        "submissions": [Path(s.source).name for s in submissions],
        "skip_unknown": skip_unknown,
        "via": "maieutic serve",
    }
    results = ResultsFile(None, "cqs", provenance(options), task.run_figures)
    scorer.evaluate(dataset, submissions, skip_unknown=skip_unknown, on_result=results.add)
    ranked = sorted(results.results, key=lambda r: -(r.score if r.score is not None else -1))
    rows = [
        {
            "rank": rank,
            "submission": r.submission,
            "score": fmt(r.score),
            "cells": [fmt(c.value(r), c.fmt) for c in task.columns],
            "signature": str(r.signature),
            "warnings": list(r.warnings),
        }
        for rank, r in enumerate(ranked, start=1)
    ]
    return {
        "evaluator": evaluator,
        "dataset": options["data"],
        "n_interventions": len(dataset.interventions),
        "headers": [(c.header, c.description) for c in task.columns],
        "rows": rows,
        "legend": legend(task),
        "warnings": list(dataset.warnings) + list(getattr(scorer.matcher, "warnings", [])),
        "payload": results.payload(),
    }


def run_report(paths: Sequence[Path], title: str | None, workspace: Workspace, step: Step) -> str:
    """The self-contained HTML report of the uploaded results files."""
    # imported here: the report package is large and only this page needs it
    from maieutic.report.html import render_report

    step(f"drawing the report of {len(paths)} file(s)")
    try:
        html = render_report(list(paths), title or None)
    except MaieuticError as exc:
        raise type(exc)(workspace.message(exc)) from None
    return workspace.clean(html)  # the report names its inputs: by upload name, not temp path
