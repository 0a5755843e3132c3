"""C: a run killed with SIGKILL half-way never damages the results file it replaces.

``evaluate cqs --out R.json`` over many submissions, where R.json already holds a
complete earlier run: progress goes to ``R.partial.json`` (``"complete": false``)
and R.json stays whole until the run ends. The run is killed at the first sign of
progress (R.partial.json appears, or R.json changes), then R.json must be
byte-for-byte what it was.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hardening.probing import env, run_maieutic
from tests.hardening.valid_files import SAMPLES

pytestmark = pytest.mark.slow
N_SUBMISSIONS = 21


def _inputs(folder: Path) -> list[str]:
    data = folder / "data.json"
    shutil.copyfile(SAMPLES / "cqs" / "samples" / "sample_dataset.json", data)
    submissions = []
    for n in range(N_SUBMISSIONS):
        path = folder / f"system{n:02d}.json"
        shutil.copyfile(SAMPLES / "cqs" / "samples" / "sample_submission.json", path)
        submissions.append(str(path))
    return ["evaluate", "cqs", "--data", str(data), *submissions, "--evaluator", "sts"]


def _stat(path: Path) -> tuple | None:
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


def _kill_at_first_progress(argv: list[str], folder: Path, home: Path, results: Path) -> str:
    """Run ``argv``; SIGKILL it when progress shows; say what was seen."""
    partial, before = results.with_name("R.partial.json"), _stat(results)
    process = subprocess.Popen(
        [sys.executable, "-m", "maieutic", *argv],
        cwd=folder,
        env=env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline, seen = time.monotonic() + 300, ""
    while not seen and process.poll() is None and time.monotonic() < deadline:
        if partial.exists():
            seen = "R.partial.json appeared"
        elif _stat(results) != before:
            seen = "R.json changed while the run went on"
        else:
            time.sleep(0.005)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return seen or "killed after 300 s without any progress"
    return seen or f"the run ended (exit {process.returncode}) before any progress showed"


def test_a_killed_run_leaves_the_earlier_results_whole(tmp_path, probe_home):
    argv = _inputs(tmp_path)
    results = tmp_path / "R.json"
    first = run_maieutic([*argv, "--out", str(results)], tmp_path, probe_home)
    assert first.code == 0, first.err
    assert json.loads(results.read_text()).get("complete", True) is True
    whole = results.read_bytes()
    seen = _kill_at_first_progress([*argv, "--out", str(results)], tmp_path, probe_home, results)
    assert results.read_bytes() == whole, f"R.json damaged ({seen})"
    assert "R.partial.json appeared" in seen, seen
    text = results.with_name("R.partial.json").read_text(encoding="utf-8")
    try:
        partial = json.loads(text)
    except ValueError:
        pytest.fail(f"R.partial.json is not whole JSON when the run is killed: {text[:200]!r}")
    assert partial.get("complete") is False, partial
