"""What a task hands the report (``ReportHooks``, registered with
``REPORT_HOOKS.add(name, ReportHooks(...))`` when the task's package is imported): its
section's title and detailed blocks, the files of its own the report reads
(``ReportFormat``), where the texts behind its results are (``TextSource``), and what
its inputs look like when given as results by mistake.

The report's shell names no task: it asks each registered task through these. This
module imports none of the HTML machinery, so a task declares its hooks at no cost;
the section builders a format names may import it when a report is drawn. How a
score is recomputed from items (``ItemStatistic``) is the task's own contract
(``maieutic.core``); it is named here too for the tasks' report modules.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from maieutic.registry import HookTable
from maieutic.stats.items import ItemStatistic, item_records, mean, numbers

if TYPE_CHECKING:
    from maieutic.evaluate.result import EvalResult
    from maieutic.report.html.templating import Block

__all__ = [
    "REPORT_HOOKS",
    "DataFile",
    "InputFile",
    "InputHint",
    "ItemStatistic",
    "ReportBlocks",
    "ReportFormat",
    "ReportHooks",
    "TextSource",
    "Texts",
    "item_records",
    "mean",
    "numbers",
    "report_hooks",
]


@dataclass(frozen=True)
class ReportFormat:
    """A file format a task writes besides results files, and how the report shows it."""

    format: str
    """The file's ``format`` field ("maieutic.<task>.<what>/<version>")."""
    required: tuple[str, ...] = ()
    """Top-level fields the file must have (a one-line error names the first missing);
    empty: those its typed record (``maieutic.records``) requires."""
    section: Callable[[Any], tuple[str, list[Any]]] | None = None
    """``InputFile -> (title, [Block])``: the file's own section. None: its figures
    and tables as they are (the generic view)."""
    _: KW_ONLY
    results: str = ""
    """A field holding result records: they join their task's section, and the file
    gets no section of its own."""


@dataclass(kw_only=True)
class InputFile:
    """One input file: where it is, its format, and what was read from it."""

    index: int
    """Its position on the command line (section anchors are built from it)."""
    path: Path
    name: str
    """The path as the user gave it, for headings and messages."""
    format: str
    layout: ReportFormat | None
    """How a task's own format is shown (None for a results file)."""
    data: dict[str, Any]
    results: list[EvalResult] = field(default_factory=list)

    @property
    def task(self) -> str | None:
        """The task the file is about, when it says (or its results say)."""
        task = self.data.get("task")
        if not isinstance(task, str) and self.results:
            task = self.results[0].task
        return task if isinstance(task, str) else None


@dataclass(kw_only=True)
class Texts:
    """Texts by id, found for one result (empty with a ``note`` when none were)."""

    documents: dict[str, str] = field(default_factory=dict)
    """The text each item is about (an intervention, an argument), by item id."""
    references: dict[str, str] = field(default_factory=dict)
    """Reference question text by reference id."""
    source: str = ""
    note: str = ""


@dataclass(frozen=True)
class DataFile:
    """What a task's text reader is given: where the recorded data file may be now,
    the dataset hash its content must have, and the run's recorded options."""

    paths: list[Path]
    expected: str
    options: dict[str, Any]
    _: KW_ONLY
    locate: Callable[[Any], list[Path]]
    """Where another path recorded in the options may be now (same rules)."""


@dataclass(frozen=True)
class TextSource:
    """Where a task's results name their data file, and how its texts are read."""

    option: str
    """The provenance option holding the data file's path (``data_path``)."""
    read: Callable[[DataFile], Texts | None]
    """The texts when one of the paths holds data with the expected hash; None
    otherwise (the report then says the texts are not shown, and why)."""


class ReportBlocks(Protocol):
    """The task's detailed report blocks: ``(entries, texts) -> [Block]``."""

    def __call__(self, entries: list[Any], texts: Any, /) -> list[Block]: ...


class InputHint(Protocol):
    """What a JSON file without a ``format`` field is, when it is one of the task's
    inputs: the report's one-line error (None otherwise)."""

    def __call__(self, data: dict[str, Any], /) -> str | None: ...


@dataclass(frozen=True, kw_only=True)
class ReportHooks:
    """Everything a task hands the HTML report; every field may be left out."""

    title: str = ""
    """The heading of the task's section (default: "Task: <name>")."""
    axis_label: str = "score"
    """What the headline score is called on plots ("macro-F1", "rubric total")."""
    blocks: ReportBlocks | None = None
    """The task's detailed report blocks, after the shared summary, runs and intervals
    (templates: the task package's ``templates/``)."""
    texts: TextSource | None = None
    """Where the report finds the texts a result points to but does not hold (the
    arguments, the reference questions)."""
    formats: tuple[ReportFormat, ...] = ()
    """The task's own files the report reads besides results files (meta-evaluations,
    sweeps, tables)."""
    input_hint: InputHint | None = None
    """The report's one-line error for one of the task's inputs given as results."""


REPORT_HOOKS: HookTable[ReportHooks] = HookTable("report")
"""The report's hooks, by task name: a task adds its own when its package is imported."""
NO_HOOKS = ReportHooks()


def report_hooks(task: str) -> ReportHooks:
    """Task ``task``'s report hooks (the defaults when it registered none)."""
    return REPORT_HOOKS.get(task) or NO_HOOKS


def deferred(target: str) -> ReportBlocks:
    """Blocks built by ``"module:function"``, imported only when a report is drawn: a
    task's report module loads the HTML machinery, which its other commands never need."""
    module, _, name = target.partition(":")

    def blocks(entries: list[Any], texts: Any, /) -> list[Block]:
        return getattr(importlib.import_module(module), name)(entries, texts)

    return blocks
