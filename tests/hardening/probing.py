"""Running one command line in a process of its own, with a time bound, and judging
what it did.

Each probe runs the command line in its own folder, in its own process group (a hang
is killed, children included), with an address-space limit (a command reading
/dev/zero to the end must fail, not take the machine down) and one thread for the
maths libraries (several probes share two cores). The process is either a real
``python -m maieutic`` (``real=True``: the console entry point end to end) or a child
forked from a warm server that has imported the command line and its libraries once
(``zygote.py``: the same process boundary without the interpreter start and imports,
which cost more than most probes' work).

The time bound: a probe is killed as hung when its process group has used no CPU for
``IDLE_S`` seconds (blocked: on a FIFO nobody writes, say), has used ``CPU_S`` seconds
of CPU (spinning), or has run ``WALL_S`` seconds. Counting CPU rather than wall time
keeps a probe slowed down by its neighbours from being taken for a hung one.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
IDLE_S, CPU_S, WALL_S = 20.0, 60.0, 300.0
MEMORY_LIMIT = 3 * 1024**3
CLICK_LINES = ("Usage:", "Try '", "Error:")
_TICK = os.sysconf("SC_CLK_TCK")
# the embedded LLM runs one thread per core: two at once on two cores crawl
LLM_LOCK = threading.Lock()


@dataclass
class Outcome:
    """What a command line did."""

    argv: list[str]
    code: int | None  # None: killed as hung
    out: str
    err: str
    seconds: float
    hang: str = ""  # why it was killed
    cpu: float = 0.0  # CPU seconds of the process group (last sample)

    @property
    def hung(self) -> bool:
        return self.code is None


def model_guard(model: str) -> contextlib.AbstractContextManager:
    """Held while a call that runs the embedded LLM runs (one at a time)."""
    return LLM_LOCK if model == "llm" else contextlib.nullcontext()


def env(home: Path) -> dict[str, str]:
    """The environment of every probe: offline, one shared state folder, one thread."""
    values = dict(os.environ)
    values.update(
        MAIEUTIC_HOME=str(home), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
        OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false",
        PYTHONPATH=str(REPO / "src"), COLUMNS="200",
    )  # fmt: skip
    values.pop("MAIEUTIC_DEBUG", None)
    return values


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def group_cpu(pgid: int) -> float:
    """CPU seconds used so far by the processes of group ``pgid`` (reaped children too)."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                data = f.read()
        except OSError:
            continue
        fields = data[data.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid:
            total += sum(int(v) for v in fields[11:15])
    return total / _TICK


def _watch(process: subprocess.Popen, limits: tuple[float, float, float]) -> tuple[str, float]:
    """Wait for ``process``; say why it was killed ('' when it ended by itself) and the
    CPU seconds it had used when last looked at."""
    idle_s, cpu_s, wall_s = limits
    start = last_change = time.monotonic()
    last_cpu, pause = -1.0, 0.01
    while process.poll() is None:
        time.sleep(pause)
        pause = min(pause * 2, 0.25)  # most probes end within a tenth of a second
        now, cpu = time.monotonic(), group_cpu(process.pid)
        if cpu > last_cpu + 0.02:
            last_cpu, last_change = cpu, now
        reason = ""
        if now - last_change >= idle_s:
            reason = f"blocked: no CPU used for {idle_s:.0f} s (after {cpu:.1f} s of CPU)"
        elif cpu >= cpu_s:
            reason = f"spinning: {cpu:.0f} s of CPU"
        elif now - start >= wall_s:
            reason = f"still running after {wall_s:.0f} s ({cpu:.1f} s of CPU)"
        if reason and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return reason, cpu
    return "", max(last_cpu, 0.0)


class Forked:
    """A child of the warm server, watched as a ``subprocess.Popen`` is (``pid``,
    ``poll``, ``wait``, ``returncode``). Not this process's child, so it cannot be
    waited for: it is gone when its pid is, and its exit code is in its status file
    (none: it was killed, or died of a signal)."""

    def __init__(self, pid: int, status: Path) -> None:
        self.pid, self.status = pid, status
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
                return None
            except ProcessLookupError:
                # no status: killed (by the watch, say) or dead of a signal; which
                # signal cannot be known here, so it reads as SIGKILL
                code = self.status.read_text(encoding="ascii") if self.status.exists() else ""
                self.returncode = int(code) if code else -signal.SIGKILL
        return self.returncode

    def wait(self) -> int:
        while (code := self.poll()) is None:
            time.sleep(0.02)
        return code


class WarmServer:
    """The ``zygote.py`` server of one state folder: started on first use, asked for
    one child per command line (from any thread), stopped by ``stop_warm_servers``."""

    def __init__(self, home: Path) -> None:
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while it runs)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.hardening.zygote"], cwd=REPO, env=env(home),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True,
            start_new_session=True,
        )  # fmt: skip
        self.lock = threading.Lock()
        ready = self._answer()
        if "ready" not in ready:
            raise RuntimeError(f"the warm server did not start: {ready}")
        self.memory = _address_space(self.process.pid) + MEMORY_LIMIT

    def _answer(self) -> dict:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            self.log.seek(0)
            return {"error": self.log.read().decode(errors="replace")[-3000:]}
        return json.loads(line)

    def spawn(self, argv: list[str], cwd: Path, environ: dict[str, str], folder: Path) -> Forked:
        """A child running ``maieutic ARGV`` in ``cwd``; its output, error and exit code
        go to files in ``folder`` (``out``, ``err``, ``exit``)."""
        job = {"argv": argv, "cwd": str(cwd), "env": environ, "memory": self.memory,
               "stdout": str(folder / "out"), "stderr": str(folder / "err"),
               "status": str(folder / "exit")}  # fmt: skip
        with self.lock:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(job) + "\n")
            self.process.stdin.flush()
            answer = self._answer()
        if "pid" not in answer:
            raise RuntimeError(f"the warm server failed: {answer}")
        return Forked(answer["pid"], folder / "exit")

    def stop(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


_SERVERS: dict[Path, WarmServer] = {}
_SERVERS_LOCK = threading.Lock()


def warm_server(home: Path) -> WarmServer:
    """The warm server whose children use ``home`` (started on first use)."""
    with _SERVERS_LOCK:
        if home not in _SERVERS or _SERVERS[home].process.poll() is not None:
            _SERVERS[home] = WarmServer(home)
        return _SERVERS[home]


def stop_warm_servers() -> None:
    """Stop every warm server this process started."""
    with _SERVERS_LOCK:
        for server in _SERVERS.values():
            server.stop()
        _SERVERS.clear()


def _address_space(pid: int) -> int:
    """The bytes of address space process ``pid`` holds (``VmSize``)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def run_maieutic(
    argv: list[str],
    cwd: Path,
    home: Path,
    limits: tuple[float, float, float] | None = None,
    real: bool = True,
) -> Outcome:
    """Run the command line ``maieutic ARGV`` in ``cwd``; kill its process group when
    hung. ``real``: as ``python -m maieutic``; else as a child of the warm server."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="probe-") as scratch:
        files = Path(scratch)
        if real:
            with open(files / "out", "wb") as out, open(files / "err", "wb") as err:
                process: subprocess.Popen | Forked = subprocess.Popen(
                    [sys.executable, "-m", "maieutic", *argv], cwd=cwd, env=env(home),
                    stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                    start_new_session=True, preexec_fn=_limits,
                )  # fmt: skip
        else:
            process = warm_server(home).spawn(argv, cwd, env(home), files)
        try:
            hang, cpu = _watch(process, limits or (IDLE_S, CPU_S, WALL_S))
        finally:
            with contextlib.suppress(ProcessLookupError):  # stragglers of the group too
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        texts = [_read(files / name) for name in ("out", "err")]
    code = None if hang else process.returncode
    return Outcome(argv, code, *texts, time.monotonic() - start, hang, cpu)


def _read(path: Path) -> str:
    return path.read_bytes().decode(errors="replace") if path.exists() else ""


def snapshot(folder: Path) -> dict[str, tuple]:
    """Bytes, modification time and kind of every file and link under ``folder``."""
    state: dict[str, tuple] = {}
    for item in folder.rglob("*"):
        if item.is_symlink():
            state[str(item)] = ("link", os.readlink(item))
        elif item.is_file():
            info = item.stat()
            state[str(item)] = ("file", item.read_bytes(), info.st_mtime_ns, info.st_ino)
    return state


def changed(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    """The files of ``before`` that are gone, replaced, rewritten or touched."""
    problems = []
    for name, was in before.items():
        now, short = after.get(name), Path(name).name
        if now is None:
            problems.append(f"input changed: {short} removed")
        elif now[0] != was[0]:
            problems.append(f"input changed: {short} was a {was[0]}, is now a {now[0]}")
        elif now[:2] != was[:2]:
            problems.append(f"input changed: {short} rewritten")
        elif now != was:
            problems.append(f"input changed: {short} replaced or touched (same bytes)")
    return problems


def error_problems(outcome: Outcome, allowed: tuple[int, ...] = (1, 2)) -> list[str]:
    """What is wrong with how ``outcome`` ended (nothing: an empty list)."""
    if outcome.hung:
        return [f"hang: {outcome.hang}"]
    problems = []
    if "Traceback" in outcome.err:
        problems.append(f"traceback: {last_line(outcome.err)}")
    if outcome.code not in allowed:
        wanted = "/".join(map(str, allowed))
        problems.append(f"exit {outcome.code} (wanted {wanted}): {last_line(outcome.err)}")
    if outcome.code in (1, 2) and "Traceback" not in outcome.err:
        problems += _message_problems(outcome.err)
    return problems


def _message_problems(err: str) -> list[str]:
    """One error line: ``maieutic: error: …`` or click's usage block with one ``Error:``."""
    # warnings, the progress lines a step over 30 s prints off a terminal (a loaded
    # machine), and the steps ``ask`` announces with a model, come before the one error line
    lines = [ln for ln in err.splitlines()
             if ln.strip() and not ln.startswith(("warning:", "progress: ", "ask: "))]  # fmt: skip
    errors = [ln for ln in lines if ln.startswith(("maieutic: error:", "Error:"))]
    if len(errors) != 1:
        return [f"not one error line: {clip(' | '.join(lines))}"]
    others = [ln for ln in lines if not ln.startswith(("maieutic: error:", *CLICK_LINES))]
    return [f"more than one line: {clip(' | '.join(lines))}"] if others else []


def last_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return clip(lines[-1]) if lines else "(nothing on stderr)"


def clip(text: str, size: int = 240) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
