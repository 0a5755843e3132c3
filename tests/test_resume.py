"""A generation run killed with SIGKILL resumes without repeating finished calls."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from maieutic.llm.store import CallStore
from tests.conftest import plan_interventions, write_json
from tests.fake_server import FakeOpenAIServer

N_ITEMS = 12


def _dataset(tmp_path):
    return write_json(tmp_path / "items.json", plan_interventions(N_ITEMS))


def _command(data, out, base_url):
    return [
        sys.executable,
        "-m",
        "maieutic",
        "generate",
        "cqs",
        "--data",
        str(data),
        "--generator",
        "llm",
        "--base-url",
        base_url,
        "--llm",
        "fake",
        "--concurrency",
        "2",
        "--out",
        str(out),
    ]


def test_kill_9_then_rerun_repeats_no_finished_call_and_matches_clean_run(tmp_path):
    data = _dataset(tmp_path)
    home = tmp_path / "home"
    env = dict(os.environ, MAIEUTIC_HOME=str(home))
    with FakeOpenAIServer(delay_s=0.25) as server:
        out = tmp_path / "resumed.json"
        proc = subprocess.Popen(
            _command(data, out, server.base_url),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while len(server.requests) < 6 and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert not out.exists()  # killed before the end
        finished = len(CallStore(home / "llm.sqlite").rows("cache"))
        assert 1 <= finished < N_ITEMS
        before = len(server.requests)

        subprocess.run(
            _command(data, out, server.base_url), env=env, check=True, capture_output=True
        )
        assert len(server.requests) - before == N_ITEMS - finished

        clean = tmp_path / "clean.json"
        clean_env = dict(os.environ, MAIEUTIC_HOME=str(tmp_path / "clean-home"))
        subprocess.run(
            _command(data, clean, server.base_url), env=clean_env, check=True, capture_output=True
        )
    assert out.read_text() == clean.read_text()
