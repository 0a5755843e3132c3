"""A critical-questions corpus read a record at a time into a ``CorpusStore`` (the Ray
engine's corpus runs): each intervention validated as the whole-file reader validates
it, kept on disk, and read back when a generator or writer asks for it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from maieutic.data.streaming import stream_keyed_records
from maieutic.engines.codec import from_plain
from maieutic.engines.corpus import CorpusStore, StoredItems
from maieutic.tasks.cqs.data import CQDataset, fingerprint_element, parse_intervention


@dataclass(kw_only=True)
class StoredCQDataset(CQDataset):
    """A dataset whose interventions live in a ``CorpusStore`` (a ``StoredItems``
    mapping), fingerprinted as the same dataset held in memory is."""

    stored_fingerprint: str = ""

    def fingerprint(self) -> str:
        """The store's hash of the canonical interventions in id order: equal to
        ``CQDataset.fingerprint`` for the same interventions."""
        return self.stored_fingerprint or super().fingerprint()


def stream_cq_dataset(
    path: str | Path, store: CorpusStore, *, limit: int | None = None
) -> StoredCQDataset:
    """The interventions of ``path`` (JSON object, JSONL or Parquet; the first
    ``limit`` only, when given) read one at a time into ``store``; labels not needed."""
    warnings: list[str] = []
    store.fill(
        stream_keyed_records(path, "intervention_id", limit),
        lambda where, *, key, record: parse_intervention(
            key, record, where, require_labels=False, warnings=warnings
        ),
        fingerprint_element,
        where=str(path),
        empty="dataset holds no interventions",
    )
    return StoredCQDataset(
        interventions=StoredItems(store, from_plain),  # type: ignore[arg-type]
        source=str(path),
        warnings=warnings,
        stored_fingerprint=store.fingerprint(),
    )
