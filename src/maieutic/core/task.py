"""The task contract: what every task gives the shared machinery — its data readers,
the check of a submission against its reference, how its results read in tables, the
statistics over its items, and how generation reads and writes its files.

It names no layer above it. What a task hands those layers is registered there, in
each layer's own table: the report (``maieutic.report.hooks.REPORT_HOOKS``), the web
app (``maieutic.web.hooks.LEADERBOARDS``) and the command line
(``maieutic.cli.COMMAND_HOOKS``); see docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from maieutic.core.task_io import TaskIO
from maieutic.registry import create

if TYPE_CHECKING:  # named for readers and type checkers
    from maieutic.evaluate.result import EvalResult
    from maieutic.evaluate.units import Units
    from maieutic.stats.items import ItemStatistic

T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class Column:
    """A leaderboard column (or a row of a one-submission summary): its header and how
    to read and show the value."""

    header: str
    value: Callable[[Any], Any]
    """From an ``EvalResult`` to the value (None shows as a dash; a string as it is)."""
    fmt: str = "{:.4f}"
    _: KW_ONLY
    description: str = ""
    """What the column measures, in one line, for legends."""
    empty: str = ""
    """Why the value can be missing, in one line, shown beside a dash in legends."""
    shown: Callable[[Any], bool] | None = None
    """Whether a one-submission summary shows the row for this result (default: always):
    for a figure that most results repeat under another name."""


class ReadsFile(Protocol):
    """A task's reader: a path to the loaded data (``DataError`` naming what is wrong)."""

    def __call__(self, path: str | Path, /) -> Any: ...


class ChecksSubmission(Protocol):
    """Refuses (``DataError``) a submission that makes no sense against a reference."""

    def __call__(self, submission: Any, reference: Any, /) -> None: ...


class OfResult(Protocol[T_co]):
    """Something read from one result (an ``EvalResult``)."""

    def __call__(self, result: EvalResult, /) -> T_co: ...


@dataclass(kw_only=True)
class Task:
    """What every task provides to the shared machinery, grouped by what it serves: its
    data (read by the run layer), how its results read in tables, and the statistics
    over its items. Every hook is typed."""

    # -- its data: what the run layer reads and writes -----------------------------------
    name: str
    description: str
    load_reference: ReadsFile
    """Reads the labelled reference data (the benchmark's dataset)."""
    load_submission: ReadsFile
    """Reads one system output (it must have ``name``, ``source`` and ``flags``)."""
    load_texts: ReadsFile | None = None
    """Reads the same file for an evaluator that needs no references (a reference-free
    judge): the texts, with or without references (default: ``load_reference``)."""
    check_submission: ChecksSubmission | None = None
    """Refuses a submission that makes no sense against this reference (a mix-up)."""
    io: TaskIO | None = None
    """How the library run layer reads the task's files and writes what it generates
    (``maieutic.core.task_io``; default: one reference file, one file per submission)."""

    # -- its results in tables (terminal, report, web) ------------------------------------
    score_description: str = ""
    """What the headline score measures, for legends."""
    columns: list[Column] = field(default_factory=list)
    """Leaderboard columns after the submission name and the score."""
    summary_rows: list[Column] | None = None
    """The rows of a one-submission summary after the score, a few headline figures
    each with its meaning (default: ``columns``; the results file has everything)."""
    run_figures: tuple[str, ...] = ()
    """Summary figures averaged over repeated runs besides the score."""
    unscored_reason: OfResult[str] | None = None
    """Why a result has no score, in one line, for the terminal tables, which list such
    results unranked, last."""

    # -- statistics over its items --------------------------------------------------------
    interval_statistic: OfResult[ItemStatistic | str] | None = None
    """The headline score as a function of a result's items, for the report's bootstrap
    intervals, or a string saying why there is none (default: the mean item score)."""
    paired_units: OfResult[Units | str] | None = None
    """The headline score as a sum over the task's units, for paired comparisons
    (``maieutic compare``, the leaderboards' marks), or a string saying why there are
    none."""
    spec: Any = None
    """How the registry built this task (set by ``maieutic.registry``)."""


def get_task(name: str) -> Task:
    """The registered task ``name`` (a usage error listing the known ones otherwise)."""
    return create("task", task=name, name=name)
