"""One Ray instance per test process, for the Ray tests that are not about the local
instance itself: they join it (``RAY_ADDRESS``) as a run joins a cluster, in place of
starting an instance each (half a minute to two on a loaded machine, issue 60).

The instance lives in a host process started here (``python -m tests.ray_host``): it
starts the instance as a maieutic run does (``start_ray``, so maieutic's watchdog ties
the instance to the host), prints what a run needs to join it (its address, and Ray's
authentication mode: a local instance of Ray 2.60 asks for the token it saved), and
stops it when its standard input closes, which happens when the test process ends,
however it ends. Tests of what is
particular to a local instance (the watchdog, kills, Ray's noise on a user's first
run) keep starting their own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CPUS = 2
START_S = 300  # the host's start, three of Ray's 30 s windows and the imports


class RayHost:
    """A running host: ``env``, the variables that join it, and ``close()``."""

    def __init__(self, home: Path) -> None:
        env = dict(os.environ, MAIEUTIC_HOME=str(home))
        env.pop("RAY_ADDRESS", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.ray_host", str(CPUS)],
            cwd=Path(__file__).resolve().parents[1], env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )  # fmt: skip
        line = self.process.stdout.readline().strip()
        if not line.startswith("env "):
            self.close()
            raise RuntimeError(f"the test Ray host did not start: {self.process.stderr.read()}")
        self.env: dict[str, str] = json.loads(line.removeprefix("env "))

    def close(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()  # the host stops its instance and exits
        try:
            self.process.wait(START_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _host(cpus: int) -> None:
    from maieutic.engines.ray_session import start_ray

    ray = start_ray(cpus)
    joining = {k: v for k, v in os.environ.items() if k.startswith("RAY_AUTH_")}
    joining["RAY_ADDRESS"] = ray.get_runtime_context().gcs_address
    print("env", json.dumps(joining), flush=True)
    sys.stdin.read()  # until the test process closes the pipe (or dies)
    ray.shutdown()


if __name__ == "__main__":
    _host(int(sys.argv[1]))
