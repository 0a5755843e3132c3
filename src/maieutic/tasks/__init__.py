"""The task families. Each is a subpackage that registers, by name, its ``Task`` (data
loaders and how its results are shown), evaluators, judges, generators, selectors and
prompting strategies with ``maieutic.registry.register``; see docs/adding-a-task.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from maieutic.registry import create

if TYPE_CHECKING:  # named for readers and type checkers; never imported at run time
    from maieutic.cli import CommandGroups
    from maieutic.evaluate.result import EvalResult
    from maieutic.evaluate.units import Units
    from maieutic.report.hooks import ItemStatistic, ReportFormat, TextSource
    from maieutic.report.html.templating import Block
    from maieutic.tasks.io import TaskIO
    from maieutic.web.hooks import LeaderboardPage

T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class Column:
    """A leaderboard column (or a row of a one-submission summary): its header and how
    to read and show the value."""

    header: str
    value: Callable[[Any], Any]
    """From an ``EvalResult`` to the value (None shows as a dash; a string as it is)."""
    fmt: str = "{:.4f}"
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


class ReportBlocks(Protocol):
    """The task's detailed report blocks: ``(entries, texts) -> [Block]``."""

    def __call__(self, entries: list[Any], texts: Any, /) -> list[Block]: ...


class InputHint(Protocol):
    """What a JSON file without a ``format`` field is, when it is one of the task's
    inputs: the report's one-line error (None otherwise)."""

    def __call__(self, data: dict[str, Any], /) -> str | None: ...


class AddsCommands(Protocol):
    """Adds the task's commands to the command tree."""

    def __call__(self, groups: CommandGroups, /) -> None: ...


@dataclass
class Task:
    """What every task provides to the shared machinery, grouped by what it serves: its
    data (read by the run layer), how its results read in tables, the statistics over
    its items, the HTML report, and the command line and web app. Every hook is typed;
    the types of the layers above (report, web, command line) are named for readers and
    checkers only, never imported at run time."""

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
    (``maieutic.tasks.io``; default: one reference file, one file per submission)."""

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

    # -- the HTML report ------------------------------------------------------------------
    title: str = ""
    """The heading of the task's section in reports (default: "Task: <name>")."""
    axis_label: str = "score"
    """What the headline score is called on plots ("macro-F1", "rubric total")."""
    report_blocks: ReportBlocks | None = None
    """The task's detailed report blocks, after the shared summary, runs and intervals
    (templates: the package's ``templates/``)."""
    report_texts: TextSource | None = None
    """Where the report finds the texts a result points to but does not hold (the
    arguments, the reference questions)."""
    report_formats: tuple[ReportFormat, ...] = ()
    """The task's own files the report reads besides results files (meta-evaluations,
    sweeps, tables)."""
    report_input_hint: InputHint | None = None
    """The report's one-line error for one of the task's inputs given as results."""

    # -- the command line and the web app -------------------------------------------------
    commands: AddsCommands | None = None
    """Adds the task's command-line commands, given a ``maieutic.cli.CommandGroups``
    (``groups.evaluate.add_command(...)``; tools of its own go in one group named after
    the task, added to ``groups.root``). Called only when the command line needs the
    task."""
    web_leaderboard: LeaderboardPage | None = None
    """What the web app's Leaderboard page offers for this task (None: no such page)."""
    spec: Any = None
    """How the registry built this task (set by ``maieutic.registry``)."""


def get_task(name: str) -> Task:
    """The registered task ``name`` (a usage error listing the known ones otherwise)."""
    return create("task", task=name, name=name)
