"""People's CompQA score files: tab-separated, read through the one text reader, their
header checked, and every criterion score checked against the rubric's scale.

Both layouts are read the same way: the annotators' files (``score_dict.1`` …
``score_dict.15``) and the averaged table (``C1`` … ``C15``). A file that cannot be
read as UTF-8 text, holds a NUL byte, repeats a column, lacks a score column, has
no rows, or has a row whose fields do not match the header is refused with one line.
A blank score means the person did not score that criterion (the row is left out,
and counted); any other score must be a number from 0 to 2, the rubric's points — a
score of -7, 99, NaN or infinity is refused with its line. A score above its own
criterion's maximum but within the scale (2 on a criterion out of 1) is kept, as the
released files hold a few and the published figures include them, and noted so that
the reports can flag it.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from maieutic.data.files import read_text
from maieutic.errors import DataError
from maieutic.tasks.compqa.data import rubric


@dataclass(frozen=True)
class Row:
    """One record of a score file: its first line and its cells by column."""

    line: int
    cells: dict[str, str]

    def where(self, path: str | Path) -> str:
        """``path:line``, for messages."""
        return f"{path}:{self.line}"


@dataclass(frozen=True)
class RowScores:
    """A row's criterion scores (rubric order), or None when not all are given."""

    scores: tuple[float, ...] | None
    notes: tuple[str, ...] = field(default_factory=tuple)
    """Scores kept although above their criterion's maximum (to be flagged)."""


def points_max() -> int:
    """The highest score any criterion allows (the rubric's point scale is 0 to this)."""
    return max(c.max for c in rubric().values())


def read_tsv(path: str | Path, required: Sequence[str]) -> list[Row]:
    """The records of a tab-separated file whose header has every ``required`` column."""
    path = Path(path)
    text = read_text(path)  # missing, binary (NUL), non-UTF-8: one line; a BOM is dropped
    # a field can be as long as the file (answers are long texts), never longer
    csv.field_size_limit(max(csv.field_size_limit(), len(text) + 1))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    try:
        header = next(reader, None)
        if header is None:
            raise DataError("file is empty (expected a tab-separated header)", where=str(path))
        _check_header(header, required, path)
        rows = list(_records(reader, header, path))
    except csv.Error as exc:
        raise DataError(f"not readable as TSV ({exc})", where=f"{path}:{reader.line_num}") from None
    if not rows:
        raise DataError("no rows: the file has a header only", where=str(path))
    return rows


def _check_header(header: list[str], required: Sequence[str], path: Path) -> None:
    repeated = [name for name, n in Counter(header).items() if n > 1 and name]
    if repeated:
        # a reader keeps one of the two columns silently: which scores count is unclear
        raise DataError(f"column {repeated[0]!r} appears twice in the header", where=str(path))
    missing = [name for name in required if name not in header]
    if missing:
        raise DataError(f"missing column(s) {missing}", where=str(path))


def _records(reader, header: list[str], path: Path) -> Iterator[Row]:
    """Each non-blank record with the line it starts on (answers span several lines)."""
    start = reader.line_num + 1
    for cells in reader:
        line, start = start, reader.line_num + 1
        if not cells:
            continue
        if len(cells) != len(header):
            # a ragged row: which cell belongs to which column is a guess
            why = "a tab inside a field?" if len(cells) > len(header) else "cells missing?"
            raise DataError(
                f"{len(cells)} fields, the header has {len(header)} ({why})",
                where=f"{path}:{line}",
            )
        yield Row(line, dict(zip(header, cells, strict=True)))


def row_scores(row: Row, columns: Sequence[str], path: str | Path) -> RowScores:
    """The 15 criterion scores of ``row`` (``columns`` in rubric order), each checked."""
    criteria = rubric()
    scores: list[float | None] = []
    notes = []
    for number, column in enumerate(columns, start=1):
        cell = row.cells.get(column, "").strip()
        if not cell:
            scores.append(None)  # this criterion was not scored
            continue
        value = _score(cell, column=column, where=row.where(path))
        if value > criteria[number].max:
            notes.append(
                f"{row.where(path)}: {column} {value:g} is above criterion {number}'s "
                f"maximum {criteria[number].max} (kept, as in the released files)"
            )
        scores.append(value)
    if any(s is None for s in scores):
        return RowScores(None, tuple(notes))
    return RowScores(tuple(s for s in scores if s is not None), tuple(notes))


def _score(cell: str, *, column: str, where: str) -> float:
    top = points_max()
    try:
        value = float(cell)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= top):
        raise DataError(f"{column}: score {cell!r} is not a number from 0 to {top}", where=where)
    return value
