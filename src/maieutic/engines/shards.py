"""Shard files: what a Ray run has finished, written as it finishes, so that a run
killed at any point and started again skips the rows already done.

A run's shards live in one folder (``OUT.shards/runK`` beside the output). Each shard is
a JSON Lines file of finished rows — ``{"index", "id", "outcome", "error", "stats"}`` —
written to a temporary name and renamed into place, so a shard is either whole or
absent. ``manifest.json`` records what the shards were made for (the signature and the
generator); a folder made for anything else is refused, never mixed in.

Each row also carries ``sha256``, the digest of the folder's manifest and the row's
other fields as canonical JSON, so a row is sealed to the run it was made for. A
resumed run keeps a row only if it is whole and its own: the digest matches (a row
copied from a shard folder of another run, another seed or other data does not), its
index is a position of the input and the input's id there is the row's, and every
field has its type. Any other row (edited, torn, foreign) is left out, so it is
generated again, and the shard is named in one warning line.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from maieutic.data import guard
from maieutic.errors import DataError

MANIFEST = "manifest.json"
DIGEST = "sha256"
"""The field of a shard row that holds the digest of its other fields."""
_FIELDS = frozenset(
    {"index", "id", "outcome", "error", "failed", "trace", "stats", "warnings", "notes", DIGEST}
)


def shard_folder(out: Path, run_index: int) -> Path:
    """Where run ``run_index``'s shards of the output ``out`` go."""
    out = Path(out).resolve()  # "." and "dir/" have no name of their own
    return out.with_name(f"{out.name}.shards") / f"run{run_index + 1}"


def open_folder(folder: Path, manifest: dict[str, Any]) -> None:
    """Create ``folder`` for ``manifest``'s run, or check that an existing one was made
    for the same run (a mismatch is refused with one line)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / MANIFEST
    if path.exists():
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise DataError(f"unreadable shard manifest ({exc})", where=str(path)) from None
        if found != manifest:
            raise DataError(
                "these shards were made by another generator or for other data: remove "
                "the folder or choose another --out",
                where=str(folder),
            )
        return
    _write_atomic(path, json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def write_shard(folder: Path, rows: list[dict[str, Any]]) -> Path:
    """One shard of finished rows, named after its first row's index, each row with
    its digest (sealed to the folder's manifest)."""
    first = min(row["index"] for row in rows)
    name = f"part-{first:010d}-{len(list(folder.glob('part-*.jsonl'))):05d}.jsonl"
    run = run_key(folder)
    text = "".join(json.dumps(sealed(row, run), ensure_ascii=False) + "\n" for row in rows)
    path = folder / name
    _write_atomic(path, text)
    return path


def sealed(row: dict[str, Any], run: str = "") -> dict[str, Any]:
    """``row`` with its digest (``sha256``) for the run ``run`` (``run_key``) added."""
    return {**row, DIGEST: row_digest(row, run)}


def run_key(folder: Path) -> str:
    """What a row of ``folder`` is sealed to: its manifest as canonical JSON ("" for a
    folder without one)."""
    path = folder / MANIFEST
    if not path.exists():
        return ""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""  # open_folder refuses an unreadable manifest before any row is read
    return _canonical(manifest)


def row_digest(row: dict[str, Any], run: str = "") -> str:
    """The digest of ``run`` and a row's fields but ``sha256``, as canonical JSON
    (sorted keys, no spaces): the same for a row and for the row read back from its
    line, different for the same row made for another run."""
    fields = {k: v for k, v in row.items() if k != DIGEST}
    return hashlib.sha256(f"{run}\n{_canonical(fields)}".encode()).hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def read_rows(
    folder: Path,
    id_at: Callable[[int], str | None],
    warn: Callable[[str], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Every sound row of every whole shard (a temporary file left by a killed run is
    not a shard, and is removed). ``id_at(index)``: the input's id at ``index``, None
    past its end. A row that is not sound is left out (so it is generated again) and
    its shard named in one line to ``warn`` (default: standard error)."""
    if not folder.is_dir():
        return
    for leftover in folder.glob(".part-*.tmp"):
        leftover.unlink(missing_ok=True)
    run = run_key(folder)
    for path in sorted(folder.glob("part-*.jsonl")):
        bad = 0
        with path.open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                row = _parsed(line)
                if row is not None and sound(row, id_at, run):
                    yield row
                else:
                    bad += 1
        if bad:
            (warn or _warn)(f"{path}: {bad} damaged or foreign row(s) left out and generated again")


def _parsed(line: str) -> dict[str, Any] | None:
    try:
        row = json.loads(line)
    except ValueError:
        return None
    return row if isinstance(row, dict) else None


def sound(row: dict[str, Any], id_at: Callable[[int], str | None], run: str = "") -> bool:
    """Whether a shard row can be used as it is: its digest matches for the run ``run``,
    its index and id are those of an input position, and each field has the type the
    engine writes."""
    if row.get(DIGEST) != row_digest(row, run) or set(row) != _FIELDS:
        return False
    index, stats = row["index"], row["stats"]
    if type(index) is not int or index < 0 or row["id"] != id_at(index):
        return False
    counts = isinstance(stats, list) and len(stats) == 3
    if not counts or any(type(n) is not int or n < 0 for n in stats):
        return False
    error, outcome = row["error"], row["outcome"]
    return (
        ((error is None and isinstance(outcome, list)) or isinstance(error, str))
        and type(row["failed"]) is bool
        and (row["trace"] is None or isinstance(row["trace"], str))
        and all(_strings(row[k]) for k in ("warnings", "notes"))
    )


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _warn(line: str) -> None:
    print(f"warning: {line}", file=sys.stderr)


def succeeded(row: dict[str, Any]) -> bool:
    """Whether a row is done for good (neither raised nor failed a model call)."""
    return row.get("error") is None and not row.get("failed")


def finished(rows: Iterable[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Index → the row to keep: a row that succeeded wins over one that failed (failed
    rows are tried again by a resumed run), and a later row over an earlier one."""
    kept: dict[int, dict[str, Any]] = {}
    for row in rows:
        before = kept.get(row["index"])
        if before is None or succeeded(row) or not succeeded(before):
            kept[row["index"]] = row
    return kept


def _write_atomic(path: Path, text: str) -> None:
    guard.check_output(path)  # a shard is an output too: never over an input
    temporary = path.with_name(f".{path.stem}.tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
