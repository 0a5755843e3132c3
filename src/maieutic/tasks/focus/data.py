"""The FOCUS formats: the released CSV layout, the per-annotator files, and maieutic's
native JSON Lines.

Released layout (gold, and predictions with the gold columns kept)::

    Argument, category, FSQType1, FSQType2, Span_FSQType1, Span_FSQType2
    [, Predicted_Type1, Predicted_Type2, Span_PredictedType1, Span_PredictedType2]
    [, FSQQuestion1, FSQQuestion2, …]

A category fixes the argument's two type slots; an empty type cell means the type is
absent, and both empty means None of the Above. The files have no id column: a row's
id is its position (``1``, ``2``, …) unless an ``id`` column is present.

Native format, one argument per line::

    {"id", "argument", "category"?, "labels": [{"type", "span", "start"?, "end"?,
     "annotator"?, "slot"?, "question"?}]}

Labels with an ``annotator`` are that annotator's; the others are the gold (or the
predicted) labels. Type names in any known spelling are mapped to the typology's ids;
a name that maps to none is flagged per row (never dropped in silence). Spans are
snapped to the closest exact substring of the argument; one that cannot be found is
flagged and kept with no offsets.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from maieutic.data.files import is_jsonl, is_parquet, read_keyed_records, read_text, type_name
from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.tasks.focus.span_snap import snap_span
from maieutic.tasks.focus.type_labels import UNTYPED, FocusItem, FocusSet, SpanLabel
from maieutic.tasks.focus.typology import NONE_ID, typology

GOLD_COLUMNS = ("FSQType1", "FSQType2", "Span_FSQType1", "Span_FSQType2")
PREDICTED_COLUMNS = (
    "Predicted_Type1",
    "Predicted_Type2",
    "Span_PredictedType1",
    "Span_PredictedType2",
)
GOLD_QUESTION_COLUMNS = ("FSQQuestion1", "FSQQuestion2")
PREDICTED_QUESTION_COLUMNS = ("Predicted_Question1", "Predicted_Question2")

MAX_ARGUMENT_CHARS = 200_000
"""Longer than any argument; a cell this long means the wrong file (or a broken quote)."""

ROLES = ("gold", "predictions")


class Reader:
    """Collects flags while one file is read."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.flags: list[Flag] = []
        self.snapped = 0

    def flag(self, at: str, *, code: str, message: str, item: str | None) -> None:
        self.flags.append(Flag(file=self.source, at=at, code=code, message=message, item=item))

    def label(
        self, item_id: str, *, argument: str, at: str, raw_type: str, span: str, **extra: Any
    ) -> SpanLabel | None:
        """A label from a type name and a span, or None (flagged) for an unknown type.

        A span with no type is kept untyped (type ``""``): no class is predicted, but
        positional span scores compare it, as the released scores do."""
        if not raw_type.strip():
            self.flag(
                at,
                code="span-without-type",
                message="a span with no type (no class predicted)",
                item=item_id,
            )
            snap = snap_span(argument, span=span)
            return SpanLabel(
                type=UNTYPED,
                text=span,
                start=snap.start if snap else None,
                end=snap.end if snap else None,
                **extra,
            )
        type_id = typology().resolve(raw_type)
        if type_id is None:
            self.flag(
                at,
                code="unknown-type",
                message=f"unknown weakness type {raw_type.strip()!r}",
                item=item_id,
            )
            return None
        if type_id == NONE_ID:
            return SpanLabel(type=NONE_ID, text=span, start=None, end=None, **extra)
        snap = snap_span(argument, span=span)
        if snap is None:
            what = (
                "has no span"
                if not span.strip()
                else f"span {span.strip()[:60]!r} is not in the argument"
            )
            self.flag(at, code="span-not-found", message=what, item=item_id)
            return SpanLabel(type=type_id, text=span, start=None, end=None, **extra)
        self.snapped += snap.how != "exact"
        return SpanLabel(type=type_id, text=span, start=snap.start, end=snap.end, **extra)

    def warnings(self) -> list[str]:
        if not self.snapped:
            return []
        return [
            f"{self.snapped} span(s) differ from the argument (edges, spacing, typos); "
            "their offsets point to the closest exact substring"
        ]


