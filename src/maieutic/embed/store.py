"""A persistent embedding cache keyed by (model identity, text hash).

SQLite rather than loose ``.npy`` files: one file, atomic batched writes, safe
under concurrent runs, and a look-up of thousands of keys is one indexed query. A
damaged file (cut short, overwritten) is moved aside and a fresh cache started: it
only ever costs the vectors being computed again.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence

import numpy as np

from maieutic.paths import DamageSafeStore, survives_damage, use_wal

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
"""
_CHUNK = 500  # stays well under SQLite's bound-parameter limit


def text_hash(text: str) -> str:
    """The cache key of a text (sha256 of its UTF-8 bytes)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingStore(DamageSafeStore):
    """Embeddings on disk, under ``MAIEUTIC_HOME/embeddings.sqlite`` by default."""

    FILE_NAME = "embeddings.sqlite"

    def _connect(self) -> None:
        """Connect and create the table; a damaged file usually shows here."""
        self._db = sqlite3.connect(self.path, timeout=60)
        use_wal(self._db)
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()

    @survives_damage
    def get_many(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Return the cached vectors among ``hashes``, keyed by hash."""
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(hashes), _CHUNK):
            chunk = list(hashes[start : start + _CHUNK])
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                "SELECT text_hash, vector FROM embeddings "
                f"WHERE model=? AND text_hash IN ({marks})",
                [model, *chunk],
            )
            for key, blob in rows:
                found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        """Store vectors (as float32) in one transaction."""
        rows = [
            (model, key, int(vec.shape[0]), np.asarray(vec, dtype=np.float32).tobytes())
            for key, vec in items
        ]
        self._insert(rows)

    @survives_damage
    def _insert(self, rows: list[tuple[str, str, int, bytes]]) -> None:
        # apart from put_many: ``items`` may be a generator, and a retry on a fresh
        # file must insert the same rows again
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)", rows)

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()


def embed_texts(
    texts: Sequence[str], encoder, store: EmbeddingStore | None = None
) -> dict[str, np.ndarray]:
    """Embed every distinct text once: cached vectors are reused, the rest encoded in one pass.

    Returns a mapping from text to its unit-normalised vector.
    """
    distinct = list(dict.fromkeys(texts))
    by_hash = {text_hash(t): t for t in distinct}
    cached = store.get_many(encoder.identity, list(by_hash)) if store else {}
    vectors = {by_hash[h]: v for h, v in cached.items()}
    todo = [t for t in distinct if t not in vectors]
    if todo:
        encoded = encoder.encode(todo)
        fresh = dict(zip(todo, encoded, strict=True))
        vectors.update(fresh)
        if store:
            store.put_many(encoder.identity, ((text_hash(t), v) for t, v in fresh.items()))
    return vectors
