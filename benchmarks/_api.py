"""A library call in a fresh interpreter, for benchmarks that measure what a run costs
from a cold start: wall time (process start and imports included) and peak RSS.

The call goes through ``maieutic.evaluate`` / ``maieutic.generate`` (not the command
line); only the process is new, because a peak RSS belongs to a whole process and a
cold start needs nothing loaded. Keep the benchmark's own process small: Linux carries
a parent's peak RSS into children it forks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_CHILD = """
import json, sys
import maieutic
call, kwargs = json.loads(sys.argv[1])
getattr(maieutic, call)(**kwargs)
"""


def run_isolated(call: str, kwargs: dict[str, Any], home: Path | str) -> tuple[float, float]:
    """Run ``maieutic.<call>(**kwargs)`` in a child interpreter with its own
    ``MAIEUTIC_HOME``; return (wall seconds, peak RSS in MB). Exits on failure."""
    env = dict(os.environ, MAIEUTIC_HOME=str(home))
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, json.dumps([call, kwargs])],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"maieutic.{call} failed: {proc.stderr.read().decode()[-2000:]}")
    return wall, usage.ru_maxrss / 1024
