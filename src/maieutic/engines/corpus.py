"""A corpus run's input and finished rows on disk, so that the driver's memory does not
grow with the number of texts.

The input is read a record at a time into an SQLite file (``CorpusStore``) under
maieutic's home; the generator sees it as a mapping that reads items from that file
(``StoredItems``), and the finished rows go into the same file as they arrive, to be
read back in input order when the standard files are written. The file is scratch:
rebuilt at each start (the shards are what a resumed run keeps) and removed when the
run's ``Generation`` is dropped or the process ends.

Signatures are kept: the dataset fingerprint hashes every item's canonical form in
id order, and SQLite's default (BINARY) collation orders UTF-8 text by bytes, which
is code-point order, i.e. Python's ``sorted`` on ``str``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

from maieutic.data import guard
from maieutic.engines.codec import to_plain
from maieutic.errors import DataError

_SCHEMA = """
CREATE TABLE items (pos INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
                    item TEXT NOT NULL, canon TEXT NOT NULL);
CREATE TABLE done (run INTEGER NOT NULL, pos INTEGER NOT NULL, ok INTEGER NOT NULL,
                   row TEXT NOT NULL, PRIMARY KEY (run, pos));
"""

_PREFIX = ".corpus-"


class ParsesRecord(Protocol):
    """A task's reader of one stored record: ``where`` it was read, its id and its
    JSON value to the task's item (a ``DataError`` naming what is wrong)."""

    def __call__(self, where: str, *, key: str, record: Any) -> Any: ...


class CorpusStore:
    """The items of one input (id, plain JSON, canonical fingerprint form) in input
    order, and the rows finished for them, in a scratch SQLite file under ``folder``."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale(folder)
        self.folder = Path(tempfile.mkdtemp(dir=folder, prefix=f"{_PREFIX}{os.getpid()}-"))
        path = self.folder / "corpus.sqlite"
        guard.check_output(path)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        # scratch, rebuilt at every start: no journal, no waiting on the disk
        self._db.executescript(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-16000;" + _SCHEMA
        )
        self._db.execute("BEGIN")
        self._count = 0
        self._finalizer = weakref.finalize(self, _discard, self._db, self.folder)

    def add(self, where: str, *, key: str, item: Any, canon: Any) -> None:
        """Add one item (``item`` and ``canon`` plain JSON values); a repeated id is
        an error naming ``where``."""
        try:
            self._db.execute(
                "INSERT INTO items VALUES (?, ?, ?, ?)",
                (self._count, key, _dumps(item), _dumps(canon)),
            )
        except sqlite3.IntegrityError:
            raise DataError(f"duplicate id {key!r}", where=where) from None
        except UnicodeEncodeError:
            raise DataError("text holds a lone surrogate (not UTF-8)", where=where) from None
        self._count += 1

    def fill(
        self,
        records: Iterable[tuple[str, str, Any]],
        parse: ParsesRecord,
        canonical: Callable[[Any], Any],
        *,
        where: str,
        empty: str,
    ) -> None:
        """Every (where, id, record) read, parsed into a task item by ``parse`` and
        added with its fingerprint form ``canonical(item)``; an input with no item is
        the error ``empty`` naming ``where``."""
        for at, key, record in records:
            item = parse(at, key=key, record=record)
            self.add(at, key=key, item=to_plain(item), canon=canonical(item))
        self._db.execute("COMMIT")
        if not self._count:
            raise DataError(empty, where=where)

    def __len__(self) -> int:
        return self._count

    def fingerprint(self) -> str:
        """``sha256:`` of the canonical forms as one compact JSON array in id order:
        the hash a task's in-memory fingerprint gives for the same items."""
        digest = hashlib.sha256(b"[")
        for n, (canon,) in enumerate(self._db.execute("SELECT canon FROM items ORDER BY id")):
            digest.update((b"," if n else b"") + canon.encode("utf-8"))
        digest.update(b"]")
        return "sha256:" + digest.hexdigest()

    def ids_digest(self) -> str:
        """``sha256:`` of the ids in input order, one a line (the shards' manifest)."""
        digest = hashlib.sha256()
        for n, (key,) in enumerate(self._db.execute("SELECT id FROM items ORDER BY pos")):
            digest.update((b"\n" if n else b"") + key.encode("utf-8"))
        return "sha256:" + digest.hexdigest()

    def items(self) -> Iterator[tuple[int, str, Any]]:
        """(position, id, plain item) in input order."""
        for pos, key, item in self._db.execute("SELECT pos, id, item FROM items ORDER BY pos"):
            yield pos, key, json.loads(item)

    def item(self, key: str) -> Any:
        """The plain item with id ``key`` (``KeyError`` if none)."""
        found = self._db.execute("SELECT item FROM items WHERE id = ?", (key,)).fetchone()
        if found is None:
            raise KeyError(key)
        return json.loads(found[0])

    def id_at(self, pos: int) -> str | None:
        """The id at input position ``pos`` (None past the end)."""
        if not 0 <= pos < len(self):  # SQLite cannot even compare an integer past 2**63
            return None
        found = self._db.execute("SELECT id FROM items WHERE pos = ?", (pos,)).fetchone()
        return None if found is None else found[0]

    def has(self, key: str) -> bool:
        """Whether an item has id ``key``."""
        return self._db.execute("SELECT 1 FROM items WHERE id = ?", (key,)).fetchone() is not None

    def pending(self, run: int) -> Iterator[tuple[int, str, str]]:
        """(position, id, item JSON) of every item with no row done for good in run
        ``run``."""
        yield from self._db.execute(
            "SELECT pos, id, item FROM items WHERE pos NOT IN "
            "(SELECT pos FROM done WHERE run = ? AND ok = 1) ORDER BY pos",
            (run,),
        )

    def n_pending(self, run: int) -> int:
        """How many items have no row done for good in run ``run``."""
        query = "SELECT count(*) FROM done WHERE run = ? AND ok = 1"
        return self._count - self._db.execute(query, (run,)).fetchone()[0]

    def finish(
        self, run: int, rows: list[dict[str, Any]], ok: Callable[[dict[str, Any]], bool]
    ) -> None:
        """Keep run ``run``'s finished rows: one that succeeded (``ok``) wins over one
        that failed, and a later one over an earlier one (as ``shards.finished``)."""
        self._db.execute("BEGIN")
        self._db.executemany(
            "INSERT INTO done VALUES (?, ?, ?, ?) ON CONFLICT (run, pos) DO UPDATE SET "
            "ok = excluded.ok, row = excluded.row WHERE excluded.ok = 1 OR done.ok = 0",
            [(run, r["index"], int(ok(r)), json.dumps(r, ensure_ascii=False)) for r in rows],
        )
        self._db.execute("COMMIT")

    def finished(self, run: int) -> Iterator[tuple[str, Any, dict[str, Any]]]:
        """(id, plain item, row) of every item of run ``run`` in input order (each
        must have a row)."""
        query = (
            "SELECT i.id, i.item, d.row FROM items i LEFT JOIN done d "
            "ON d.pos = i.pos AND d.run = ? ORDER BY i.pos"
        )
        for key, item, row in self._db.execute(query, (run,)):
            if row is None:
                raise RuntimeError(f"no finished row for {key!r}")
            yield key, json.loads(item), json.loads(row)

    def close(self) -> None:
        """Remove the scratch file now (it also goes when the store is dropped)."""
        self._finalizer()


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _discard(db: sqlite3.Connection, folder: Path) -> None:
    db.close()
    shutil.rmtree(folder, ignore_errors=True)
    parent = folder.parent
    if parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()


