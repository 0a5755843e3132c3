"""Running one command line as a subprocess, with a time bound, and judging what it did.

Each probe runs ``python -m maieutic`` in its own folder, in its own process group (a
hang is killed, children included), with an address-space limit (a command reading
/dev/zero to the end must fail, not take the machine down) and one thread for the
maths libraries (several probes share two cores).

The time bound: a probe is killed as hung when its process group has used no CPU for
``IDLE_S`` seconds (blocked: on a FIFO nobody writes, say), has used ``CPU_S`` seconds
of CPU (spinning), or has run ``WALL_S`` seconds. Counting CPU rather than wall time
keeps a probe slowed down by its neighbours from being taken for a hung one.
"""

from __future__ import annotations

import contextlib
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
    last_cpu = -1.0
    while process.poll() is None:
        time.sleep(0.25)
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


def run_maieutic(
    argv: list[str], cwd: Path, home: Path, limits: tuple[float, float, float] | None = None
) -> Outcome:
    """Run ``python -m maieutic ARGV`` in ``cwd``; kill its process group when hung."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "maieutic", *argv], cwd=cwd, env=env(home),
            stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            start_new_session=True, preexec_fn=_limits,
        )  # fmt: skip
        try:
            hang, cpu = _watch(process, limits or (IDLE_S, CPU_S, WALL_S))
        finally:
            with contextlib.suppress(ProcessLookupError):  # stragglers of the group too
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        out.seek(0)
        err.seek(0)
        texts = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    code = None if hang else process.returncode
    return Outcome(argv, code, *texts, time.monotonic() - start, hang, cpu)


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
    # warnings, and the progress lines a step over 30 s prints off a terminal (a loaded
    # machine), come before the one error line
    lines = [ln for ln in err.splitlines()
             if ln.strip() and not ln.startswith(("warning:", "progress: "))]  # fmt: skip
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
