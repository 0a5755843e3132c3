"""One Ray instance for a module of Ray runs that are not about the local instance:
they join it (``RAY_ADDRESS``) as a run joins a cluster, in place of starting an
instance each (half a minute to two on a loaded machine, issue 60).

The instance lives in a host process started here (``python -m tests.ray_host``): it
starts the instance as a maieutic run does (``start_ray``, so maieutic's watchdog ties
the instance to the host), prints what a run needs to join it (its address, and Ray's
authentication mode: a local instance of Ray 2.60 asks for the token it saved), and
stops it when its standard input closes, which happens when the fixture closes it or
the test process ends, however it ends. Tests of what is particular to a local
instance (the engine's equality with the in-process engine, the watchdog, kills, Ray's
noise on a user's first run) start their own.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

CPUS = 2
START_S = 300  # the host's start: three of Ray's 30 s windows, the imports, a busy machine


class RayHost:
    """A running host: ``env``, the variables that join it, and ``close()``."""

    def __init__(self, home: Path) -> None:
        env = dict(os.environ, MAIEUTIC_HOME=str(home))
        env.pop("RAY_ADDRESS", None)
        self.log = home / "ray-host.log"  # a file, not a pipe: nothing waits on a reader
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.ray_host", str(CPUS)],
                cwd=Path(__file__).resolve().parents[1], env=env, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=log, start_new_session=True,
                bufsize=0,  # unbuffered: select() sees every byte not yet read
            )  # fmt: skip
        try:
            self.env: dict[str, str] = self._joining(time.monotonic() + START_S)
        except BaseException:
            self.kill()
            raise

    def _joining(self, deadline: float) -> dict[str, str]:
        """The host's ``env …`` line, read until ``deadline`` (other lines skipped)."""
        stream = self.process.stdout
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([stream], [], [], left)
            if not ready:
                break
            line = stream.readline().decode(errors="replace")
            if not line:  # the host ended
                break
            if line.startswith("env "):
                return json.loads(line.removeprefix("env "))
        tail = self.log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise RuntimeError(f"the test Ray host did not start within {START_S} s: {tail}")

    def close(self) -> None:
        """Stop the instance (the host's standard input closes) and wait for the host."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(START_S)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """The host and everything in its session, at once."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def _host(cpus: int) -> None:
    from maieutic.engines.ray_session import start_ray

    ray = start_ray(cpus)
    joining = {k: v for k, v in os.environ.items() if k.startswith("RAY_AUTH_")}
    joining["RAY_ADDRESS"] = ray.get_runtime_context().gcs_address
    print("env", json.dumps(joining), flush=True)
    sys.stdin.read()  # until the fixture closes the pipe (or the test process dies)
    ray.shutdown()


if __name__ == "__main__":
    _host(int(sys.argv[1]))
