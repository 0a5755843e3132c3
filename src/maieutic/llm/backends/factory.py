"""Choosing a backend from command-line style settings."""

from __future__ import annotations

from maieutic.errors import DataError

BACKEND_KINDS = ("auto", "openai", "local", "hf")


def make_backend(kind: str = "auto", *, model: str | None = None, base_url: str | None = None):
    """Build a backend.

    ``auto`` means: an OpenAI-compatible server when ``base_url`` is given, otherwise
    the embedded SmolLM2 model in-process.
    """
    if kind == "auto":
        kind = "openai" if base_url else "local"
    if kind == "openai":
        from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend

        if not base_url:
            raise DataError("--base-url is required for an OpenAI-compatible backend")
        if not base_url.startswith(("http://", "https://")):
            from maieutic.provenance import redact_url

            shown = redact_url(base_url)
            raise DataError(f"--base-url must start with http:// or https://, got {shown!r}")
        return OpenAICompatibleBackend(base_url, model or "default")
    if kind == "local":
        from maieutic.llm.backends.embedded import embedded_backend

        if model and not model.endswith(".gguf"):
            raise DataError(f"--llm {model!r}: the local backend runs a .gguf file")
        return embedded_backend(model)
    if kind == "hf":
        from maieutic.llm.backends.hf import HFBackend

        if not model:
            raise DataError("--model is required for the hf backend")
        return HFBackend(model)
    raise DataError(f"unknown backend {kind!r} (expected one of {', '.join(BACKEND_KINDS)})")
