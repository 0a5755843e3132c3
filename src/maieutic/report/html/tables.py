"""Tables as data: the sections build ``Table`` objects and one template macro draws
them all, so every table of the report sorts, aligns and escapes the same way."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from markupsafe import Markup

from maieutic.report.tables import fmt

DASH = "—"


@dataclass(frozen=True)
class Cell:
    """One table cell: what it shows and, for numbers, the value it sorts by."""

    content: str | Markup
    """Plain text (escaped when drawn) or ``Markup`` built by this package."""
    sort: float | None = None
    """Numeric sort key (None: sorts as text, or last when the cell is empty)."""
    numeric: bool = False
    """Right-aligned; an empty numeric cell sorts after every number."""
    _: KW_ONLY
    cls: str = ""


@dataclass(frozen=True)
class Header:
    """A column header with an optional explanation (shown as a tooltip)."""

    text: str
    title: str = ""
    numeric: bool = False

    @property
    def markup(self) -> Markup:
        """The header text with a break opportunity after each underscore, so a field
        name such as ``not_able_to_evaluate`` wraps rather than widens its column."""
        return Markup("_<wbr>").join(Markup("{}").format(p) for p in self.text.split("_"))


@dataclass
class Table:
    """Headers and rows of cells; ``sortable`` tables get the click-to-sort script."""

    headers: list[Header]
    rows: list[list[Cell]] = field(default_factory=list)
    caption: str = ""
    _: KW_ONLY
    sortable: bool = True
    cls: str = ""

    def add(self, cells: Iterable[Cell | str]) -> None:
        """Append a row of ``cells`` (plain strings become text cells)."""
        self.rows.append([c if isinstance(c, Cell) else Cell(c) for c in cells])


def headers(
    names: Iterable[str], *, numeric_from: int = 1, titles: dict[str, str] | None = None
) -> list[Header]:
    """Headers whose columns from ``numeric_from`` on hold numbers."""
    titles = titles or {}
    return [
        Header(name, titles.get(name, ""), numeric=i >= numeric_from)
        for i, name in enumerate(names)
    ]


def is_number(value: Any) -> bool:
    """A real number (booleans excluded), finite or not."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def number(value: Any, pattern: str = "{:.4f}") -> Cell:
    """A numeric cell: ``value`` in ``pattern`` (a dash when missing or not a number)."""
    if not is_number(value) or (isinstance(value, float) and math.isnan(value)):
        return Cell(DASH if value is None else str(value), None, numeric=True)
    return Cell(fmt(value, pattern), float(value), numeric=True)


def auto_number(value: Any) -> Cell:
    """A cell for a value of unknown kind: integers as they are, floats to four
    significant figures, anything else as text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return Cell(DASH if value is None else str(value))
    if isinstance(value, int):
        return number(value, "{}")
    if isinstance(value, float):
        return number(value, "{:.4g}")
    return Cell(str(value))


def signature_markup(text: str) -> Markup:
    """A signature (or another ``|``-separated machine string) in monospace that wraps
    only between its fields: each field with its separator is one unbreakable piece
    (``nowrap`` in the stylesheet, so ``all-MiniLM-L6-v2`` never splits at a hyphen),
    with a break opportunity after it; copied, it is the signature unchanged."""
    fields = text.split("|")
    pieces = [f + "|" for f in fields[:-1]] + fields[-1:]
    spans = Markup("<wbr>").join(Markup("<span>{}</span>").format(p) for p in pieces if p)
    return Markup('<code class="sig">{}</code>').format(spans)


def code(text: str) -> Cell:
    """A cell holding a signature or another machine string, in monospace."""
    return Cell(signature_markup(text), cls="signature")


def key_value(rows: Sequence[tuple[str, Any]], caption: str = "") -> Table:
    """A two-column table of named figures."""
    table = Table(
        [Header("figure"), Header("value", numeric=True)], caption=caption, sortable=False
    )
    for name, value in rows:
        table.add([Cell(name), value if isinstance(value, Cell) else auto_number(value)])
    return table
