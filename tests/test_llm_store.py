"""The call store's migrations: each applies with its bookkeeping row, or not at all."""

from __future__ import annotations

import sqlite3

import pytest

from maieutic.llm import store as store_module
from maieutic.llm.store import CallStore


def _tables(path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _applied(path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM _migrations")]


def test_a_migration_failing_half_way_leaves_nothing_behind(tmp_path, monkeypatch):
    path = tmp_path / "llm.sqlite"
    CallStore(path).close()
    broken = (
        "m002_broken",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);",
    )
    monkeypatch.setattr(store_module, "MIGRATIONS", [*store_module.MIGRATIONS, broken])
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        CallStore(path)
    # neither its first table nor its row exist: a later run can apply it cleanly
    assert "half_done" not in _tables(path)
    assert _applied(path) == ["m001_cache_and_log"]
    fixed = ("m002_broken", "CREATE TABLE half_done (x INTEGER);")
    monkeypatch.setattr(store_module, "MIGRATIONS", [*store_module.MIGRATIONS[:1], fixed])
    CallStore(path).close()
    assert "half_done" in _tables(path)
    assert _applied(path) == ["m001_cache_and_log", "m002_broken"]


def test_opening_twice_applies_each_migration_once(tmp_path):
    path = tmp_path / "llm.sqlite"
    CallStore(path).close()
    CallStore(path).close()
    assert _applied(path) == ["m001_cache_and_log"]
    assert {"cache", "calls", "_migrations"} <= _tables(path)