def _remove_stale(folder: Path) -> None:
    """Scratch folders left by a run that was killed (its process is gone)."""
    for stale in folder.glob(f"{_PREFIX}*"):
        pid = stale.name[len(_PREFIX) :].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class StoredItems(Mapping):
    """The store's items as a read-only mapping id → item, each decoded by ``decode``
    when read: what a task's dataset holds in place of a dict for a corpus run."""

    def __init__(self, store: CorpusStore, decode: Callable[[Any], Any]) -> None:
        self.store, self.decode = store, decode

    def __getitem__(self, key: str) -> Any:
        return self.decode(self.store.item(key))

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.store.has(key)

    def __iter__(self) -> Iterator[str]:
        return (key for _, key, _ in self.store.items())

    def __len__(self) -> int:
        return len(self.store)

    def __reduce__(self) -> tuple:
        # sent to another process (a few-shot pool drawn from the whole input, say):
        # it goes as a plain dict, the one case where the corpus is held whole
        return (dict, (list(self.items()),))

    def items(self) -> Any:  # one query, not one per key
        return _Iterated(lambda: ((k, self.decode(v)) for _, k, v in self.store.items()), self)

    def values(self) -> Any:
        return _Iterated(lambda: (self.decode(v) for _, _, v in self.store.items()), self)


class PairsMapping(Mapping):
    """A read-only mapping whose (key, value) pairs come from ``pairs()``, called anew
    each time it is iterated: made from a corpus run's outcomes, never held whole.
    A lookup by key scans; it is meant to be iterated."""

    def __init__(self, pairs: Callable[[], Iterator[tuple[str, Any]]]) -> None:
        self.pairs = pairs

    def __getitem__(self, key: str) -> Any:
        for found, value in self.pairs():
            if found == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self.pairs())

    def __len__(self) -> int:
        return sum(1 for _ in self.pairs())

    def items(self) -> Any:
        return _Iterated(self.pairs, self)

    def values(self) -> Any:
        return _Iterated(lambda: (value for _, value in self.pairs()), self)


class _Iterated:
    """A mapping's items or values, read afresh each time they are iterated."""

    def __init__(self, source: Callable[[], Iterator[Any]], mapping: Mapping) -> None:
        self.source, self.mapping = source, mapping

    def __iter__(self) -> Iterator[Any]:
        return self.source()

    def __len__(self) -> int:
        return len(self.mapping)


def mapping_from(
    source: Any, pairs: Callable[[], Iterator[tuple[str, Any]]]
) -> dict[str, Any] | PairsMapping:
    """The mapping of ``pairs()``: read again at each use when ``source`` (the
    outcomes they are made from) is a corpus run's (``streamed``), a dict otherwise."""
    if getattr(source, "streamed", False):
        return PairsMapping(pairs)
    return dict(pairs())
