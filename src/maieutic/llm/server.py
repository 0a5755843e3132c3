"""Starting and stopping a local OpenAI-compatible server (llama-cpp-python's).

Used by ``maieutic serve-llm`` and by the tests and benchmarks, which start it on a
free loopback port and stop it afterwards.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from maieutic.errors import RunError
from maieutic.llm.backends.local import LLAMACPP_HINT, smollm2_gguf_path
from maieutic.llm.probe import REBUILD_HINT, require_llamacpp, signal_name
from maieutic.llm.threads import llama_threads
from maieutic.paths import maieutic_home

SERVED_MODEL_NAME = "SmolLM2-135M-Instruct"


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` right now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def server_command(model_path: Path, host: str, port: int, *, n_ctx: int = 4096) -> list[str]:
    """The command line that runs llama-cpp-python's server for ``model_path``."""
    return [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model_path),
        "--model_alias",
        SERVED_MODEL_NAME,
        "--host",
        host,
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        str(llama_threads()),
    ]


def preflight(model_path: Path) -> None:
    """Raise a ``RunError`` naming the fix unless llama-cpp-python's server can run here:
    installed with its ``[server]`` dependencies, and a build that works on this CPU
    (a crashing one would make the server die at start-up with no message)."""
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError as exc:
        raise RunError(
            f"llama-cpp-python's server is not installed ({exc.name}): {LLAMACPP_HINT}"
        ) from None
    require_llamacpp(model_path)


def _ends_with(parent: int):
    """A child's pre-exec hook that has the kernel stop it when ``parent`` dies, killed
    with -9 included (Linux's PR_SET_PDEATHSIG; a server left behind holds its port and
    memory until someone finds it). The signal comes when the thread that started the
    child ends: start the server from a thread that lives as long as it should."""

    def hook() -> None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the hook ran
            os._exit(1)

    return hook


class LocalServer:
    """A llama-cpp-python server in a child process; use as a context manager."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        *,
        startup_timeout_s: float = 180.0,
    ) -> None:
        self.model_path = Path(model_path) if model_path else smollm2_gguf_path()
        self.host = host
        self.port = port or free_port(host)
        self.startup_timeout_s = startup_timeout_s
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (ending in ``/v1``)."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> LocalServer:
        """Start the server and wait until it answers."""
        preflight(self.model_path)
        # The server is chatty; a pipe nobody drains would fill up and stall it, so its
        # output goes to a log file under MAIEUTIC_HOME.
        self.log_path = maieutic_home() / "logs" / f"llm-server-{self.port}.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            server_command(self.model_path, self.host, self.port),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            preexec_fn=_ends_with(os.getpid()) if sys.platform == "linux" else None,
        )
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if (code := self.process.poll()) is not None:
                self._log.close()
                raise RunError(self._startup_failure(code))
            try:
                if httpx.get(f"{self.base_url}/models", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RunError(f"the LLM server did not answer within {self.startup_timeout_s:g} s")

    def _startup_failure(self, code: int) -> str:
        if code < 0:  # killed by a signal: a crash prints nothing, so name it
            return (
                f"the LLM server crashed with {signal_name(code)} at start-up; "
                "for a working build run: "
                f"{REBUILD_HINT}; log: {self.log_path}"
            )
        tail = self.log_path.read_text(errors="replace").strip().splitlines()[-1:]
        return f"the LLM server exited at start-up ({' '.join(tail)}); log: {self.log_path}"

    def stop(self) -> None:
        """Stop the server (terminate, then kill if it lingers)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if getattr(self, "_log", None) and not self._log.closed:
            self._log.close()

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
