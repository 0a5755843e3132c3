"""The results file every ``maieutic evaluate`` writes, for any task.

It is rewritten (atomically) after each submission is scored, so a failure later in
a run loses nothing already computed. Layout::

    {"format": "maieutic.results/2", "task", "provenance": {...},
     "results": [EvalResult.to_json(), ...], "repeated_runs": {base name: {figure: {mean, std, n}}}}

The file is written and read through its typed record, ``maieutic.records.ResultsRecord``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maieutic.data.files import read_keyed_records, rewritable, write_json
from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.runs import group_runs, summarize_runs
from maieutic.records.results import ResultsRecord

RESULTS_FORMAT = ResultsRecord.FORMAT


class ResultsFile:
    """Collects results and keeps ``path`` (if any) up to date with all of them."""

    def __init__(
        self,
        path: str | Path | None,
        task: str,
        provenance: dict[str, Any],
        run_figures: Sequence[str] = (),
    ) -> None:
        self.path = path
        self.task = task
        self.provenance = provenance
        self.run_figures = tuple(run_figures)
        self.results: list[EvalResult] = []

    def add(self, result: EvalResult) -> None:
        """Keep ``result`` and rewrite the file."""
        self.results.append(result)
        if rewritable(self.path):
            write_json(self.path, self.payload())

    def close(self) -> None:
        """Write what there is (to standard output too when the path is ``-``)."""
        if self.path is not None and self.results:
            write_json(self.path, self.payload())

    def record(self) -> ResultsRecord:
        """The whole file as its typed record."""
        return ResultsRecord(
            task=self.task,
            provenance=self.provenance,
            results=list(self.results),
            repeated_runs={
                name: summarize_runs(runs, self.run_figures)
                for name, runs in group_runs(self.results).items()
            },
        )

    def payload(self) -> dict[str, Any]:
        """The whole file as JSON-ready data."""
        return self.record().to_json()


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
