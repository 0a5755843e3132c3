"""How many threads llama.cpp computes with: OMP_NUM_THREADS when set, else the CPUs
this process may run on (not every CPU of the machine); the in-process backend, the
server and the build check all use the same count."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from maieutic.llm import threads
from maieutic.llm.server import server_command


@pytest.mark.parametrize(("value", "expected"), [("3", 3), ("2,1", 2), (" 4 ", 4)])
def test_omp_num_threads_is_honoured(monkeypatch, value, expected):
    monkeypatch.setenv("OMP_NUM_THREADS", value)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5, 6, 7})
    assert threads.llama_threads() == expected


@pytest.mark.parametrize("value", ["", "0", "many", "-2"])
def test_otherwise_the_cpus_this_process_may_use(monkeypatch, value):
    monkeypatch.setenv("OMP_NUM_THREADS", value)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {2, 5})  # a taskset of two
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert threads.llama_threads() == 2


def test_the_server_is_started_with_that_count(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    argv = server_command(Path("m.gguf"), "127.0.0.1", 8080)
    assert argv[argv.index("--n_threads") + 1] == "3"
