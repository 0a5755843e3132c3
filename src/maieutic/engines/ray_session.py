"""Starting (or joining) Ray for a maieutic run."""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

FORWARDED_ENV = ("MAIEUTIC_", "HF_", "OPENAI_", "TRANSFORMERS_", "SENTENCE_TRANSFORMERS_")
"""Environment variables a worker needs as the driver has them (home, cache, keys)."""


def start_ray(num_cpus: int | None = None) -> Any:
    """Join the cluster ``RAY_ADDRESS`` names (as ``ray job submit`` sets it), or start
    a local Ray instance with ``num_cpus`` (default: every core), tied to this process
    (``ray_reaper``: it ends when this process ends, however it ends); quiet either
    way."""
    import ray
    from ray.data import DataContext

    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS") or None
        if address:
            _init(ray, address=address, num_cpus=None)
        else:
            _before_local_start()
            _start_local(ray, num_cpus)
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    context = DataContext.get_current()
    context.enable_progress_bars = False
    context.execution_options.preserve_order = True  # rows come back in input order
    context.print_on_execution_start = False
    return ray


START_TRIES = 3
"""Starts of a local instance tried before a run gives up. Ray gives a new node a
fixed 30 s to register; on a busy machine (a test suite beside it, other jobs) it can
take longer, and the next try usually succeeds."""

_SLOW_START = "timed out during startup"  # Ray's words when the node missed its 30 s


def _init(ray: Any, *, address: str | None, num_cpus: int | None) -> None:
    ray.init(
        address=address,
        num_cpus=num_cpus,
        include_dashboard=False,
        log_to_driver=False,
        logging_level="ERROR",
        ignore_reinit_error=True,
    )


def _start_local(ray: Any, num_cpus: int | None) -> None:
    """Start a local instance, trying again (saying so in one line) when Ray's node
    misses its start-up window; what a failed try started is stopped before the next.
    Any other failure of Ray's start, or ``START_TRIES`` missed windows, is a
    ``RunError`` in one line (exit 1), not Ray's traceback."""
    import psutil

    from maieutic.engines import ray_reaper
    from maieutic.errors import RunError

    for attempt in range(1, START_TRIES + 1):
        before = {p.pid for p in psutil.Process().children(recursive=True)}
        try:
            _init(ray, address=None, num_cpus=num_cpus)
            return
        except Exception as error:  # Ray raises a bare Exception for a slow node
            ray_reaper.stop(_started_since(before))
            with contextlib.suppress(Exception):
                ray.shutdown()
            first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
            if _SLOW_START not in str(error):
                raise RunError(f"the local Ray instance did not start: {first_line}") from error
            if attempt == START_TRIES:
                raise RunError(
                    f"the local Ray instance did not start: its node missed Ray's 30 s "
                    f"start-up window {START_TRIES} times (is the machine overloaded?)"
                ) from error
            print(
                f"note: the local Ray instance missed Ray's 30 s start-up window (a busy "
                f"machine?); trying again ({attempt + 1} of {START_TRIES})",
                file=sys.stderr,
            )


def _started_since(before: set[int]) -> list[list]:
    """``[pid, start time]`` of this process's descendants not in ``before`` (what a
    failed start left; one that ends meanwhile is skipped)."""
    import psutil

    started = []
    for process in psutil.Process().children(recursive=True):
        if process.pid not in before:
            with contextlib.suppress(psutil.Error):
                started.append([process.pid, process.create_time()])
    return started


def _before_local_start() -> None:
    """Before a local instance starts: stop what killed runs left (saying so in one
    line), and start the watchdog that ties the new instance to this process."""
    from maieutic.engines import ray_reaper
    from maieutic.errors import RunError
    from maieutic.paths import maieutic_home

    try:
        home = maieutic_home()
        said = ray_reaper.stop_left_behind(home)
        if said:
            print(said, file=sys.stderr)
        ray_reaper.watch(home)
    except (RunError, OSError):
        # no state folder to record the instance in (the run says so where it needs
        # one): the instance still stops with a normal exit, as Ray stops it
        pass


@contextmanager
def actor_pool_options(method: Callable) -> Iterator[dict[str, int]]:
    """Ray options for an actor pool ``method`` (``Dataset.map_batches``, ``.map``)
    builds: on a local Ray instance an actor that dies is not restarted (the run stops,
    its finished rows kept in shards, and the same command resumes it), which also
    keeps Ray from printing, on every run, an error line about restarting actors whose
    constructor arguments live in the object store. On a cluster (``RAY_ADDRESS``) Ray
    Data's default stands, so a lost node's actors come back. Ray marks these
    pass-through options deprecated: the warning is silenced here, and a Ray that no
    longer takes them gets none."""
    takes_options = any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        for p in inspect.signature(method).parameters.values()
    )
    local = not os.environ.get("RAY_ADDRESS")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*ray_remote_args.*deprecated")
        yield {"max_restarts": 0} if local and takes_options else {}


def worker_environment() -> dict[str, str]:
    """The driver's variables a worker sets before building anything."""
    return {k: v for k, v in os.environ.items() if k.startswith(FORWARDED_ENV)}


def enter_environment(env: dict[str, str]) -> None:
    """In a worker: take the driver's variables (a pooled worker may outlive a run)."""
    os.environ.update(env)
