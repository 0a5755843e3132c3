"""Persistent LLM call cache and call log, in one SQLite file under ``MAIEUTIC_HOME``.

The cache makes runs resumable: every finished call is committed at once, so a run
killed at any point repeats none of them when started again. The log keeps one row
per call attempt outcome (latency, tokens, cache hit, error) for auditing. The
schema changes only through the numbered, append-only migrations below. A damaged
file (cut short, overwritten) is moved aside and the run goes on with a fresh cache.
"""

from __future__ import annotations

import json
import sqlite3
import time

from maieutic.llm.types import BackendReply
from maieutic.paths import DamageSafeStore, survives_damage, use_wal

MIGRATIONS: list[tuple[str, str]] = [
    (
        "m001_cache_and_log",
        """
        CREATE TABLE cache (
            key TEXT PRIMARY KEY,
            model TEXT NOT NULL,
            reply TEXT NOT NULL,
            created REAL NOT NULL
        );
        CREATE TABLE calls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            ts REAL NOT NULL,
            backend TEXT NOT NULL,
            model TEXT NOT NULL,
            key TEXT NOT NULL,
            tag TEXT,
            latency_ms REAL,
            prompt_tokens INTEGER,
            completion_tokens INTEGER,
            cache_hit INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            error TEXT
        );
        """,
    ),
]


class CallStore(DamageSafeStore):
    """The cache (``get``/``put``) and the log (``log``) of LLM calls."""

    FILE_NAME = "llm.sqlite"

    def _connect(self) -> None:
        """Connect and migrate; a damaged file usually shows here (``survives_damage``)."""
        self._db = sqlite3.connect(self.path, timeout=60)
        use_wal(self._db)
        # WAL + NORMAL: a committed call survives a killed process (what resuming needs);
        # only a power cut could lose the last few, and each commit skips an fsync.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._migrate()

    def _migrate(self) -> None:
        with self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY)")
        done = {row[0] for row in self._db.execute("SELECT name FROM _migrations")}
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            # executescript commits whatever is pending before it runs, so the migration
            # and its bookkeeping row go in one explicit transaction of their own: both
            # happen or neither does (SQLite DDL is transactional)
            script = f"BEGIN;\n{sql}\nINSERT INTO _migrations VALUES ('{name}');\nCOMMIT;"
            try:
                self._db.executescript(script)
            except sqlite3.Error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if self._done_meanwhile(name):
                    continue  # another process opened the same new file at the same time
                raise

    def _done_meanwhile(self, name: str) -> bool:
        """Whether migration ``name`` is recorded now: two processes (or threads) that
        open a new cache together both find it missing, and the second one's migration
        fails on the tables the first one made, in the transaction it committed."""
        row = self._db.execute("SELECT 1 FROM _migrations WHERE name=?", (name,)).fetchone()
        return row is not None

    @survives_damage
    def get(self, key: str) -> BackendReply | None:
        """The cached reply for ``key``, if any."""
        row = self._db.execute("SELECT reply FROM cache WHERE key=?", (key,)).fetchone()
        return BackendReply(**json.loads(row[0])) if row else None

    @survives_damage
    def put(self, key: str, reply: BackendReply) -> None:
        """Store a reply and commit at once (a later kill must not lose it)."""
        with self._db:
            self._cache(key, reply)

    def _cache(self, key: str, reply: BackendReply) -> None:
        payload = json.dumps(reply.__dict__, ensure_ascii=False)
        self._db.execute(
            "INSERT OR REPLACE INTO cache VALUES (?, ?, ?, ?)",
            (key, reply.model, payload, time.time()),
        )

    @survives_damage
    def log(
        self,
        *,
        backend: str,
        model: str,
        key: str,
        tag: str,
        latency_s: float | None,
        reply: BackendReply | None,
        cache_hit: bool,
        attempts: int,
        error: str | None,
        cache_under: tuple[str, ...] = (),
    ) -> None:
        """Append one row to the call log; with ``cache_under``, also store ``reply``
        under each of those keys, in the same transaction (one commit per finished call:
        the client's event loop waits for it, so two would slow every call)."""
        with self._db:
            if reply is not None:
                for cache_key in cache_under:
                    self._cache(cache_key, reply)
            self._db.execute(
                "INSERT INTO calls (ts, backend, model, key, tag, latency_ms, prompt_tokens, "
                "completion_tokens, cache_hit, attempts, error) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    time.time(),
                    backend,
                    model,
                    key,
                    tag,
                    None if latency_s is None else 1000 * latency_s,
                    reply.prompt_tokens if reply else None,
                    reply.completion_tokens if reply else None,
                    int(cache_hit),
                    attempts,
                    error,
                ),
            )

    @survives_damage
    def rows(self, table: str) -> list[dict]:
        """All rows of ``cache`` or ``calls`` as dicts (for inspection and tests)."""
        if table not in {"cache", "calls"}:
            raise ValueError(table)
        cursor = self._db.execute(f"SELECT * FROM {table}")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def close(self) -> None:
        """Close the database."""
        self._db.close()