def _category(reader: Reader, value: str, *, at: str, item_id: str) -> str | None:
    value = value.strip()
    if not value:
        return None
    if value in typology().categories:
        return value
    found = typology().category_by_short(value)
    if found:
        return found.id
    reader.flag(
        at,
        code="unknown-category",
        message=f"unknown category {value!r} (all ten types apply)",
        item=item_id,
    )
    return None


def read_csv_rows(
    path: Path, *, keep_blank: bool = False
) -> tuple[list[str], list[dict[str, str]]]:
    """The header and rows of a CSV file, with one-line errors for what breaks it.

    Blank rows are skipped unless ``keep_blank`` (in a per-annotator file a row of
    empty cells means "no type applies" and keeps its place in the join)."""
    text = read_text(path)
    if not text.strip():
        raise DataError("file is empty", where=str(path))
    if text.lstrip()[:1] in "[{":
        raise DataError("this is JSON, expected a CSV file in the released layout", where=str(path))
    # a field can be as long as the file (read_text has bounded that), never longer: the
    # csv module's own 131,072-character limit would refuse a long cell with a message
    # about the limit, where the Argument check below says what is wrong
    table = _parse_csv(text, path)
    header = _known_names([h.strip() for h in table[0]])
    _check_header(path, header)
    rows = []
    for number, cells in enumerate(table[1:], start=1):
        if not cells or (not keep_blank and not any(c.strip() for c in cells)):
            continue
        if len(cells) > len(header):
            raise DataError(
                f"row {number} has {len(cells)} cells but the header has {len(header)} "
                "(an unquoted comma?)",
                where=str(path),
            )
        rows.append(dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True)))
    return header, rows


_END = "\u2063end of the file\u2063"
"""A last row added to the text: read as its own row unless a quote left open before
it swallows it (the csv module reads to the end of the file without a word then)."""


def _parse_csv(text: str, path: Path) -> list[list[str]]:
    """The rows of a CSV text; an unclosed quote is refused naming the line it is on."""
    full = f"{text}\n{_END}\n"
    csv.field_size_limit(max(csv.field_size_limit(), len(full) + 1))
    try:
        table = list(csv.reader(io.StringIO(full, newline="")))
    except csv.Error as exc:
        raise DataError(f"not a readable CSV file ({exc})", where=str(path)) from None
    if table[-1] == [_END]:
        return table[:-1]
    # the last cell runs from its opening quote to the end, each quote in it doubled
    cell = table[-1][-1]
    opening = len(full) - len(cell) - cell.count('"') - 1
    line = len(re.findall(r"\r\n|\r|\n", full[:opening])) + 1
    raise DataError(
        "a quote opens a cell that is never closed, so the rest of the file would be "
        'read as that one cell (close it, or double a quote inside a cell: "")',
        where=f"{path}:{line}",
    )


KNOWN_COLUMNS = (
    "Argument",
    "Categories",
    "Topic",
    *GOLD_COLUMNS,
    *PREDICTED_COLUMNS,
    *GOLD_QUESTION_COLUMNS,
    *PREDICTED_QUESTION_COLUMNS,
)
"""The released files' column names, as the other files of the release spell them."""


def _known_names(header: list[str]) -> list[str]:
    """``header`` with a known column spelled in another case given its usual name: the
    released test file names its arguments ``argument`` where every other file has
    ``Argument``. A name is changed only where no other column already has it (nor
    another spelling of it), so no column is ever read as two."""
    usual = {name.casefold(): name for name in KNOWN_COLUMNS}
    folded = [h.casefold() for h in header]
    return [
        usual[f] if f in usual and usual[f] not in header and folded.count(f) == 1 else h
        for h, f in zip(header, folded, strict=True)
    ]


def _check_header(path: Path, header: list[str]) -> None:
    """Refuse a column named twice: a reader keeps one of the two silently, so which
    labels count would depend on the tool."""
    seen: set[str] = set()
    for name in header:
        if name and name in seen:
            raise DataError(f"column {name!r} appears twice in the header", where=str(path))
        seen.add(name)


def _require(path: Path, header: list[str], columns: tuple[str, ...], *, hint: str = "") -> None:
    missing = [c for c in columns if c not in header]
    if missing:
        raise DataError(
            f"missing column(s) {', '.join(missing)}{hint} (found: {', '.join(header)})",
            where=str(path),
        )


