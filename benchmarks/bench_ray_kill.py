"""Processes of a local Ray instance left after a ``kill -9`` of its driver.

Runs ``maieutic generate focus --engine ray`` over a few hundred texts in a session of
its own, kills the driver alone with SIGKILL at a chosen point (while Ray starts, or
once its actors work), then counts the session's processes 1, 5 and 10 s later. The
goal (issue 50): 0 at 10 s.

    python benchmarks/bench_ray_kill.py [--trials 3] [--when starting working]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]


def _session(sid: int, but: int) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter():
        try:
            alive = process.status() != psutil.STATUS_ZOMBIE
            if alive and os.getsid(process.pid) == sid and process.pid != but:
                found.append(process)
        except (psutil.Error, OSError):
            continue
    return found


def _names(processes: list[psutil.Process]) -> str:
    return " ".join(p.name() for p in processes if p.is_running())


def trial(folder: Path, when: str) -> list[int]:
    """Processes left 1, 5 and 10 s after the kill."""
    text = "Nobody reads paper books anymore, so library {} is a waste of money."
    data = folder / "data.jsonl"
    data.write_text("".join(json.dumps({"id": f"A{i}", "argument": text.format(i)}) + "\n"
                            for i in range(300)), encoding="utf-8")  # fmt: skip
    env = dict(os.environ, MAIEUTIC_HOME=str(folder / "home"), PYTHONPATH=str(REPO / "src"))
    argv = ["generate", "focus", "--data", str(data), "--out", str(folder / "o" / "f.jsonl")]
    driver = subprocess.Popen(
        [sys.executable, "-m", "maieutic", *argv, "--engine", "ray"], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    ready = "raylet" if when == "starting" else "ray::"
    deadline = time.monotonic() + 300
    while ready not in _names(_session(driver.pid, driver.pid)):
        if time.monotonic() > deadline or driver.poll() is not None:
            raise SystemExit(f"the run never got to {when!r}")
        time.sleep(0.1)
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait()
    start, left = time.monotonic(), []
    for at in (1, 5, 10):
        time.sleep(max(0.0, start + at - time.monotonic()))
        left.append(len(_session(driver.pid, driver.pid)))
    for process in _session(driver.pid, driver.pid):  # whatever is left, for the next trial
        process.kill()
    return left


def main() -> None:
    """Print, per kill point and trial, the processes left 1, 5 and 10 s after."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--when", nargs="+", default=["starting", "working"])
    args = parser.parse_args()
    print("killed while   trial   left after 1 s   5 s   10 s")
    for when in args.when:
        for n in range(args.trials):
            with tempfile.TemporaryDirectory() as folder:
                one, five, ten = trial(Path(folder), when)
            print(f"{when:<14} {n + 1:>5} {one:>16} {five:>5} {ten:>6}", flush=True)


if __name__ == "__main__":
    main()
