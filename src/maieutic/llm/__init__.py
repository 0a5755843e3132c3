"""Model backends behind one client: concurrency, timeouts, retries, cache and call log."""

from maieutic.llm.client import CallFailed, LLMClient
from maieutic.llm.types import ChatRequest, ChatResult, GenerationParams

__all__ = ["CallFailed", "ChatRequest", "ChatResult", "GenerationParams", "LLMClient"]
