"""The task families. Each is a subpackage that registers, by name, its ``Task`` (data
loaders and how its results are shown), evaluators, judges, generators, selectors and
prompting strategies with ``maieutic.registry.register``; see docs/adding-a-task.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.registry import create


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


@dataclass
class Task:
    """What every task provides to the shared machinery and the command line."""

    name: str
    description: str
    load_reference: Callable[[str | Path], Any]
    """Reads the labelled reference data (the benchmark's dataset)."""
    load_submission: Callable[[str | Path], Any]
    """Reads one system output (it must have ``name``, ``source`` and ``flags``)."""
    score_description: str = ""
    """What the headline score measures, for legends."""
    columns: list[Column] = field(default_factory=list)
    """Leaderboard columns after the submission name and the score."""
    run_figures: tuple[str, ...] = ()
    """Summary figures averaged over repeated runs besides the score."""
    check_submission: Callable[[Any, Any], None] | None = None
    """Refuses a submission that makes no sense against this reference (a mix-up)."""
    summary_rows: list[Column] | None = None
    """The rows of a one-submission summary after the score, a few headline figures
    each with its meaning (default: ``columns``; the results file has everything)."""
    unscored_reason: Callable[[Any], str] | None = None
    """Why a result has no score, in one line (``EvalResult -> str``), for the terminal
    tables, which list such results unranked, last."""
    title: str = ""
    """The heading of the task's section in reports (default: "Task: <name>")."""
    axis_label: str = "score"
    """What the headline score is called on plots ("macro-F1", "rubric total")."""
    report_blocks: Callable[[list[Any], Any], list[Any]] | None = None
    """The task's detailed report blocks: ``(entries, text_finder) -> [Block]``, after
    the shared summary, runs and intervals (templates: the package's ``templates/``)."""
    report_texts: Any = None
    """Where the report finds the texts a result points to but does not hold (the
    arguments, the reference questions): a ``maieutic.report.hooks.TextSource``."""
    interval_statistic: Callable[[Any], Any] | None = None
    """The headline score as a function of a result's items, for the report's bootstrap
    intervals: ``EvalResult -> maieutic.report.hooks.ItemStatistic``, or a string saying
    why there is none (default: the mean item score)."""
    paired_units: Callable[[Any], Any] | None = None
    """The headline score as a sum over the task's units, for paired comparisons
    (``maieutic compare``, the leaderboards' marks): ``EvalResult ->
    maieutic.evaluate.units.Units``, or a string saying why there are none."""
    report_formats: tuple[Any, ...] = ()
    """The task's own files the report reads besides results files (meta-evaluations,
    sweeps, tables): ``maieutic.report.hooks.ReportFormat``."""
    report_input_hint: Callable[[dict[str, Any]], str | None] | None = None
    """What a JSON file without a ``format`` field is when it is one of the task's
    inputs (a dataset, a submission): the report's one-line error; None otherwise."""
    web_leaderboard: Any = None
    """What the web app's Leaderboard page offers for this task: a
    ``maieutic.web.hooks.LeaderboardPage`` (None: the task has no such page)."""
    io: Any = None
    """How the library run layer reads the task's files and writes what it generates: a
    ``maieutic.run.TaskIO`` (default: one reference file, one file per submission)."""
    commands: Callable[[Any], None] | None = None
    """Adds the task's command-line commands: ``(groups) -> None``, given a
    ``maieutic.cli.CommandGroups`` (``groups.evaluate.add_command(...)``; tools of its
    own go in one group named after the task, added to ``groups.root``). Called only
    when the command line needs the task."""
    spec: Any = None


def get_task(name: str) -> Task:
    """The registered task ``name`` (a usage error listing the known ones otherwise)."""
    return create("task", name, name)
