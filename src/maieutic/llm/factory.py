"""The one way components get a language-model client from their plain-valued
arguments (``--llm``, ``--base-url``, ``--llm-backend`` and the call settings), gathered
in one ``LLMOptions``."""

from __future__ import annotations

from maieutic.llm.client import LLMClient
from maieutic.llm.options import LLM_DEFAULTS, LLMOptions


def llm_client(*, options: LLMOptions = LLM_DEFAULTS) -> LLMClient:
    """The shared client (cache, log, retries) for the LLM ``options`` name."""
    return options.client()