def _row_labels(reader, row: dict, item_id: str, *, argument: str, where: str, columns) -> list:
    """The labels of one CSV row, one per filled (type, span, question) column triple."""
    labels = []
    for slot, (type_col, span_col, q_col) in enumerate(columns, 1):
        raw_type, span = row[type_col], row[span_col]
        if not raw_type.strip():
            if not span.strip() or span.strip().lower() == "null":
                continue
            type_col = span_col  # the flag points at the span's cell
        question = row.get(q_col, "").strip() or None
        label = reader.label(
            item_id,
            argument=argument,
            at=f"{where}, {type_col}",
            raw_type=raw_type,
            span=span,
            slot=slot,
            question=question,
        )
        if label:
            labels.append(label)
    return labels


def _load_csv(path: Path, role: str, require_labels: bool = True) -> FocusSet:
    header, rows = read_csv_rows(path)
    _require(path, header, ("Argument",))
    if not rows:  # generating or converting nothing would look like success
        raise DataError("no rows: the file has a header only", where=str(path))
    if not require_labels and not all(c in header for c in GOLD_COLUMNS):
        header = [*header, *(c for c in GOLD_COLUMNS if c not in header)]
        rows = [{**{c: "" for c in GOLD_COLUMNS}, **row} for row in rows]
    if role == "predictions":
        hint = "; is this a gold file? give it as --gold" if "FSQType1" in header else ""
        _require(path, header, PREDICTED_COLUMNS, hint=hint)
        types, spans, questions = (
            PREDICTED_COLUMNS[:2],
            PREDICTED_COLUMNS[2:],
            PREDICTED_QUESTION_COLUMNS,
        )
    else:
        _require(path, header, GOLD_COLUMNS)
        types, spans, questions = GOLD_COLUMNS[:2], GOLD_COLUMNS[2:], GOLD_QUESTION_COLUMNS
    if role == "predictions" and not any(row[c].strip() for row in rows for c in PREDICTED_COLUMNS):
        hint = " (is this a gold file? give it as --gold)" if "FSQType1" in header else ""
        raise DataError(f"every Predicted_* cell is empty{hint}", where=str(path))
    category_column = "category" if "category" in header else "Categories"
    reader = Reader(str(path))
    items: dict[str, FocusItem] = {}
    for number, row in enumerate(rows, start=1):
        item_id = row.get("id", "").strip() or str(number)
        argument = row["Argument"]
        where = f"row {number}"
        if not argument.strip():
            raise DataError(f"{where}: empty Argument", where=str(path))
        if len(argument) > MAX_ARGUMENT_CHARS:
            raise DataError(f"{where}: Argument of {len(argument)} characters", where=str(path))
        if item_id in items:
            raise DataError(f"{where}: repeated id {item_id!r}", where=str(path))
        category = _category(
            reader, row.get(category_column, ""), at=f"{where}, {category_column}", item_id=item_id
        )
        columns = zip(types, spans, questions, strict=True)
        labels = _row_labels(reader, row, item_id, argument=argument, where=where, columns=columns)
        topic = row.get("Topic", "").strip() or None
        items[item_id] = FocusItem(
            id=item_id, argument=argument, category=category, labels=tuple(labels), topic=topic
        )
    _check_none_mixed(reader, items)
    return FocusSet(
        items=items,
        source=str(path),
        name=path.stem,
        flags=reader.flags,
        warnings=reader.warnings(),
        layout="csv",
    )


def _check_none_mixed(reader: Reader, items: dict[str, FocusItem]) -> None:
    for item in items.values():
        check_types(reader, item)


def check_types(reader: Reader, item: FocusItem) -> None:
    """Flag None of the Above beside other types, and more than two types."""
    types = [label.type for label in item.labels if label.type != UNTYPED]
    if NONE_ID in types and len(set(types)) > 1:
        reader.flag(
            item.id,
            code="none-with-types",
            message="None of the Above beside other types "
            "(scored as predicted, as a multi-label binarizer does)",
            item=item.id,
        )
    if len(item.labels) > 2:
        reader.flag(
            item.id,
            code="more-than-two-types",
            message=f"{len(item.labels)} types (the task allows two); all are scored",
            item=item.id,
        )


def _string(record: dict, key: str, *, where: str, required: bool = True) -> str | None:
    value = record.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise DataError(f"{where}.{key}: expected a string, found {type_name(value)}")
    return value


