"""``llm_client`` is core machinery (``maieutic.llm.factory``): every task builds its
language-model client there, and no task defines its own."""

from __future__ import annotations

from pathlib import Path

from maieutic.llm.client import LLMClient
from maieutic.llm.factory import llm_client
from maieutic.llm.options import LLMOptions

TASKS = Path(__file__).resolve().parents[1] / "src" / "maieutic" / "tasks"


def test_the_client_carries_the_call_settings():
    client = llm_client(
        options=LLMOptions(base_url="http://127.0.0.1:9", concurrency=3, timeout=7.5, retries=2)
    )
    assert isinstance(client, LLMClient) and client.store is not None
    assert (client.concurrency, client.timeout_s, client.retry.retries) == (3, 7.5, 2)
    assert type(client.backend).__name__ == "OpenAICompatibleBackend"  # auto + base URL


def test_no_task_defines_or_shares_its_own_client_factory():
    for path in TASKS.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "def llm_client" not in text, path
        if "llm_client" in text:
            assert "from maieutic.llm.factory import llm_client" in text, path
