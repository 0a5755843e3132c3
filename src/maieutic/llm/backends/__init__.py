"""LLM backends. Each has ``kind``, ``model_identity``, ``secrets`` and async ``chat``."""

from maieutic.llm.backends.factory import make_backend

__all__ = ["describe", "make_backend"]


def describe(backend) -> tuple[str, str]:
    """(model, backend) as signatures show them: the model's name, and the backend kind
    with the in-process runtime when there is one (``local/llamacpp``)."""
    model = getattr(backend, "display_name", None) or backend.model_identity
    runtime = getattr(backend, "runtime", None)
    kind = f"{backend.kind}/{runtime}" if backend.kind == "local" and runtime else backend.kind
    return model, kind
