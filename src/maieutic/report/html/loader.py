"""Read the files a report is made of and say what each one is.

Every input is read and checked before anything is drawn, so a bad file stops the
report with one line naming the file and the problem (a ``DataError``), never with
half a page. Results files are read with ``load_results``; the other formats are
the tasks' own (``ReportHooks.formats``: meta-evaluations, sweeps, tables) and keep
their JSON as it is, checked for the fields their sections read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from maieutic.data.files import read_text
from maieutic.data.surrogates import refuse_in_json
from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.results_file import RESULTS_FORMAT, load_results
from maieutic.records import READABLE, load_task_records
from maieutic.report.hooks import InputFile, ReportFormat
from maieutic.report.html.task_hooks import input_hint, report_formats

RESULTS_REQUIRED = ("task", "results")
"""Top-level fields a results file must have (each task's own formats say theirs)."""

__all__ = ["InputFile", "load_input", "load_inputs", "read_json_object"]

RESULT_FIELDS: dict[str, type | tuple[type, ...]] = {
    "task": str,
    "submission": str,
    "source": str,
    "signature": dict,
    "evaluator": dict,
    "summary": dict,
    "items": list,
}
"""Fields of one result record, with the JSON type each must have."""


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def read_json_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` (``DataError`` for anything else)."""
    text = read_text(path)
    if not text.strip():
        raise DataError("file is empty", where=str(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})", where=str(path)
        ) from None
    except RecursionError:
        raise DataError("JSON nested too deeply to be a results file", where=str(path)) from None
    refuse_in_json(text, data, str(path))
    if not isinstance(data, dict):
        raise DataError(f"expected a JSON object, found {_json_type(data)}", where=str(path))
    return data


def _not_results(fmt: str) -> str | None:
    """What to do instead, for a format maieutic writes that holds no results (a
    generation record, ask's output, a scorer's manifest): its record says."""
    load_task_records()
    cls = READABLE.get(fmt)
    if cls is None or cls.HOLDS_RESULTS or not cls.NOT_RESULTS:
        return None
    return cls.NOT_RESULTS


def _required(fmt: str, layout: ReportFormat | None) -> tuple[str, ...]:
    """The top-level fields a file must have: the layout's own list, else its record's."""
    if layout is None:
        return RESULTS_REQUIRED
    if layout.required:
        return layout.required
    cls = READABLE.get(fmt)
    return cls.required_fields() if cls is not None else ()


def classify(data: dict[str, Any], where: str) -> tuple[str, ReportFormat | None]:
    """The format of a parsed file and, unless it is a results file, the task's
    layout for it."""
    fmt = data.get("format")
    if fmt is None and data and (hint := input_hint(data)):
        raise DataError(hint, where=where)
    if fmt is None:
        raise DataError(
            'no "format" field: not a file written by maieutic (give a results file from '
            "maieutic evaluate, or a meta-eval output)",
            where=where,
        )
    if not isinstance(fmt, str):
        raise DataError(f'"format" must be a string, found {_json_type(fmt)}', where=where)
    if (not_results := _not_results(fmt)) is not None:
        raise DataError(f"format {fmt!r} is {not_results}", where=where)
    layouts = report_formats() if fmt != RESULTS_FORMAT else {}
    if fmt != RESULTS_FORMAT and fmt not in layouts:
        known = ", ".join(sorted([RESULTS_FORMAT, *layouts]))
        raise DataError(f"unknown format {fmt!r} (the report reads: {known})", where=where)
    layout = layouts.get(fmt)
    for name in _required(fmt, layout):
        if name not in data:
            raise DataError(f"missing field {name!r} (format {fmt})", where=where)
    return fmt, layout


def check_result(record: Any, at: str, *, where: str) -> None:
    """Refuse a result record (at JSON path ``at``) without the fields the report (and
    ``load_results``) read."""
    if not isinstance(record, dict):
        raise DataError(f"{at}: expected an object, found {_json_type(record)}", where=where)
    for name, kind in RESULT_FIELDS.items():
        if name not in record:
            raise DataError(f"{at}: missing field {name!r}", where=where)
        if not isinstance(record[name], kind):
            expected = _json_type(kind()) if isinstance(kind, type) else "a value"
            found = _json_type(record[name])
            raise DataError(f"{at}.{name}: expected {expected}, found {found}", where=where)
    if "score" not in record:
        raise DataError(f"{at}: missing field 'score'", where=where)
    score = record["score"]
    if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
        raise DataError(
            f"{at}.score: expected a number or null, found {_json_type(score)}", where=where
        )
    for name in ("kind", "task", "name"):
        if name not in record["evaluator"]:
            raise DataError(f"{at}.evaluator: missing field {name!r}", where=where)
    for position_, item in enumerate(record["items"]):
        if not isinstance(item, dict):
            found = _json_type(item)
            raise DataError(
                f"{at}.items[{position_}]: expected an object, found {found}", where=where
            )


def _results(path: Path, data: dict[str, Any]) -> list[EvalResult]:
    where = str(path)
    records = data["results"]
    if not isinstance(records, list):
        raise DataError(f'"results" must be a list, found {_json_type(records)}', where=where)
    if not records:
        raise DataError("the file holds no results", where=where)
    for position, record in enumerate(records):
        check_result(record, f"results[{position}]", where=where)
    try:
        return load_results(path)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # a shape the checks above let through: still one line, naming the file
        raise DataError(
            f"cannot read the results ({type(exc).__name__}: {exc})", where=where
        ) from None


def _records(name: str, data: dict[str, Any], key: str) -> list[EvalResult]:
    """The result records a task's own format holds under ``key``."""
    records = data[key]
    if not isinstance(records, list) or not records:
        raise DataError(f'"{key}" must be a non-empty list of results', where=name)
    for position, record in enumerate(records):
        check_result(record, f"{key}[{position}]", where=name)
    try:
        return [EvalResult.from_json(r) for r in records]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(
            f"cannot read the {key} ({type(exc).__name__}: {exc})", where=name
        ) from None


def load_input(index: int, path: str | Path) -> InputFile:
    """Read and check one input file."""
    name = str(path)
    path = Path(path)
    data = read_json_object(path)
    fmt, layout = classify(data, name)
    if layout is None:
        results = _results(path, data)
    else:
        results = _records(name, data, layout.results) if layout.results else []
    return InputFile(
        index=index, path=path, name=name, format=fmt, layout=layout, data=data, results=results
    )


def load_inputs(paths: list[Path | str]) -> list[InputFile]:
    """Every input read and checked, in the order given."""
    if not paths:
        raise DataError("give at least one results file")
    return [load_input(i, p) for i, p in enumerate(paths)]
