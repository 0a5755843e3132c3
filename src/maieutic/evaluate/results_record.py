"""The results file every ``maieutic evaluate`` writes, for any task."""

from __future__ import annotations

from typing import Any

from maieutic.evaluate.result import EvalResult
from maieutic.records.base import Record, optional, record


@record
class ResultsRecord(Record):
    """``maieutic.results/2``: every submission scored in one run, and the mean ± std of
    repeated runs (``NAME-runK`` submissions) by base name."""

    FORMAT = "maieutic.results/2"
    WRITTEN_BY = "maieutic evaluate <task> --out FILE"
    HOLDS_RESULTS = True

    task: str
    provenance: dict[str, Any] | None = optional()
    results: list[EvalResult]
    repeated_runs: dict[str, dict[str, Any]] | None = optional()
    """{base name: {figure: {mean, std, n}}}."""
    complete: bool | None = optional()
    """False while the run is going on, or when it stopped before scoring every
    submission (then ``expected`` says how many it was given); absent from a whole
    file (as in files written before the field existed)."""
    expected: int | None = optional()
    """How many submissions the run was given, in a file that is not complete."""

    @property
    def is_complete(self) -> bool:
        """Whether every submission the run was given is in the file."""
        return self.complete is not False
