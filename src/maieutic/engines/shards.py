"""Shard files: what a Ray run has finished, written as it finishes, so that a run
killed at any point and started again skips the rows already done.

A run's shards live in one folder (``OUT.shards/runK`` beside the output). Each shard is
a JSON Lines file of finished rows — ``{"index", "id", "outcome", "error", "stats"}`` —
written to a temporary name and renamed into place, so a shard is either whole or
absent. ``manifest.json`` records what the shards were made for (the signature and the
generator); a folder made for anything else is refused, never mixed in.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from maieutic.data import guard
from maieutic.errors import DataError

MANIFEST = "manifest.json"


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
    """One shard of finished rows, named after its first row's index."""
    first = min(row["index"] for row in rows)
    name = f"part-{first:010d}-{len(list(folder.glob('part-*.jsonl'))):05d}.jsonl"
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    path = folder / name
    _write_atomic(path, text)
    return path


def read_rows(folder: Path) -> Iterator[dict[str, Any]]:
    """Every row of every whole shard (a temporary file left by a killed run is not a
    shard, and is removed)."""
    if not folder.is_dir():
        return
    for leftover in folder.glob(".part-*.tmp"):
        leftover.unlink(missing_ok=True)
    for path in sorted(folder.glob("part-*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            for n, line in enumerate(handle, start=1):
                try:
                    row = json.loads(line)
                except ValueError as exc:
                    raise DataError(f"damaged shard line ({exc})", where=f"{path}:{n}") from None
                if not isinstance(row, dict) or not isinstance(row.get("index"), int):
                    raise DataError("damaged shard line (no row index)", where=f"{path}:{n}")
                yield row


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
