"""LLM backends. Each has ``kind``, ``model_identity``, ``secrets`` and async ``chat``."""

from maieutic.llm.backends.factory import make_backend

__all__ = ["make_backend"]
