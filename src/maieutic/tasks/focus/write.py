"""Writing FOCUS files: native JSON Lines, the released CSV layout (gold, or predictions
beside the gold columns so the released tools and maieutic score the same file), and
per-annotator CSVs. ``load_focus`` reads back everything written here."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

from maieutic.data.files import write_text
from maieutic.errors import DataError
from maieutic.tasks.focus.data import (
    GOLD_COLUMNS,
    GOLD_QUESTION_COLUMNS,
    PREDICTED_COLUMNS,
    PREDICTED_QUESTION_COLUMNS,
)
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet, SpanLabel
from maieutic.tasks.focus.typology import NONE_ID, NULL_SPAN, typology


def to_jsonl(focus: FocusSet) -> str:
    """The native form: one argument per line, annotators' labels after the gold ones."""
    return "".join(jsonl_pieces(focus))


def jsonl_pieces(focus: FocusSet) -> Iterator[str]:
    """``to_jsonl``'s text a line at a time (an empty set is one newline)."""
    empty = True
    for item in focus.items.values():
        record: dict = {"id": item.id, "argument": item.argument}
        if item.category:
            record["category"] = item.category
        if item.topic:
            record["topic"] = item.topic
        record["labels"] = [label.to_json() for label in (*item.labels, *item.annotations)]
        empty = False
        yield json.dumps(record, ensure_ascii=False) + "\n"
    if empty:
        yield "\n"


def slotted(item: FocusItem) -> list[SpanLabel | None]:
    """The item's labels in the two slots of the released layout: a label keeps its
    slot; otherwise a type of the item's category takes that category's slot, and any
    other the first free one. None of the Above fills no slot (both cells empty)."""
    slots: list[SpanLabel | None] = [None, None]
    labels = [label for label in item.labels if label.type != NONE_ID]
    if len(labels) > 2:
        raise DataError(
            f"{item.id!r}: {len(labels)} types; the released layout has two slots",
        )
    category_types = typology().category_types(item.category) if item.category else ()
    rest = []
    for label in labels:
        slot = label.slot
        if slot is None and label.type in category_types and len(category_types) == 2:
            slot = category_types.index(label.type) + 1
        if slot in (1, 2) and slots[slot - 1] is None:
            slots[slot - 1] = label
        else:
            rest.append(label)
    for label in rest:
        slots[slots.index(None)] = label
    return slots


def _cells(item: FocusItem | None) -> tuple[list[str], list[str]]:
    """Type/span cells and question cells for one item (empty when None)."""
    if item is None:
        return ["", "", "", ""], ["", ""]
    slots = slotted(item)
    names = [typology().name(s.type) if s and s.type else "" for s in slots]
    spans = [s.text if s else "" for s in slots]
    questions = [(s.question or "") if s else "" for s in slots]
    return names + spans, questions


def to_released_csv(focus: FocusSet, *, predictions: bool, gold: FocusSet | None = None) -> str:
    """The released CSV layout.

    For gold data (``predictions=False``) the gold columns and questions; for
    predictions, the gold columns (from ``gold`` when given, else empty) followed by
    the ``Predicted_*`` columns and the predicted questions. An ``id`` column comes last
    so that ids survive a round trip (readers of the released layout ignore it).
    """
    return "".join(released_csv_pieces(focus, predictions=predictions, gold=gold))


def released_csv_pieces(
    focus: FocusSet, *, predictions: bool, gold: FocusSet | None = None
) -> Iterator[str]:
    """``to_released_csv``'s text a few rows at a time."""
    header = ["Argument", "category", *GOLD_COLUMNS]
    header += (
        [*PREDICTED_COLUMNS, *PREDICTED_QUESTION_COLUMNS]
        if predictions
        else [*GOLD_QUESTION_COLUMNS]
    )
    header.append("id")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for n, item in enumerate(focus.items.values()):
        if predictions:
            gold_item = gold.items.get(item.id) if gold else None
            gold_cells, _ = _cells(gold_item)
            cells, questions = _cells(item)
            row = [*gold_cells, *cells, *questions]
        else:
            cells, questions = _cells(item)
            row = [*cells, *questions]
        writer.writerow([item.argument, item.category or "", *row, item.id])
        if n % 1000 == 999:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def annotator_csvs(focus: FocusSet) -> dict[str, str]:
    """Per-category files in the released per-annotator layout (file name → text),
    rows in the order of the category's arguments in ``focus``."""
    files: dict[str, str] = {}
    for category in typology().categories.values():
        items = [i for i in focus.items.values() if i.category == category.id]
        annotators = sorted({a for i in items for a in i.annotators()}, key=_annotator_order)
        if not items or not annotators:
            continue
        columns = [(a, slot) for slot in (1, 2) for a in annotators]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([f"{a}_{category.short}_{'F' if s == 1 else 'G'}" for a, s in columns])
        for item in items:
            spans = {
                (x.annotator, category.types.index(x.type) + 1): x.text
                for x in item.annotations
                if x.type in category.types
            }
            writer.writerow([spans.get(key, "") for key in columns])
        files[f"annotators_{category.id}.csv"] = out.getvalue()
    return files


def _annotator_order(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)


def write_focus(
    focus: FocusSet, path: str | Path, *, predictions: bool, gold: FocusSet | None = None
) -> list[Path]:
    """Write ``focus`` as CSV (``.csv``) or native JSON Lines (anything else); for CSV,
    annotators' labels go to ``annotators_<category>.csv`` files beside it. Returns
    the files written."""
    path = Path(path)
    if path.suffix.lower() != ".csv":
        write_text(path, to_jsonl(focus))
        return [path]
    write_text(path, to_released_csv(focus, predictions=predictions, gold=gold))
    written = [path]
    if not predictions and str(path) != "-":
        for name, text in annotator_csvs(focus).items():
            target = path.with_name(f"{path.stem}_{name}")
            write_text(target, text)
            written.append(target)
    return written


__all__ = ["NULL_SPAN", "annotator_csvs", "slotted", "to_jsonl", "to_released_csv", "write_focus"]
