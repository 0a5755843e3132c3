"""Choosing a backend from command-line style settings."""

from __future__ import annotations

from maieutic.errors import DataError
from maieutic.llm.backends.base_url import refuse_fragment
from maieutic.llm.backends.local import DEFAULT_LOCAL_MODEL, EMBEDDED_LLM, names_embedded
from maieutic.path_text import clipped

BACKEND_KINDS = ("auto", "openai", "local", "hf")


def make_backend(kind: str = "auto", *, model: str | None = None, base_url: str | None = None):
    """Build a backend.

    ``auto`` means: an OpenAI-compatible server when ``base_url`` is given, otherwise
    the embedded SmolLM2 model in-process. ``model`` ``embedded`` (or the embedded
    model's own name, without ``base_url``) is that embedded model, as no model is.
    """
    if model is not None and model.strip().casefold() == EMBEDDED_LLM:
        _check_embedded(kind, base_url)
        model = None
    if kind == "auto":
        kind = "openai" if base_url else "local"
    if kind == "openai":
        from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend

        if not base_url:
            raise DataError("--base-url is required for an OpenAI-compatible backend")
        refuse_fragment(base_url)
        if not base_url.startswith(("http://", "https://")):
            from maieutic.provenance import redact_url

            shown = redact_url(base_url)
            raise DataError(f"--base-url must start with http:// or https://, got {shown!r}")
        return OpenAICompatibleBackend(base_url, model=model or "default")
    if kind == "local":
        from maieutic.llm.backends.embedded import embedded_backend

        if names_embedded(model):
            model = None
        if model and not model.endswith(".gguf"):
            raise DataError(
                f"--llm {clipped(model)!r}: without --base-url, --llm is {EMBEDDED_LLM!r} (the "
                f"embedded {DEFAULT_LOCAL_MODEL}) or a .gguf file"
            )
        return embedded_backend(model)
    if kind == "hf":
        from maieutic.llm.backends.hf import HFBackend

        if not model:
            raise DataError("--llm is required for the hf backend (a Hugging Face model)")
        return HFBackend(model)
    raise DataError(f"unknown backend {kind!r} (expected one of {', '.join(BACKEND_KINDS)})")


def _check_embedded(kind: str, base_url: str | None) -> None:
    """``--llm embedded`` runs in this process: a server or the hf backend contradicts it."""
    if base_url:
        raise DataError(
            f"--llm {EMBEDDED_LLM} runs the embedded model in this process: leave out "
            "--base-url, or give --llm the name of the model the server serves"
        )
    if kind not in ("auto", "local"):
        raise DataError(f"--llm {EMBEDDED_LLM} runs with --llm-backend auto or local, not {kind}")
