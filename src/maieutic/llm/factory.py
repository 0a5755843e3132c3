"""The one way components get a language-model client from their plain-valued
arguments (``--llm``, ``--base-url``, ``--llm-backend`` and the call settings)."""

from __future__ import annotations

from maieutic.llm.backends.factory import make_backend
from maieutic.llm.client import LLMClient, RetryPolicy
from maieutic.llm.store import CallStore


def llm_client(
    llm: str | None,
    base_url: str | None,
    llm_backend: str,
    concurrency: int,
    timeout: float,
    retries: int,
) -> LLMClient:
    """The shared client (cache, log, retries) for the named LLM."""
    backend = make_backend(llm_backend, model=llm, base_url=base_url)
    return LLMClient(
        backend,
        CallStore(),
        concurrency=concurrency,
        timeout_s=timeout,
        retry=RetryPolicy(retries=retries),
    )
