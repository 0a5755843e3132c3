"""A local Ray instance ends with its driver: after a ``kill -9`` of a real ``generate
… --engine ray`` or ``evaluate … --engine ray`` run, no process of it is left 10 s
later; and when the watchdog is killed too, the next local run stops what the dead
run left and says so in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hardening.valid_files import SAMPLES

pytestmark = pytest.mark.slow
pytest.importorskip("ray", reason="the ray engine needs: pip install 'maieutic[ray]'")
psutil = pytest.importorskip("psutil")

REPO = Path(__file__).resolve().parents[2]
N_ROWS = 200
SETTLE_S = 10  # the goal: nothing left 10 s after the kill


def _focus(folder: Path) -> list[str]:
    text = "Nobody reads paper books anymore, so library {} is a waste of money."
    rows = [{"id": f"A{i}", "argument": text.format(i)} for i in range(N_ROWS)]
    data = folder / "data.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    out = folder / "out" / "focus.jsonl"
    return ["generate", "focus", "--data", str(data), "--out", str(out), "--engine", "ray"]


def _evaluate(folder: Path) -> list[str]:
    data = SAMPLES / "cqs" / "samples" / "sample_dataset.json"
    submission = SAMPLES / "cqs" / "samples" / "sample_submission.json"
    out = folder / "results.json"
    argv = ["evaluate", "cqs", "--data", str(data), str(submission), "--evaluator", "sts"]
    return [*argv, "--engine", "ray", "--out", str(out)]


def _start(argv: list[str], folder: Path, home: Path) -> subprocess.Popen:
    env = dict(os.environ, MAIEUTIC_HOME=str(home), PYTHONPATH=str(REPO / "src"))
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", OMP_NUM_THREADS="1")
    return subprocess.Popen(
        [sys.executable, "-m", "maieutic", *argv],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its session holds every process it starts
    )


def _session(sid: int, but: int | None = None) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter():
        try:
            ours = os.getsid(process.pid) == sid and process.pid != but
            if ours and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except (psutil.Error, OSError):
            continue
    return found


def _describe(processes: list[psutil.Process]) -> list[str]:
    out = []
    for process in processes:
        try:
            out.append(f"{process.pid} {' '.join(process.cmdline())[:120]}")
        except psutil.Error:
            continue
    return out


def _until(condition, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the run never got that far"
        time.sleep(0.1)


def _workers_up(sid: int, driver: int) -> bool:
    names = " ".join(" ".join(p.cmdline()) for p in _session(sid, driver) if p.is_running())
    return "raylet" in names and "ray::" in names


def _stop_all(sid: int) -> None:
    for process in _session(sid):
        try:
            process.kill()
        except psutil.Error:
            continue


def _left_after_kill(driver: subprocess.Popen, also: list[psutil.Process] = ()) -> list[str]:
    for process in also:
        process.kill()
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait()
    time.sleep(SETTLE_S)
    return _describe(_session(driver.pid))


@pytest.mark.parametrize(
    "command, when",
    [
        (_focus, "starting"),  # killed while Ray starts: no shard yet
        (_focus, "working"),  # killed while the actors generate
        (_evaluate, "working"),
    ],
)
def test_no_ray_process_outlives_a_killed_driver(tmp_path, command, when):
    driver = _start(command(tmp_path), tmp_path, tmp_path / "home")
    try:
        if when == "starting":
            _until(lambda: any("raylet" in p.name() for p in _session(driver.pid, driver.pid)))
        else:
            _until(lambda: _workers_up(driver.pid, driver.pid))
            time.sleep(2)
        left = _left_after_kill(driver)
    finally:
        _stop_all(driver.pid)
    assert left == [], f"{len(left)} processes left {SETTLE_S} s after kill -9: {left}"


def test_the_next_run_stops_what_a_killed_run_left(tmp_path):
    home = tmp_path / "home"
    first = _start(_focus(tmp_path), tmp_path, home)
    try:
        _until(lambda: _workers_up(first.pid, first.pid))
        watchdogs = [
            p
            for p in _session(first.pid, first.pid)
            if "maieutic.engines.ray_reaper" in " ".join(p.cmdline())
        ]
        assert len(watchdogs) == 1, _describe(_session(first.pid))
        # the driver and its watchdog killed at once (as a kill of the whole group would)
        left = _left_after_kill(first, watchdogs)
        assert left, "nothing was left to stop: the test proves nothing"
        records = list((home / "ray").glob("*.json"))
        assert [r.name for r in records] == [f"{first.pid}.json"]
        second = _start(_focus(tmp_path), tmp_path, home)
        try:
            _, err = second.communicate(timeout=600)
            # the second run's record goes with its instance, once its watchdog stopped it
            _until(lambda: not list((home / "ray").glob("*.json")), SETTLE_S)
        finally:
            _stop_all(second.pid)
        assert second.returncode == 0, err
        said = [line for line in err.splitlines() if "Ray" in line]
        assert len(said) == 1, err
        assert said[0].startswith(f"note: stopped {len(left)} processes of a local Ray"), said
        assert f"(pid {first.pid})" in said[0], said
        assert _describe(_session(first.pid)) == []
    finally:
        _stop_all(first.pid)
