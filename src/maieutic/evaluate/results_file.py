"""The results file every ``maieutic evaluate`` writes, for any task.

It is rewritten (atomically) after each submission is scored, so a failure later in
a run loses nothing already computed, and says whether it is complete; a run over an
existing file keeps that file whole until it is done (``ResultsFile``). Layout::

    {"format": "maieutic.results/2", "task", "provenance": {...},
     "results": [EvalResult.to_json(), ...], "repeated_runs": {base name: {figure: {mean, std, n}}}}

The file is written and read through its typed record,
``maieutic.evaluate.results_record.ResultsRecord``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maieutic.data.files import read_keyed_records, rewritable, write_json
from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.results_record import ResultsRecord
from maieutic.evaluate.runs import group_runs, summarize_runs

RESULTS_FORMAT = ResultsRecord.FORMAT


class ResultsFile:
    """Collects results and keeps a file up to date with all of them.

    While the run goes on, the file says it is not complete (``"complete": false``
    and how many submissions were expected). When ``path`` already holds a file (a
    complete earlier run, say), progress goes to ``NAME.partial.json`` beside it, and
    ``path`` is replaced only once every submission is scored: a run killed half-way
    never leaves a valid-looking file with some of the runs in place of a whole one.
    """

    def __init__(
        self,
        path: str | Path | None,
        task: str,
        provenance: dict[str, Any],
        *,
        run_figures: Sequence[str] = (),
        expected: int | None = None,
    ) -> None:
        self.path = path
        self.task = task
        self.provenance = provenance
        self.run_figures = tuple(run_figures)
        self.expected = expected
        self.results: list[EvalResult] = []
        self.progress_path = progress_path(path)

    def add(self, result: EvalResult) -> None:
        """Keep ``result`` and rewrite the progress file."""
        self.results.append(result)
        if self.progress_path is not None:
            write_json(self.progress_path, self.payload(complete=False))

    def close(self, complete: bool = True) -> None:
        """Write what there is: with ``complete``, the whole file at ``path`` (standard
        output too when it is ``-``) and the progress file removed; without, the
        progress file stays as the last ``add`` left it (marked not complete)."""
        if self.path is None or not self.results:
            return
        if complete:
            write_json(self.path, self.payload(complete=True))
            if self.progress_path is not None and self.progress_path != Path(self.path):
                self.progress_path.unlink(missing_ok=True)
        elif self.progress_path is None:  # standard output: what there is, marked
            write_json(self.path, self.payload(complete=False))

    def record(self, complete: bool = True) -> ResultsRecord:
        """The whole file as its typed record."""
        return ResultsRecord(
            task=self.task,
            provenance=self.provenance,
            results=list(self.results),
            repeated_runs={
                name: summarize_runs(runs, self.run_figures)
                for name, runs in group_runs(self.results).items()
            },
            # a whole file is written as before the flag existed (same bytes)
            complete=None if complete else False,
            expected=None if complete else self.expected,
        )

    def payload(self, complete: bool = True) -> dict[str, Any]:
        """The whole file as JSON-ready data."""
        return self.record(complete).to_json()


def progress_path(path: str | Path | None) -> Path | None:
    """Where a run's progress is written: ``path`` itself when it is new,
    ``NAME.partial.json`` beside it when it holds a file already; None for standard
    output, a pipe or a device (written once, at the end)."""
    if not rewritable(path):
        return None
    path = Path(str(path))
    if not path.exists():
        return path
    return path.with_name(f"{path.stem}.partial{path.suffix or '.json'}")


def load_record(path: str | Path) -> ResultsRecord:
    """The results file at ``path`` as its typed record (a ``DataError`` naming the
    field when it is not one)."""
    data = read_keyed_records(path, "format")
    if data.get("format") not in (ResultsRecord.FORMAT, *ResultsRecord.OLDER):
        raise DataError(
            f"not a maieutic results file (format {data.get('format')!r}, "
            f"expected {RESULTS_FORMAT!r})",
            where=str(path),
        )
    return ResultsRecord.from_json(data, where=str(path))


def load_results(path: str | Path) -> list[EvalResult]:
    """The results stored in a results file."""
    return load_record(path).results
