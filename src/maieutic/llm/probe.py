"""Does this llama-cpp-python build run on this CPU? Asked once, in a child process.

A llama.cpp compiled for the build machine's CPU (``GGML_NATIVE``) may use
instructions the machine it runs on does not grant — AMX under a hypervisor is the
common case — and then dies with SIGSEGV or SIGILL, taking the Python process with
it, with no message. So before the first in-process llama.cpp call maieutic loads the
model and generates a few tokens in a child; the verdict is cached under
``MAIEUTIC_HOME`` keyed by the llama_cpp version, its shared library (path, size,
modification time) and the model file, so the check costs a second once per build.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from maieutic.paths import maieutic_home

PORTABLE_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF "
    "-DGGML_AMX_BF16=OFF"
)
REBUILD_HINT = "maieutic setup-llm --llamacpp (builds a portable llama-cpp-python)"
_CHILD = """
import sys
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=256, n_threads=1, verbose=False)
llm("Hello", max_tokens=4)
"""


@dataclass(frozen=True)
class ProbeResult:
    """Whether llama.cpp ran, and if not, why."""

    ok: bool
    reason: str = ""


def _library_fingerprint() -> str | None:
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = Path(next(iter(spec.submodule_search_locations)))
    parts = []
    for lib in sorted(package.rglob("*.so*")) + sorted(package.rglob("*.dylib")):
        stat = lib.stat()
        parts.append(f"{lib}:{stat.st_size}:{int(stat.st_mtime)}")
    from importlib.metadata import version

    parts.append(version("llama-cpp-python"))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _run_child(model_path: Path, timeout_s: float) -> ProbeResult:
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(model_path)],
            capture_output=True,
            text=True,
            timeout=timeout_s,
        )
    except subprocess.TimeoutExpired:
        return ProbeResult(False, f"a test generation did not finish within {timeout_s:g} s")
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        return ProbeResult(False, f"llama.cpp crashed with {name} on this CPU")
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["unknown error"])[-1]
        return ProbeResult(False, f"llama.cpp failed: {last}")
    return ProbeResult(True)


def llamacpp_works(model_path: Path, timeout_s: float = 180.0) -> ProbeResult:
    """Whether llama-cpp-python can load ``model_path`` and generate (cached verdict)."""
    fingerprint = _library_fingerprint()
    if fingerprint is None:
        return ProbeResult(False, "llama-cpp-python is not installed")
    stat = model_path.stat()
    key = f"{fingerprint}:{model_path.name}:{stat.st_size}"
    cache = maieutic_home() / "llamacpp-probe.json"
    try:
        verdicts = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        verdicts = {}
    if key in verdicts:
        return ProbeResult(**verdicts[key])
    result = _run_child(model_path, timeout_s)
    verdicts[key] = {"ok": result.ok, "reason": result.reason}
    tmp = cache.with_suffix(".tmp")
    tmp.write_text(json.dumps(verdicts, indent=1), encoding="utf-8")
    tmp.replace(cache)
    return result
