"""A local Ray instance ends with the maieutic run that started it.

Ray stops its processes when its driver exits normally, but a driver killed outright
(``kill -9``, the machine's out-of-memory killer) leaves some of them running (the
agents of the node) with their memory, until someone finds them. Two things tie the
instance to its driver:

- a watchdog: a small process (``python -m maieutic.engines.ray_reaper``) started
  beside the instance, which reads a pipe only the driver holds open; when the driver
  ends, however it ends, the pipe closes and the watchdog stops every process the
  instance started (it keeps their list while the driver lives, since a dead driver's
  children are no longer its children);
- a record under ``MAIEUTIC_HOME/ray``: the driver's and the instance's processes. A
  later local run stops what a dead driver's record still lists (the watchdog was
  killed too, say by a ``kill -9`` of the whole process group) and says so in one line.

A process is known by its pid and its start time, so a pid the system has since given
to another process is never touched. A run that joins a cluster (``RAY_ADDRESS``)
starts no instance and has neither.
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

import psutil

RECORDS = "ray"
"""The folder of ``MAIEUTIC_HOME`` that holds one record per live local instance."""
ROUNDS = 5
"""Rounds of looking for and stopping what the driver left, at most."""
POLL_S = 0.2
"""How often the watchdog looks for the instance's new processes."""
GRACE_S = 1.0
"""How long a process is given to end on SIGTERM before it is killed."""

_pipe: int | None = None  # the driver's end of the watchdog's pipe, open while it lives


def _ident(process: psutil.Process) -> list:
    return [process.pid, process.create_time()]


def _alive(pid: int, started: float) -> psutil.Process | None:
    """The process ``pid`` if it still runs and is the one that started at ``started``."""
    try:
        process = psutil.Process(pid)
        same = abs(process.create_time() - started) < 0.01
        running = process.status() != psutil.STATUS_ZOMBIE
        return process if same and running else None
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return None


def _descendants(pid: int, skip: set[int]) -> list[psutil.Process]:
    try:
        found = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    return [p for p in found if p.pid not in skip]


def stop(processes: list[list]) -> int:
    """Stop the processes ``[[pid, start time], …]`` that still run: SIGTERM, then
    SIGKILL for those still there after ``GRACE_S``; how many were running."""
    running = [p for pid, started in processes if (p := _alive(pid, started))]
    for process in running:
        with contextlib.suppress(psutil.Error):
            process.terminate()
    _, left = psutil.wait_procs(running, timeout=GRACE_S)
    for process in left:
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(left, timeout=GRACE_S)
    return len(running)


def _write(path: Path, record: dict) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(record), encoding="utf-8")
    os.replace(temporary, path)  # a reader never sees half a record


def stop_left_behind(home: Path) -> str | None:
    """Stop the Ray processes that dead maieutic drivers left (their records under
    ``home/ray``); one line saying what was stopped, or None when nothing was."""
    folder = home / RECORDS
    stopped, drivers = 0, []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            driver = record["driver"]
            processes = record["processes"]
        except (OSError, ValueError, KeyError, TypeError):
            with contextlib.suppress(OSError):
                path.unlink()  # a record cut short by a kill: nothing to trust in it
            continue
        if _alive(*driver):
            continue  # another run's instance, still in use
        count = stop(processes)
        with contextlib.suppress(OSError):
            path.unlink()
        if count:
            stopped += count
            drivers.append(str(driver[0]))
    if not stopped:
        return None
    runs = "run" if len(drivers) == 1 else "runs"
    return (
        f"note: stopped {stopped} process{'es' if stopped != 1 else ''} of a local Ray "
        f"instance left running by a killed maieutic {runs} (pid {', '.join(drivers)})"
    )


def watch(home: Path) -> None:
    """In the driver, before starting a local instance: start the watchdog, which
    follows every process the driver starts from now on (its children now are left
    alone), and record them under ``home/ray`` as it finds them."""
    global _pipe
    if _pipe is not None:
        return  # one watchdog per driver: it follows every process the driver starts
    driver = psutil.Process()
    folder = home / RECORDS
    folder.mkdir(exist_ok=True)
    path = folder / f"{driver.pid}.json"
    before = [p.pid for p in _descendants(driver.pid, set())]
    _write(path, {"driver": _ident(driver), "session": os.getsid(0), "processes": []})
    read, write = os.pipe()  # both ends closed in the children Ray starts (PEP 446)
    try:
        subprocess.Popen(
            [sys.executable, "-m", "maieutic.engines.ray_reaper", str(path), *map(str, before)],
            stdin=read,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
        )
    finally:
        os.close(read)
    _pipe = write


def _watch(path: Path, skip: set[int]) -> None:
    """The watchdog: follow the driver's new descendants until the pipe on standard
    input closes (the driver ended), then stop them and remove the record."""
    record = json.loads(path.read_text(encoding="utf-8"))
    (driver, _), session = record["driver"], record["session"]
    skip, since = {*skip, os.getpid()}, psutil.Process().create_time()
    known: dict[int, float] = {}

    def follow(found: list[psutil.Process]) -> bool:
        new = False
        for process in found:
            if process.pid not in known and process.pid not in skip:
                with contextlib.suppress(psutil.Error):
                    known[process.pid] = process.create_time()
                    new = True
        return new

    while not select.select([sys.stdin.fileno()], [], [], POLL_S)[0]:
        if follow(_descendants(driver, skip)):
            record["processes"] = [[pid, started] for pid, started in known.items()]
            _write(path, record)
    # the pipe is readable only at its end: the driver is gone (a normal exit has
    # already shut Ray down, and this stops what that left). What it started since
    # the last look is found as the children of what is known, or as an orphan of its
    # session started after the watchdog
    # (several rounds: a process may start while the others are being stopped)
    for _ in range(ROUNDS):
        before = len(known)
        for pid, started in list(known.items()):
            if process := _alive(pid, started):
                follow(_descendants(process.pid, skip))
        follow(_orphans(session, since))
        stop([[pid, started] for pid, started in known.items()])
        # what a process was starting as it was stopped (raylet's agents) shows up as
        # an orphan a moment later: one more look before calling it done
        time.sleep(POLL_S)
        follow(_orphans(session, since))
        if len(known) == before:
            break
    stop([[pid, started] for pid, started in known.items()])
    with contextlib.suppress(OSError):
        path.unlink()


def _orphans(session: int, since: float) -> list[psutil.Process]:
    """Ray's processes of the driver's session ``session``, started after ``since``,
    orphaned with the driver: a dead driver's children go where the watchdog itself
    went (the system's init, or the nearest subreaper), now the watchdog's parent."""
    found, adopter = [], os.getppid()
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error, OSError):
            orphaned = process.ppid() == adopter and process.create_time() >= since
            if orphaned and os.getsid(process.pid) == session and _is_ray(process):
                found.append(process)
    return found


def _is_ray(process: psutil.Process) -> bool:
    """Whether ``process`` is one of Ray's (a worker names itself ``ray::…``; the
    others run Ray's own programs)."""
    words = process.cmdline()
    return any(w.startswith("ray::") or f"{os.sep}ray{os.sep}" in w for w in words) or (
        process.name() in {"raylet", "gcs_server"}
    )


if __name__ == "__main__":
    # a Ctrl-C or a closed terminal reaches the whole process group: the watchdog
    # outlives the driver those end, to stop what it leaves
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    _watch(Path(sys.argv[1]), {int(pid) for pid in sys.argv[2:]})