def _native_label(
    reader: Reader, item_id: str, *, argument: str, raw: Any, where: str
) -> SpanLabel | None:
    if not isinstance(raw, dict):
        raise DataError(f"{where}: expected an object, found {type_name(raw)}")
    raw_type = _string(raw, "type", where=where)
    span = raw.get("span") or ""
    if not isinstance(span, str):
        raise DataError(f"{where}.span: expected a string, found {type_name(span)}")
    extra = {k: raw.get(k) for k in ("annotator", "slot", "question") if raw.get(k) is not None}
    if "slot" in extra and extra["slot"] not in (1, 2):
        raise DataError(f"{where}.slot: expected 1 or 2, found {extra['slot']!r}")
    label = reader.label(
        item_id, argument=argument, at=where, raw_type=raw_type or "", span=span, **extra
    )
    start, end = raw.get("start"), raw.get("end")
    given = isinstance(start, int) and isinstance(end, int)
    if label and given and label.start is not None and argument[start:end].strip() != span.strip():
        reader.flag(
            where,
            code="offsets-mismatch",
            message="start/end do not select the span; re-located",
            item=item_id,
        )
    return label


def _load_native(path: Path) -> FocusSet:
    records = read_keyed_records(path, "id", expected="a FOCUS file")
    if not records:
        raise DataError("no rows: the file holds no arguments", where=str(path))
    reader = Reader(str(path))
    items = {key: native_item(reader, path, key, record=record) for key, record in records.items()}
    _check_none_mixed(reader, items)
    return FocusSet(
        items=items,
        source=str(path),
        name=path.stem,
        flags=reader.flags,
        warnings=reader.warnings(),
        layout="jsonl",
    )


def native_item(reader: Reader, path: Path, key: str, *, record: Any) -> FocusItem:
    """One native record, validated (``reader`` collects its flags)."""
    where = f"{path}: {key!r}"
    if not isinstance(record, dict):
        raise DataError(f"{where}: expected an object, found {type_name(record)}")
    argument = _string(record, "argument", where=where) or ""
    if not argument.strip():
        raise DataError(f"{where}.argument: empty")
    if len(argument) > MAX_ARGUMENT_CHARS:
        raise DataError(f"{where}.argument: {len(argument)} characters")
    category = _category(
        reader,
        _string(record, "category", where=where, required=False) or "",
        at=f"{key}.category",
        item_id=key,
    )
    raw_labels = record.get("labels", [])
    if not isinstance(raw_labels, list):
        raise DataError(f"{where}.labels: expected an array, found {type_name(raw_labels)}")
    labels, annotations = [], []
    for index, raw in enumerate(raw_labels):
        label = _native_label(
            reader, key, argument=argument, raw=raw, where=f"{key}.labels[{index}]"
        )
        if label:
            (annotations if label.annotator else labels).append(label)
    topic = _string(record, "topic", where=where, required=False)
    return FocusItem(
        id=key,
        argument=argument,
        category=category,
        labels=tuple(labels),
        annotations=tuple(annotations),
        topic=topic,
    )


def load_focus(path: str | Path, role: str = "gold", *, require_labels: bool = True) -> FocusSet:
    """Read a FOCUS file: the released CSV layout (``.csv``), or the native records as
    JSON Lines or Parquet (one record per row).

    ``role`` is ``gold`` (the ``FSQType``/``Span_FSQType`` columns) or ``predictions``
    (the ``Predicted_*`` columns of a CSV; a native file holds one or the other).
    Without ``require_labels`` a CSV needs only its ``Argument`` column (input to
    generation).
    """
    path = Path(path)
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}")
    native = is_jsonl(path) or is_parquet(path) or path.suffix == ".json"
    if path.suffix.lower() in (".csv", ".tsv") or not native:
        return _load_csv(path, role, require_labels)
    return _load_native(path)


def load_gold(path: str | Path) -> FocusSet:
    """The gold data (see ``load_focus``)."""
    return load_focus(path, "gold")


def load_arguments(path: str | Path) -> FocusSet:
    """Arguments to generate for: any FOCUS file; labels are kept when present."""
    return load_focus(path, "gold", require_labels=False)


def load_predictions(path: str | Path) -> FocusSet:
    """A system's predictions (see ``load_focus``)."""
    return load_focus(path, "predictions")
