"""Does this llama-cpp-python build run on this CPU? Asked once, in a child process.

A llama.cpp compiled for the build machine's CPU (``GGML_NATIVE``) may use
instructions the machine it runs on does not grant — AMX under a hypervisor is the
common case — and then dies with SIGSEGV or SIGILL, taking the Python process with
it, with no message. So before the first in-process llama.cpp call maieutic loads the
model and generates a few tokens in a child; the verdict is cached under
``MAIEUTIC_HOME`` keyed by the llama_cpp version, its shared libraries (path, size,
modification time), the CPU (model and feature flags: a home directory shared by two
machines must not carry one machine's verdict to the other) and the model file, so
the check costs a second once per build and machine.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import shlex
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from maieutic.errors import RunError
from maieutic.llm.threads import llama_threads
from maieutic.paths import maieutic_home

PORTABLE_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF "
    "-DGGML_AMX_BF16=OFF"
)
LEAN_CMAKE = Path(__file__).with_name("llama_cpp_lean.cmake")
"""Turns off llama.cpp's ``common`` library, which llama-cpp-python forces on for its
multimodal library only (see the file)."""
LEAN_CMAKE_ARGS = "-DLLAVA_BUILD=OFF"
"""No multimodal (mtmd) library: text models do not load it. With ``LEAN_CMAKE`` this
cuts the build from 368 to 142 CPU-seconds (benchmarks/bench_llama_build.py)."""


def build_cmake_args() -> str:
    """``CMAKE_ARGS`` for building llama-cpp-python: portable, and only what a text model
    needs (scripts/test.sh passes the same flags; a test keeps the two in step)."""
    include = shlex.quote(f"-DCMAKE_PROJECT_llama.cpp_INCLUDE={LEAN_CMAKE}")
    return f"{PORTABLE_CMAKE_ARGS} {LEAN_CMAKE_ARGS} {include}"


REBUILD_HINT = "maieutic setup-llm --llamacpp (builds a portable llama-cpp-python)"
VERDICTS_FILE = "llamacpp-probe.json"
# the child runs what the in-process backend runs: a chat prompt long enough to take
# the batched prompt path, a few decoded tokens, as many threads (kernels can differ with
# batch size and thread count, and a crash in any of them is the one to catch)
_CHILD = """
import sys
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=512, n_threads=int(sys.argv[2]), verbose=False)
text = "Is this argument sound? " * 12
llm.create_chat_completion(
    messages=[{"role": "user", "content": text}], max_tokens=4, temperature=0, seed=0
)
"""


@dataclass(frozen=True)
class ProbeResult:
    """Whether llama.cpp ran, and if not, why."""

    ok: bool
    reason: str = ""


def _library_fingerprint() -> str | None:
    """The installed llama_cpp build: its version and shared libraries, or None."""
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = Path(next(iter(spec.submodule_search_locations)))
    parts = []
    for lib in sorted(package.rglob("*.so*")) + sorted(package.rglob("*.dylib")):
        stat = lib.stat()
        parts.append(f"{lib}:{stat.st_size}:{int(stat.st_mtime)}")
    try:
        parts.append(version("llama-cpp-python"))
    except PackageNotFoundError:  # importable but without metadata (a source checkout)
        parts.append("unknown")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _cpu_fingerprint(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU model and the instruction sets the kernel grants this process (the first
    core's ``model name`` and ``flags``; elsewhere than Linux, the platform's names)."""
    parts = [platform.machine(), platform.processor()]
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for prefix in ("model name", "flags"):
        line = next((x for x in text.splitlines() if x.startswith(prefix)), "")
        parts.append(line)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def signal_name(returncode: int) -> str:
    """``SIGSEGV`` for a child killed by signal 11 (``returncode`` -11)."""
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _run_child(model_path: Path, timeout_s: float) -> tuple[ProbeResult, bool]:
    """The verdict of one child run, and whether it is worth remembering."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(model_path), str(llama_threads())],
            capture_output=True,
            text=True,
            timeout=timeout_s,
        )
    except subprocess.TimeoutExpired:
        # a busy machine is not a broken build: say so now, but check again next time
        return ProbeResult(False, f"a test generation did not finish within {timeout_s:g} s"), False
    if done.returncode < 0:
        return ProbeResult(
            False, f"llama.cpp crashed with {signal_name(done.returncode)} on this CPU"
        ), True
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["unknown error"])[-1]
        return ProbeResult(False, f"llama.cpp failed: {last}"), True
    return ProbeResult(True), True


def _remember(cache: Path, verdicts: dict) -> None:
    # a unique temporary file, then an atomic rename: two processes probing at once
    # must not trip over one shared temporary name; an unwritable home only costs a
    # second probe next time
    try:
        fd, tmp = tempfile.mkstemp(dir=cache.parent, prefix=f".{cache.name}.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(verdicts, handle, indent=1)
        os.replace(tmp, cache)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def probe_key(model_path: Path) -> str | None:
    """What a verdict is cached under: build, CPU and model file (None: not installed)."""
    fingerprint = _library_fingerprint()
    if fingerprint is None:
        return None
    stat = model_path.stat()
    return f"{fingerprint}:{_cpu_fingerprint()}:{model_path.name}:{stat.st_size}"


def llamacpp_works(model_path: Path, timeout_s: float = 180.0) -> ProbeResult:
    """Whether llama-cpp-python can load ``model_path`` and generate (cached verdict)."""
    key = probe_key(model_path)
    if key is None:
        return ProbeResult(False, "llama-cpp-python is not installed")
    cache = maieutic_home() / VERDICTS_FILE
    try:
        verdicts = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        verdicts = {}
    if not isinstance(verdicts, dict):
        verdicts = {}
    if key in verdicts:
        return ProbeResult(**verdicts[key])
    result, lasting = _run_child(model_path, timeout_s)
    if lasting:
        verdicts[key] = {"ok": result.ok, "reason": result.reason}
        _remember(cache, verdicts)
    return result


def require_llamacpp(model_path: Path) -> None:
    """Raise a ``RunError`` with the command that fixes it unless llama.cpp works here."""
    verdict = llamacpp_works(model_path)
    if not verdict.ok:
        raise RunError(f"{verdict.reason}; for a working build run: {REBUILD_HINT}")
