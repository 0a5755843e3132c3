"""The released per-annotator FOCUS files, joined to the gold rows.

``dev_annotators_<category>.csv`` has one column per annotator and slot,
``A{n}_{category}_{F|G}`` (F = the category's first type, G = its second); a cell is
that annotator's span, empty when they said the type does not apply. The files have no
id column: row *i* belongs to the *i*-th gold argument of that category. The join is
checked (row counts per category, and that the spans are found in the arguments they
are joined to) and refused with one line when it does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.tasks.focus.data import read_csv_rows
from maieutic.tasks.focus.span_snap import snap_span
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet, SpanLabel
from maieutic.tasks.focus.typology import Category, typology

_COLUMN = re.compile(r"^A(\d+)_([A-Za-z]+)_([FG])$")

MISALIGNED_SHARE = 0.5
"""When more than this share of a file's spans are not found in the arguments they
join to, the rows do not follow the gold order (a file of another split or order)."""


def annotator_files(paths: Sequence[str | Path]) -> list[Path]:
    """The annotator CSVs named by ``paths`` (a directory stands for its
    ``*annotators_*.csv`` files)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            matches = sorted(path.glob("*annotators_*.csv"))
            if not matches:
                raise DataError(
                    "no *annotators_<category>.csv files in this folder", where=str(path)
                )
            found.extend(matches)
        else:
            found.append(path)
    return found


def _columns(path: Path, header: list[str]) -> tuple[Category, list[tuple[str, str, int]]]:
    columns: list[tuple[str, str, int]] = []
    shorts = set()
    for name in header:
        match = _COLUMN.match(name)
        if not match:
            raise DataError(
                f"column {name!r} is not A<n>_<category>_<F|G> (a per-annotator file?)",
                where=str(path),
            )
        number, short, slot = match.groups()
        shorts.add(short.lower())
        columns.append((name, f"A{number}", 1 if slot == "F" else 2))
    if len(shorts) != 1:
        raise DataError(
            f"columns name several categories: {', '.join(sorted(shorts))}", where=str(path)
        )
    short = shorts.pop()
    _refuse_half_annotators(path, columns, short)
    category = typology().category_by_short(short)
    if category is None:
        raise DataError(
            f"unknown category abbreviation {short!r} in the column names", where=str(path)
        )
    return category, columns


def _refuse_half_annotators(path: Path, columns: list[tuple[str, str, int]], short: str) -> None:
    """Every annotator needs both slot columns: without one, their judgements of that
    type would read as "no" on every row and every agreement figure would be wrong."""
    slots: dict[str, set[int]] = {}
    for _, annotator, slot in columns:
        slots.setdefault(annotator, set()).add(slot)
    for annotator, have in slots.items():
        for slot in {1, 2} - have:
            letter = "F" if slot == 1 else "G"
            raise DataError(
                f"header row: missing column {annotator}_{short}_{letter} (each annotator "
                "needs an F and a G column)",
                where=str(path),
            )


def _join_one(path: Path, gold: FocusSet, flags: list[Flag]) -> dict[str, tuple[SpanLabel, ...]]:
    header, rows = read_csv_rows(path, keep_blank=True)
    category, columns = _columns(path, header)
    targets = [item for item in gold.items.values() if item.category == category.id]
    if len(rows) != len(targets):
        first = min(len(rows), len(targets)) + 1
        what = "has no gold argument to join to" if len(rows) > len(targets) else "is missing"
        raise DataError(
            f"row {first} {what}: {len(rows)} rows, but {gold.source} has {len(targets)} "
            f"arguments of category {category.id!r}; rows join to the gold file by order "
            "within the category",
            where=str(path),
        )
    joined: dict[str, tuple[SpanLabel, ...]] = {}
    n_spans = n_missing = 0
    for number, (row, item) in enumerate(zip(rows, targets, strict=True), start=1):
        labels = []
        for column, annotator, slot in columns:
            span = row[column]
            if not span.strip():
                continue  # this annotator said the type does not apply
            n_spans += 1
            snap = snap_span(item.argument, span=span)
            if snap is None:
                n_missing += 1
                flags.append(
                    Flag(
                        file=str(path),
                        at=f"row {number}, {column}",
                        code="span-not-found",
                        message=f"span {span.strip()[:60]!r} is not in argument {item.id}",
                        item=item.id,
                    )
                )
            type_id = category.types[slot - 1]
            start, end = (snap.start, snap.end) if snap else (None, None)
            labels.append(
                SpanLabel(
                    type=type_id, text=span, start=start, end=end, annotator=annotator, slot=slot
                )
            )
        joined[item.id] = tuple(labels)
    if n_spans and n_missing / n_spans > MISALIGNED_SHARE:
        raise DataError(
            f"{n_missing} of {n_spans} spans are not in the arguments their rows join to: "
            f"the rows do not follow the order of {gold.source}",
            where=str(path),
        )
    return joined


def attach_annotators(gold: FocusSet, paths: Sequence[str | Path]) -> FocusSet:
    """``gold`` with each annotator's labels attached to its items (``annotations``)."""
    flags: list[Flag] = []
    joined: dict[str, tuple[SpanLabel, ...]] = {}
    seen: dict[str, Path] = {}
    for path in annotator_files(paths):
        header, _ = read_csv_rows(path)
        category, _ = _columns(path, header)
        if category.id in seen:
            raise DataError(
                f"a second file for category {category.id!r} (first: {seen[category.id]})",
                where=str(path),
            )
        seen[category.id] = path
        joined.update(_join_one(path, gold, flags))
    items: dict[str, FocusItem] = {
        key: replace(item, annotations=item.annotations + joined.get(key, ()))
        for key, item in gold.items.items()
    }
    return replace(gold, items=items, flags=gold.flags + flags)
