"""A FOCUS corpus in the native layout (JSON Lines, a JSON object, Parquet) read a
record at a time into a ``CorpusStore`` (the Ray engine's corpus runs): each argument
validated and flagged as the whole-file reader does it, kept on disk. The released
CSV layout is read whole: its checks span rows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maieutic.data.files import is_jsonl, is_parquet
from maieutic.data.streaming import stream_keyed_records
from maieutic.engines.codec import from_plain
from maieutic.engines.corpus import CorpusStore, StoredItems
from maieutic.tasks.focus.data import Reader, check_types, native_item
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet, fingerprint_element


@dataclass(kw_only=True)
class StoredFocusSet(FocusSet):
    """Arguments living in a ``CorpusStore`` (a ``StoredItems`` mapping), fingerprinted
    as the same arguments held in memory are."""

    stored_fingerprint: str = ""

    def fingerprint(self) -> str:
        """The store's hash of the canonical arguments in id order: equal to
        ``FocusSet.fingerprint`` for the same arguments."""
        return self.stored_fingerprint or super().fingerprint()


def streams(path: str | Path) -> bool:
    """Whether ``path`` is in a layout read a record at a time (not the CSV)."""
    path = Path(path)
    return is_jsonl(path) or is_parquet(path) or path.suffix.lower() == ".json"


def stream_focus_arguments(
    path: str | Path, store: CorpusStore, *, limit: int | None = None
) -> StoredFocusSet:
    """The arguments of a native file (the first ``limit`` only, when given) read one
    at a time into ``store``; labels kept when present, as ``load_arguments`` keeps them."""
    path = Path(path)
    reader, types = Reader(str(path)), Reader(str(path))

    def parse(where: str, *, key: str, record: Any) -> FocusItem:
        item = native_item(reader, path, key, record=record)
        check_types(types, item)  # flagged after the per-record flags, as a whole read does
        return item

    records = stream_keyed_records(path, "id", limit)
    store.fill(
        records,
        parse,
        fingerprint_element,
        where=str(path),
        empty="no rows: the file holds no arguments",
    )
    return StoredFocusSet(
        items=StoredItems(store, from_plain),  # type: ignore[arg-type]
        source=str(path),
        name=path.stem,
        flags=[*reader.flags, *types.flags],
        warnings=reader.warnings(),
        layout="jsonl",
        stored_fingerprint=store.fingerprint(),
    )
