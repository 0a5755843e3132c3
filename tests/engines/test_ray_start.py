"""A local Ray instance that misses Ray's start-up window is tried again, and a start
that fails for good is one line (exit 1), not Ray's traceback. Ray itself is replaced
by a scripted stand-in: what is checked is maieutic's handling of what ``ray.init``
raises (the real start is the Ray tests' business)."""

from __future__ import annotations

import subprocess
import sys

import psutil
import pytest

from maieutic.engines import ray_session
from maieutic.errors import RunError

SLOW = "The current node timed out during startup. This could happen because ..."


class ScriptedRay:
    """``init`` raises each of ``failures`` in turn, then succeeds; each failing call
    first starts a child process, as a half-started node leaves its processes."""

    def __init__(self, *failures: Exception) -> None:
        self.failures = list(failures)
        self.inits = 0
        self.shutdowns = 0
        self.children: list[subprocess.Popen] = []

    def init(self, **_options) -> None:
        self.inits += 1
        if self.failures:
            sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
            self.children.append(subprocess.Popen(sleeper))
            raise self.failures.pop(0)

    def shutdown(self) -> None:
        self.shutdowns += 1


def _running(child: subprocess.Popen) -> bool:
    try:
        return psutil.Process(child.pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_missed_start_window_is_tried_again_and_said_in_one_line(capsys):
    ray = ScriptedRay(Exception(SLOW))
    ray_session._start_local(ray, num_cpus=2)
    assert ray.inits == 2 and ray.shutdowns == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "trying again (2 of 3)" in err[0]
    # what the failed try started is stopped before the next try
    assert not any(_running(child) for child in ray.children)


def test_a_start_that_misses_every_window_is_one_run_error():
    ray = ScriptedRay(*[Exception(SLOW)] * ray_session.START_TRIES)
    with pytest.raises(RunError, match=r"missed Ray's 30 s start-up window 3 times") as caught:
        ray_session._start_local(ray, num_cpus=2)
    assert "\n" not in str(caught.value)
    assert ray.inits == ray_session.START_TRIES
    assert not any(_running(child) for child in ray.children)


def test_any_other_start_failure_is_one_run_error_without_a_second_try(capsys):
    ray = ScriptedRay(RuntimeError("port 6379 in use\nmore of Ray's lines"))
    with pytest.raises(RunError, match=r"^the local Ray instance did not start: port 6379 in use$"):
        ray_session._start_local(ray, num_cpus=2)
    assert ray.inits == 1 and capsys.readouterr().err == ""
