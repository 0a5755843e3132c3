"""How many threads llama.cpp computes with: the in-process backend, the server and the
build check (``probe``) share the one count, so it lives below all three."""

from __future__ import annotations

import os


def llama_threads() -> int:
    """The threads llama.cpp computes with: ``OMP_NUM_THREADS`` when it is set (every
    OpenMP program honours it, and llama.cpp's own count would override it), else the
    CPUs this process may run on (its affinity, which a container or ``taskset``
    narrows), not every CPU of the machine. llama.cpp's threads wait for each other by
    spinning, so more threads than free cores makes it several times slower."""
    configured = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1
