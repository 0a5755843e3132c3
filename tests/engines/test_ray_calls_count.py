"""A resumed Ray run reports the model calls it made itself: "N made" is what the
model's server received from it (rows kept from the killed run cost nothing now),
while its record (.meta.json) still says what a clean run's says."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import plan_interventions, write_json
from tests.fake_server import FakeOpenAIServer

pytestmark = pytest.mark.slow
pytest.importorskip("ray", reason="the ray engine needs: pip install 'maieutic[ray]'")

REPO = Path(__file__).resolve().parents[2]
N = 12
_KILLED_RUN = """
import sys
import maieutic
from maieutic.engines import RayOptions
maieutic.generate("cqs", sys.argv[1], generator="llm", out=sys.argv[2], llm="fake",
                  base_url=sys.argv[3], concurrency=1, engine="ray",
                  ray=RayOptions(actors=1, batch_rows=1, shard_rows=1))
"""
LINE = re.compile(r"model calls: (\d+) made, (\d+) served from the cache, (\d+) failed")


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ, MAIEUTIC_HOME=str(home), PYTHONPATH=str(REPO / "src"))
    env.pop("RAY_ADDRESS", None)
    return env


def _stop_session(sid: int) -> None:
    """Kill what is left of the session ``sid`` (the killed run's, should its watchdog
    not have stopped it: that is another test's business)."""
    import psutil

    time.sleep(1)
    for process in psutil.process_iter():
        try:
            if os.getsid(process.pid) == sid:
                process.kill()
        except (psutil.Error, OSError):
            continue


def test_a_resumed_ray_run_counts_the_requests_it_sent(tmp_path):
    data = write_json(tmp_path / "items.json", plan_interventions(N))
    out = tmp_path / "out" / "cqs.json"
    shards = out.with_name("cqs.json.shards") / "run1"
    home = tmp_path / "home"  # one cache for both runs, as a user's
    with FakeOpenAIServer(delay_s=0.3) as server:
        killed = subprocess.Popen(
            [sys.executable, "-c", _KILLED_RUN, str(data), str(out), server.base_url],
            env=_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 300
            while len(list(shards.glob("part-*.jsonl"))) < 3 and time.monotonic() < deadline:
                time.sleep(0.05)
            os.kill(killed.pid, signal.SIGKILL)  # the driver only: its instance ends with it
            killed.wait()
        finally:
            _stop_session(killed.pid)
        kept = len(list(shards.glob("part-*.jsonl")))
        assert 3 <= kept < N and not out.exists()
        before = len(server.requests)
        resumed = subprocess.run(
            [sys.executable, "-m", "maieutic", "generate", "cqs", "--data", str(data),
             "--out", str(out), "--generator", "llm", "--llm", "fake", "--base-url",
             server.base_url, "--concurrency", "1", "--engine", "ray"],
            env=_env(home), capture_output=True, text=True, timeout=600,
            start_new_session=True,
        )  # fmt: skip
        received = len(server.requests) - before
    assert resumed.returncode == 0, resumed.stderr
    [(made, cached, failed)] = [tuple(map(int, m)) for m in LINE.findall(resumed.stderr)]
    assert made == received, resumed.stderr
    assert failed == 0 and made + cached == N - kept  # the kept rows asked nothing
    # the record counts every row's calls, as a clean run's does
    meta = json.loads(out.with_name("cqs.meta.json").read_text())
    assert meta["model_calls"]["made"] + meta["model_calls"]["cache_hits"] == N
