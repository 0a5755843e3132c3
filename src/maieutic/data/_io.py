"""Reading JSON and JSONL files into plain records, with errors that say where.

Both formats hold a mapping from id to record: a JSON file as one object, a JSONL
file as one record per line carrying its own id field. Duplicate keys are an error
(the standard library would silently keep the last one).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from maieutic.errors import DataError

# A guard against pointing maieutic at the wrong file (a model checkpoint, a dump):
# anything this large is refused before it is read into memory.
MAX_INPUT_BYTES = int(os.environ.get("MAIEUTIC_MAX_INPUT_BYTES", 1 << 30))


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _read_text(path: Path) -> str:
    if not path.exists():
        raise DataError("file not found", where=str(path))
    if path.is_dir():
        raise DataError("is a directory, expected a JSON or JSONL file", where=str(path))
    size = path.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise DataError(
            f"file is {size} bytes, over the {MAX_INPUT_BYTES}-byte limit "
            "(set MAIEUTIC_MAX_INPUT_BYTES to raise it)",
            where=str(path),
        )
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text (byte {exc.start})", where=str(path)) from None


def _parse(text: str, where: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as exc:
        raise DataError(f"duplicate key {json.dumps(str(exc))}", where=where) from None
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", where=where
        ) from None


def is_jsonl(path: Path) -> bool:
    """Whether a path names a JSON Lines file (by its extension)."""
    return path.suffix.lower() in {".jsonl", ".ndjson"}


def read_keyed_records(path: str | Path, id_field: str) -> dict[str, Any]:
    """Read ``{id: record}`` from a JSON object, or from JSONL lines keyed by ``id_field``.

    Values are returned as parsed; validating them is the caller's job.
    """
    path = Path(path)
    text = _read_text(path)
    if not text.strip():
        raise DataError("file is empty", where=str(path))
    if not is_jsonl(path):
        data = _parse(text, str(path))
        if not isinstance(data, dict):
            raise DataError(
                f"expected a JSON object mapping ids to records, found {type_name(data)}",
                where=str(path),
            )
        return data
    records: dict[str, Any] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        record = _parse(line, where)
        if not isinstance(record, dict):
            raise DataError(f"expected a JSON object, found {type_name(record)}", where=where)
        key = record.get(id_field)
        if not isinstance(key, str) or not key:
            raise DataError(f"missing or empty string field {id_field!r}", where=where)
        if key in records:
            raise DataError(f"duplicate {id_field} {key!r}", where=where)
        records[key] = record
    return records


def type_name(value: Any) -> str:
    """A JSON-flavoured name for the type of a parsed value, for error messages."""
    if value is None:
        return "null"
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)
