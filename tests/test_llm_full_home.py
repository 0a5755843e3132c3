"""A ``MAIEUTIC_HOME`` that fills up while ``generate cqs --generator llm`` runs is one
error line naming ``llm.sqlite``, exit 1: the calls still in flight when the first
write fails are stopped quietly, not reported as tracebacks from asyncio's shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.errors import RunError
from maieutic.llm.client import LLMClient
from maieutic.llm.types import BackendReply, ChatRequest
from tests.conftest import plan_interventions, write_json
from tests.fake_server import FakeOpenAIServer

# The command line in a process of its own (what a user sees on stderr), with each
# llm.sqlite unable to grow past the pages it has once opened: SQLite's own "database
# or disk is full" (SQLITE_FULL), as on a disk with no space left.
FULL_DISK_MAIN = """
import sys
from maieutic.llm.store import CallStore
connect = CallStore._connect
def capped(self):
    connect(self)
    pages = self._db.execute("PRAGMA page_count").fetchone()[0]
    self._db.execute(f"PRAGMA max_page_count = {pages}")
CallStore._connect = capped
from maieutic.cli.main import main
sys.argv[0] = "maieutic"
main()
"""


def _dataset(tmp_path, n: int = 24):
    return write_json(tmp_path / "items.json", plan_interventions(n))


def test_a_home_filling_up_mid_run_is_one_line(tmp_path):
    home, out = tmp_path / "home", tmp_path / "cqs.json"
    with FakeOpenAIServer(delay_s=0.2) as server:
        result = subprocess.run(
            [
                sys.executable, "-c", FULL_DISK_MAIN, "generate", "cqs",
                "--data", str(_dataset(tmp_path)), "--generator", "llm",
                "--base-url", server.base_url, "--llm", "fake", "--concurrency", "8",
                "--out", str(out),
            ],
            env=dict(os.environ, MAIEUTIC_HOME=str(home)),
            capture_output=True,
            text=True,
            timeout=120,
        )  # fmt: skip
    assert len(server.requests) >= 2  # the first reply could not be stored
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert "unhandled exception" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"cannot write {home / 'llm.sqlite'}: database or disk is full" in lines[0]
    assert not out.exists()


class _LateReplies:
    """The first call answers at once; the others answer only as they are cancelled:
    a reply that arrives just as its call is cancelled (``asyncio.wait_for`` on Python
    3.11 then returns it instead of raising), so the call goes on to store it."""

    kind, model_identity, secrets = "scripted", "late", ()

    def __init__(self) -> None:
        self.calls = 0

    async def chat(self, request: ChatRequest, timeout: float) -> BackendReply:
        self.calls += 1
        if self.calls > 1:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(3600)
        return BackendReply(text=f"reply {self.calls}", model="late")


class _FullStore:
    """A call cache on a full disk: reads find nothing, every write fails."""

    path = Path("llm.sqlite")

    def get(self, key: str) -> None:
        return None

    def put(self, key: str, reply: BackendReply) -> None:
        raise RunError(f"cannot write {self.path}: database or disk is full")

    def log(self, *, cache_under: tuple[str, ...] = (), **fields) -> None:
        if cache_under:  # a finished call is cached with its log row
            raise RunError(f"cannot write {self.path}: database or disk is full")


def test_calls_in_flight_when_a_write_fails_end_quietly(caplog):
    client = LLMClient(_LateReplies(), _FullStore(), concurrency=4)  # type: ignore[arg-type]
    requests = [ChatRequest.of([{"role": "user", "content": f"q{i}"}]) for i in range(4)]
    with (
        caplog.at_level(logging.WARNING, logger="asyncio"),
        pytest.raises(RunError, match="database or disk is full"),
    ):
        client.run_all(requests, on_done=lambda *_: None)
    assert client.backend_calls == 4
    shutdown = [r for r in caplog.records if r.name == "asyncio" and r.levelno >= logging.WARNING]
    assert not shutdown, caplog.text
