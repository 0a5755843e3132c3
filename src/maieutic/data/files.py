"""Reading JSON and JSONL files into plain records, with errors that say where.

Both formats hold a mapping from id to record: a JSON file as one object, a JSONL
file as one record per line carrying its own id field. Duplicate keys are an error
(the standard library would silently keep the last one).
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from maieutic.data import guard, kinds
from maieutic.data.surrogates import refuse_in_json

# writing lives in its own module; these names stay importable from here
from maieutic.data.writing import (
    STDOUT,
    is_stdout,
    json_text,
    rewritable,
    write_bytes,
    write_json,
    write_text,
    write_together,
)
from maieutic.env_numbers import env_number
from maieutic.errors import DataError

MAX_INPUT_BYTES: int | None = None
"""The largest input file read (None: ``MAIEUTIC_MAX_INPUT_BYTES``, default 1 GiB)."""


def max_input_bytes() -> int:
    """A guard against pointing maieutic at the wrong file (a model checkpoint, a
    dump): anything this large is refused before it is read into memory. Read from the
    environment when first needed, not when the package is imported, so a value set
    wrong is one line from the command that reads a file."""
    if MAX_INPUT_BYTES is not None:
        return MAX_INPUT_BYTES
    return int(env_number("MAIEUTIC_MAX_INPUT_BYTES", 1 << 30))


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _keeping_last(duplicates: list[str]):
    # json.load keeps the last of repeated keys; so does this hook, noting each repeat
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                duplicates.append(key)
            seen[key] = value
        return seen

    return hook


_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
}


def _regular_file(path: Path) -> int:
    """An open descriptor on ``path``, which must be a regular file (checked before
    and after opening: a pipe or device would block or never end)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise DataError("file not found", where=str(path)) from None
    except (OSError, ValueError) as exc:
        raise DataError(
            f"cannot read: {getattr(exc, 'strerror', None) or exc}", where=str(path)
        ) from None
    if stat.S_ISDIR(info.st_mode):
        raise DataError("is a directory, expected a file", where=str(path))
    if not stat.S_ISREG(info.st_mode):
        kind = _KINDS.get(stat.S_IFMT(info.st_mode), "not a regular file")
        raise DataError(f"is {kind}, expected a regular file", where=str(path))
    try:
        # O_NONBLOCK: should the path have become a FIFO since, opening it must not wait
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror}", where=str(path)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise DataError("is not a regular file", where=str(path))
    return fd


def open_input(path: str | Path) -> Any:
    """An input file opened for reading in binary, a piece at a time (no size limit:
    for readers that never hold the whole file): a regular file only, noted as an
    input of the current command."""
    path = Path(path)
    fd = _regular_file(path)
    guard.note_input(path)
    return os.fdopen(fd, "rb")


def read_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of an input file: a regular file only, at most ``limit`` bytes
    (default ``max_input_bytes()``) counted as they are read, never trusting the size
    the file system reports. The file is noted as an input of the current command."""
    path = Path(path)
    limit = max_input_bytes() if limit is None else limit
    fd = _regular_file(path)
    guard.note_input(path)
    chunks, total = [], 0
    try:
        with os.fdopen(fd, "rb") as handle:
            while chunk := handle.read(min(1 << 20, limit + 1 - total)):
                chunks.append(chunk)
                total += len(chunk)
                if total > limit:
                    raise DataError(
                        f"file is over the {limit:,}-byte limit "
                        "(set MAIEUTIC_MAX_INPUT_BYTES to raise it)",
                        where=str(path),
                    )
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror}", where=str(path)) from None
    return b"".join(chunks)


def decode_text(data: bytes, where: str) -> str:
    """UTF-8 text (a leading byte-order mark dropped), or a ``DataError`` saying what
    the bytes are instead: UTF-16/32 text, binary data (a NUL byte), another encoding."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise DataError("UTF-32 text: save the file as UTF-8", where=where)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise DataError("UTF-16 text: save the file as UTF-8", where=where)
    if (nul := data.find(b"\x00")) >= 0:
        raise DataError(f"binary data (a NUL byte at byte {nul}), expected text", where=where)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text (byte {exc.start})", where=where) from None


def read_text(path: str | Path, limit: int | None = None) -> str:
    """The text of an input file (see ``read_bytes`` and ``decode_text``), or a
    ``DataError`` saying why it cannot be read."""
    return decode_text(read_bytes(path, limit), str(path))


def _looks_like_json_lines(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    try:
        return all(isinstance(json.loads(line), dict) for line in lines)
    except json.JSONDecodeError:
        return False


def _parse(text: str, *, where: str, duplicates: list[str] | None = None) -> Any:
    hook = _no_duplicates if duplicates is None else _keeping_last(duplicates)
    try:
        data = json.loads(text, object_pairs_hook=hook)
        refuse_in_json(text, data, where)
        return data
    except _DuplicateKey as exc:
        raise DataError(f"duplicate key {json.dumps(str(exc))}", where=where) from None
    except RecursionError:  # the decoder's own limit (about 1,000 levels)
        raise DataError(
            "JSON nested too deeply (no maieutic file nests more than a few levels)", where=where
        ) from None
    except json.JSONDecodeError as exc:
        if looks_like := kinds.text_kind(text):
            raise DataError(f"this looks like {looks_like}, not JSON", where=where) from None
        if exc.msg == "Extra data" and _looks_like_json_lines(text):
            raise DataError(
                "this looks like JSON Lines (one object per line): name the file .jsonl",
                where=where,
            ) from None
        raise DataError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", where=where
        ) from None


