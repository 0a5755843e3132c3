"""Reading a keyed input a record at a time: a JSON object (its top-level members), a
JSON Lines file (its lines) or Parquet (its rows), never the whole file at once.

Each record comes with where it is (for messages) and is parsed as
``files.read_keyed_records`` parses it: a repeated key inside a record is an error,
non-UTF-8 text and UTF-16/32 files are refused with one line. Repeated ids across
records are the caller's to catch (it keeps what it has read, not this reader).
JSON objects are read with ijson (the ``ray`` extra), an incremental parser built for
this; JSON Lines and Parquet need nothing more than the whole-file readers.
"""

from __future__ import annotations

import codecs
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from maieutic.data.files import (
    _parquet_records,
    _parse,
    is_jsonl,
    is_parquet,
    open_input,
    record_key,
)
from maieutic.errors import DataError


def stream_keyed_records(
    path: str | Path, id_field: str, limit: int | None = None
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, id, record) for each record of ``path`` in file order (the first
    ``limit`` only, when given); a JSONL or Parquet record carries its id in
    ``id_field``."""
    path = Path(path)
    if is_parquet(path):
        records = _keyed(_parquet_records(path), id_field)
    elif is_jsonl(path):
        records = _keyed(_json_lines(path), id_field)
    else:
        records = _object_members(path)
    return itertools.islice(records, limit) if limit else records


def _keyed(
    records: Iterator[tuple[str, Any]], id_field: str
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for where, record in records:
        yield where, record_key(record, id_field, where=where), record


def _checked_start(handle: Any, where: str) -> bytes:
    """The file's first bytes, refused when they say it is not UTF-8 (a UTF-8
    byte-order mark is dropped)."""
    head = handle.read(4)
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise DataError("UTF-32 text: save the file as UTF-8", where=where)
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise DataError("UTF-16 text: save the file as UTF-8", where=where)
    return head[3:] if head.startswith(codecs.BOM_UTF8) else head


def _json_lines(path: Path) -> Iterator[tuple[str, Any]]:
    with open_input(path) as handle:
        head = _checked_start(handle, str(path))
        lines = itertools.chain(_first_line(head, handle), handle)
        seen = False
        for lineno, raw in enumerate(lines, start=1):
            where = f"{path}:{lineno}"
            if b"\x00" in raw:
                raise DataError("binary data (a NUL byte), expected text", where=where)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DataError(f"not UTF-8 text (byte {exc.start})", where=where) from None
            if line.strip():
                seen = True
                yield where, _parse(line, where=where)
    if not seen:
        raise DataError("file is empty", where=str(path))


def _first_line(head: bytes, handle: Any) -> Iterator[bytes]:
    # the bytes read to check the encoding belong to the first line
    yield head + handle.readline() if not head.endswith(b"\n") else head


class _NoRepeats(dict):
    """A JSON object as ijson builds it, noting a repeated key (ijson, like the
    standard library, keeps the last; maieutic's readers refuse it). Noted, not
    raised: ijson's C backend does not pass an exception on from here."""

    repeated: str | None = None

    def __setitem__(self, key: str, value: Any) -> None:
        if key in self:
            self.repeated = key
        super().__setitem__(key, value)


def _refuse_repeats(value: Any, where: str) -> None:
    """A ``DataError`` if an object anywhere in ``value`` had a repeated key."""
    if isinstance(value, dict):
        if (key := getattr(value, "repeated", None)) is not None:
            raise DataError(f"duplicate key {json.dumps(key)}", where=where)
        for inner in value.values():
            _refuse_repeats(inner, where)
    elif isinstance(value, list):
        for inner in value:
            _refuse_repeats(inner, where)


def _object_members(path: Path) -> Iterator[tuple[str, str, dict[str, Any]]]:
    try:
        import ijson
    except ImportError:
        raise DataError(
            "reading a JSON corpus as a stream needs ijson: pip install 'maieutic[ray]'",
            where=str(path),
        ) from None
    where = str(path)
    with open_input(path) as handle:
        head = _checked_start(handle, where)
        if not head.strip() and not (head := head.lstrip() + handle.read(1 << 16)).strip():
            raise DataError("file is empty", where=where)
        if not head.lstrip().startswith(b"{"):
            raise DataError("expected a JSON object mapping ids to records", where=where)
        source = _Prefixed(head, handle)
        members = ijson.kvitems(source, "", use_float=True, map_type=_NoRepeats)
        try:
            for key, record in members:
                _refuse_repeats(record, where)
                yield where, key, record
        except (ijson.JSONError, UnicodeDecodeError) as exc:
            raise DataError(f"not valid JSON ({_reason(exc)})", where=where) from None


def _reason(exc: Exception) -> str:
    """The first line of a parser's message (ijson's C backend gives bytes)."""
    raw = exc.args[0] if exc.args else type(exc).__name__
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return (text.strip().splitlines() or [type(exc).__name__])[0].rstrip(".")


class _Prefixed:
    """A binary file whose first bytes were already read: they come back first."""

    def __init__(self, head: bytes, handle: Any) -> None:
        self.head, self.handle = head, handle

    def read(self, size: int = -1) -> bytes:
        if size == 0:  # ijson asks for nothing to learn whether the file is binary
            return b""
        if self.head:
            head, self.head = self.head, b""
            return head
        return self.handle.read(size)
