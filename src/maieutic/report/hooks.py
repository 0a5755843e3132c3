"""What a task hands the report, besides its detailed blocks (``Task.report_blocks``):
the files of its own the report reads (``ReportFormat``), where the texts behind its
results are (``TextSource``), and its headline score as a function of items for the
bootstrap intervals (``ItemStatistic``).

The report's shell names no task: it asks each registered task through these. This
module imports none of the HTML machinery, so a task declares its hooks at no cost;
the section builders a format names may import it when a report is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.stats import UndefinedStatistic


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
    results: str = ""
    """A field holding result records: they join their task's section, and the file
    gets no section of its own."""


@dataclass
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


@dataclass(frozen=True)
class ItemStatistic:
    """How a task's score is recomputed from items: one column, and the function."""

    column: Sequence[Any]
    statistic: Callable[[Sequence[Any]], float]
    what: str
    """What the interval is of, for the caption."""


def mean(values: Sequence[float]) -> float:
    """The plain mean, as the tasks' scores average items (an error over no values)."""
    if not values:
        raise UndefinedStatistic("no items")
    return float(sum(values) / len(values))


def numbers(items: Sequence[dict[str, Any]], key: str) -> list[float]:
    """The real numbers (booleans excluded) found under ``key`` in ``items``."""
    return [
        float(i[key])
        for i in items
        if isinstance(i.get(key), int | float) and not isinstance(i.get(key), bool)
    ]


def item_records(result: Any) -> list[dict[str, Any]]:
    """A result's per-item records (the JSON-ready ones)."""
    return [i for i in result.records() if isinstance(i, dict)]