def is_jsonl(path: Path) -> bool:
    """Whether a path names a JSON Lines file (by its extension)."""
    return path.suffix.lower() in {".jsonl", ".ndjson"}


def read_keyed_records(
    path: str | Path,
    id_field: str,
    expected: str | None = None,
    *,
    duplicates: list[str] | None = None,
) -> dict[str, Any]:
    """Read ``{id: record}`` from a JSON object, or from JSONL lines keyed by ``id_field``.

    Values are returned as parsed; validating them is the caller's job. ``expected``
    (e.g. "a submission") names what the caller wants, so that a file of another known
    kind (a results file, a labelled dataset in place of a submission) is refused with
    a message that says what it is. Repeated keys (or repeated ids in JSONL) are an
    error, unless ``duplicates`` is a list: then the last value wins, as ``json.load``
    does, and each repeated key is appended to it.
    """
    path = Path(path)
    if is_parquet(path):
        return _keyed(
            _parquet_records(path),
            id_field,
            where_file=str(path),
            duplicates=duplicates,
            expected=expected,
        )
    text = read_text(path)
    if not text.strip():
        raise DataError("file is empty", where=str(path))
    if not is_jsonl(path):
        data = _parse(text, where=str(path), duplicates=duplicates)
        _check_kind(data, expected, str(path))
        if not isinstance(data, dict):
            raise DataError(
                f"expected a JSON object mapping ids to records, found {type_name(data)}",
                where=str(path),
            )
        return data
    lines = (
        (f"{path}:{lineno}", _parse(line, where=f"{path}:{lineno}", duplicates=duplicates))
        for lineno, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    )
    return _keyed(lines, id_field, where_file=str(path), duplicates=duplicates, expected=expected)


def _keyed(
    records: Iterable[tuple[str, Any]],
    id_field: str,
    *,
    where_file: str,
    duplicates: list[str] | None,
    expected: str | None,
) -> dict[str, Any]:
    """``{id: record}`` from (where, record) pairs, each record keyed by ``id_field``."""
    keyed: dict[str, Any] = {}
    for where, record in records:
        key = record_key(record, id_field, where=where)
        if key in keyed:
            if duplicates is None:
                raise DataError(f"duplicate {id_field} {key!r}", where=where)
            duplicates.append(key)
        keyed[key] = record
    _check_kind(keyed, expected, where_file)
    return keyed


def record_key(record: Any, id_field: str, *, where: str) -> str:
    """The id a JSONL or Parquet record carries in ``id_field`` (a ``DataError`` when
    the record is no object or the id no non-empty string)."""
    if not isinstance(record, dict):
        raise DataError(f"expected a JSON object, found {type_name(record)}", where=where)
    key = record.get(id_field)
    if not isinstance(key, str) or not key:
        raise DataError(f"missing or empty string field {id_field!r}", where=where)
    return key


def is_parquet(path: Path) -> bool:
    """Whether a path names a Parquet file (by its extension)."""
    return path.suffix.lower() in {".parquet", ".pq"}


def _parquet_records(path: Path) -> Iterator[tuple[str, Any]]:
    """Each row of a Parquet file as a plain record (lists and structs as Python lists
    and dicts; a null top-level field left out), read a batch of rows at a time."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise DataError(
            "reading Parquet needs pyarrow: pip install 'maieutic[ray]'", where=str(path)
        ) from None
    if not (path.is_file() or path.is_dir()):
        raise DataError("no such file" if not path.exists() else "not a file", where=str(path))
    try:
        if path.is_dir():  # a partitioned dataset, as Ray and Spark write them
            import pyarrow.dataset as pads

            # a column the data was partitioned by lives in the folder names
            # (dataset=US2016/): read back as a field, as pandas and Ray read it
            dataset = pads.dataset(path, format="parquet", partitioning="hive")
            batches = dataset.to_batches(batch_size=4096)
        else:
            batches = pq.ParquetFile(path).iter_batches(batch_size=4096)
        row = 0
        for batch in batches:
            for record in batch.to_pylist():
                row += 1
                # a column a row does not fill is null: the field is absent, as in JSON
                yield f"{path}: row {row}", {k: v for k, v in record.items() if v is not None}
    except (OSError, ValueError, pa.ArrowException) as exc:  # damaged files, parts that disagree
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DataError(f"not a readable Parquet file ({reason})", where=str(path)) from None


def _check_kind(data: Any, expected: str | None, where: str) -> None:
    if expected and (message := kinds.mixup_message(kinds.json_kind(data), expected=expected)):
        raise DataError(message, where=where)


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


__all__ = [
    "STDOUT",
    "decode_text",
    "is_jsonl",
    "is_parquet",
    "is_stdout",
    "json_text",
    "read_bytes",
    "read_keyed_records",
    "read_text",
    "rewritable",
    "type_name",
    "write_bytes",
    "write_json",
    "write_text",
    "write_together",
]
