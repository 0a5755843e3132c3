"""Damaged cache files do not end a run: a file cut short, overwritten with garbage or
damaged in the middle is moved aside (``NAME.damaged-<timestamp>``, with its -wal and
-shm), one warning line says so, and the run goes on with a fresh cache. A cache that
cannot be written (a full disk) is one clear error line."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from maieutic.embed.store import EmbeddingStore
from maieutic.errors import RunError
from maieutic.llm.store import CallStore
from maieutic.llm.types import BackendReply
from maieutic.paths import set_aside

REPLY = BackendReply(text="Why act now?", model="m", prompt_tokens=3, completion_tokens=4)
VECTORS = [(f"h{i}", np.full(64, i, dtype=np.float32)) for i in range(2000)]


def _filled_llm_cache() -> Path:
    store = CallStore()  # under the test's own MAIEUTIC_HOME
    for i in range(800):
        store.put(
            f"k{i}",
            BackendReply(text=f"reply {i} " * 30, model="m", prompt_tokens=1, completion_tokens=2),
        )
    store.close()
    return store.path


def _filled_embedding_cache() -> Path:
    store = EmbeddingStore()
    store.put_many("enc", VECTORS)
    store.close()
    return store.path


def _use_llm(path: Path) -> None:
    store = CallStore(path)
    store.rows("cache")  # reads every page of the cache
    store.put("new", REPLY)
    assert store.get("new") == REPLY
    store.close()


def _use_embeddings(path: Path) -> None:
    store = EmbeddingStore(path)
    store.get_many("enc", [key for key, _ in VECTORS])
    store.put_many("enc", (item for item in VECTORS[:3]))  # a generator, as callers pass
    assert sorted(store.get_many("enc", ["h0", "h1", "h2"])) == ["h0", "h1", "h2"]
    store.close()


def _garbage_header(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[:100] = b"\x8f" * 100
    path.write_bytes(bytes(data))


def _cut_in_half(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _damaged_in_the_middle(path: Path) -> None:
    # the header and schema stay readable: the damage only shows when the data is read
    with path.open("r+b") as file:
        file.seek(path.stat().st_size // 2)
        file.write(b"\x8f" * 20_000)


def _aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


STORES = {
    "llm": (_filled_llm_cache, _use_llm),
    "embeddings": (_filled_embedding_cache, _use_embeddings),
}
DAMAGE = [_garbage_header, _cut_in_half, _damaged_in_the_middle]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("kind", STORES)
def test_a_damaged_cache_is_set_aside_and_replaced(kind, damage, capsys):
    fill, use = STORES[kind]
    path = fill()
    damage(path)
    damaged_bytes = path.read_bytes()
    capsys.readouterr()
    use(path)
    lines = capsys.readouterr().err.splitlines()
    [aside] = _aside(path)
    assert len(lines) == 1 and lines[0].startswith("warning: the cache")
    assert str(path) in lines[0] and str(aside) in lines[0]
    assert aside.read_bytes() == damaged_bytes  # kept as it was, for inspection
    use(path)  # the fresh cache is healthy: no second warning, nothing more set aside
    assert capsys.readouterr().err == "" and len(_aside(path)) == 1


def test_a_stale_write_ahead_log_is_never_replayed_into_the_fresh_cache(capsys):
    path = _filled_llm_cache()
    _garbage_header(path)
    wal = path.with_name(path.name + "-wal")
    wal.write_bytes(b"stale log")
    _use_llm(path)
    assert not wal.exists() or b"stale log" not in wal.read_bytes()
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_set_aside_moves_the_database_with_its_log_and_shared_memory(tmp_path, capsys):
    path = tmp_path / "embeddings.sqlite"
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).write_text(f"damaged{suffix}")
    aside = set_aside(path, "file is not a database")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        aside.name,
        f"{aside.name}-shm",
        f"{aside.name}-wal",
    ]
    assert aside.with_name(aside.name + "-wal").read_text() == "damaged-wal"
    path.write_text("damaged again")
    assert set_aside(path, "again") != aside  # a second damage the same second keeps both
    [line] = capsys.readouterr().err.splitlines()[:1]
    assert f"moved it to {aside}" in line and "(file is not a database)" in line


def test_other_database_errors_are_not_taken_for_damage(tmp_path):
    store = CallStore(tmp_path / "llm.sqlite")
    with pytest.raises(ValueError):
        store.rows("no such table")
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        store._db.execute("SELECT * FROM missing")
    assert _aside(store.path) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("kind", STORES)
def test_a_cache_on_a_full_disk_is_one_clear_error(kind, tmp_path):
    path = tmp_path / f"{kind}.sqlite"
    path.symlink_to("/dev/full")  # every write fails with "no space left on device"
    with pytest.raises(RunError, match=f"cannot write {path}: database or disk is full"):
        STORES[kind][1](path)


def test_two_processes_opening_a_new_cache_together_both_go_on(tmp_path):
    # Both find the migration missing; the other one commits it first, and this one's
    # migration then fails on the tables already there (seen with the hardening
    # harness's threads writing their valid files at once): it is done, not an error.
    path = tmp_path / "llm.sqlite"

    class Raced(CallStore):
        def _migrate(self) -> None:
            real = self._db

            class Connection:
                def __getattr__(self, name):
                    return getattr(real, name)

                def __enter__(self):
                    return real.__enter__()

                def __exit__(self, *exc):
                    return real.__exit__(*exc)

                def executescript(self, script):
                    CallStore(path).close()  # the other process, between check and migration
                    return real.executescript(script)

            self._db = Connection()
            try:
                super()._migrate()
            finally:
                self._db = real

    store = Raced(path)
    store.put("k", REPLY)
    assert store.get("k") == REPLY
    assert [r[0] for r in store._db.execute("SELECT name FROM _migrations")] == [
        "m001_cache_and_log"
    ]
    store.close()


def test_switching_a_new_file_to_wal_waits_for_the_others(monkeypatch):
    # SQLite answers "database is locked" at once, not after its timeout, when several
    # connections switch one new file to WAL together: the switch is tried again
    from maieutic import paths

    class Connection:
        answers = [sqlite3.OperationalError("database is locked")] * 2 + [None]

        def execute(self, sql):
            assert sql == "PRAGMA journal_mode=WAL"
            answer = self.answers.pop(0)
            if answer is not None:
                raise answer

    monkeypatch.setattr(paths.time, "sleep", lambda _s: None)
    db = Connection()
    paths.use_wal(db)
    assert db.answers == []
    broken = Connection()
    broken.answers = [sqlite3.OperationalError("disk I/O error")]
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        paths.use_wal(broken)  # any other error is not waited out


@pytest.mark.parametrize("store_class", [CallStore, EmbeddingStore])
def test_eight_threads_opening_one_new_cache_all_go_on(tmp_path, store_class):
    import threading

    errors = []
    for trial in range(10):
        path = tmp_path / f"{trial}.sqlite"
        start = threading.Barrier(8)

        def open_it(path=path, start=start):
            try:
                start.wait()
                store_class(path).close()
            except Exception as exc:  # every failure is the finding
                errors.append(repr(exc))

        threads = [threading.Thread(target=open_it) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
