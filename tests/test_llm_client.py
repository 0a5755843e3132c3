"""The LLM client: cache keys, cache hits, retries, Retry-After, concurrency, the log."""

from __future__ import annotations

import asyncio

import pytest

from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import CallFailed, LLMClient, RetryPolicy
from maieutic.llm.keys import cache_key
from maieutic.llm.store import CallStore
from maieutic.llm.types import ChatRequest, GenerationParams, PermanentError, TransientError

MESSAGES = [{"role": "user", "content": "Ask three questions."}]


def _request(**kwargs) -> ChatRequest:
    return ChatRequest.of(MESSAGES, **kwargs)


@pytest.fixture
def sleeps(monkeypatch):
    """Record asyncio.sleep delays instead of waiting them out."""
    recorded: list[float] = []
    real_sleep = asyncio.sleep

    async def fake_sleep(delay, *args, **kwargs):
        recorded.append(delay)
        await real_sleep(0)

    monkeypatch.setattr("maieutic.llm.client._sleep", fake_sleep)
    return recorded


def test_cache_key_covers_output_affecting_inputs_only():
    base = cache_key("m", _request())
    assert base.startswith("v1:")
    assert cache_key("m", _request()) == base
    assert cache_key("other", _request()) != base
    assert cache_key("m", _request(sample_index=1)) != base
    assert cache_key("m", _request(params=GenerationParams(temperature=0.5))) != base
    assert cache_key("m", _request(params=GenerationParams(seed=1))) != base
    assert cache_key("m", _request(tag="just a log label")) == base
    fast = LLMClient(ScriptedBackend(), timeout_s=1, retry=RetryPolicy(retries=0))
    slow = LLMClient(ScriptedBackend(), timeout_s=99, retry=RetryPolicy(retries=9))
    assert fast.key(_request()) == slow.key(_request())


def test_second_identical_call_is_served_from_the_persistent_cache(tmp_path):
    backend = ScriptedBackend(["first answer?"])
    client = LLMClient(backend, CallStore(tmp_path / "llm.sqlite"))
    [a] = client.run_all([_request()])
    # a new client over the same file: nothing reaches the backend
    again = LLMClient(ScriptedBackend([]), CallStore(tmp_path / "llm.sqlite"))
    [b] = again.run_all([_request()])
    assert (a.text, a.cached, b.text, b.cached) == ("first answer?", False, "first answer?", True)
    assert again.backend_calls == 0
    rows = CallStore(tmp_path / "llm.sqlite").rows("calls")
    assert [r["cache_hit"] for r in rows] == [0, 1]
    assert rows[0]["completion_tokens"] == 2 and rows[0]["latency_ms"] >= 0


def test_transient_errors_are_retried_with_exponential_backoff(sleeps):
    backend = ScriptedBackend([TransientError("boom"), TransientError("boom"), "ok?"])
    client = LLMClient(backend, retry=RetryPolicy(retries=3, base_delay_s=1.0, max_delay_s=10))
    [result] = client.run_all([_request()])
    assert result.text == "ok?"
    assert len(backend.history) == 3
    # full jitter within [ceiling/2, ceiling], ceiling = 1, 2
    assert 0.5 <= sleeps[0] <= 1.0 and 1.0 <= sleeps[1] <= 2.0


def test_retry_after_is_honoured(sleeps):
    backend = ScriptedBackend([TransientError("429", retry_after=7.5), "ok?"])
    [result] = LLMClient(backend, retry=RetryPolicy(base_delay_s=0.01)).run_all([_request()])
    assert result.text == "ok?"
    assert sleeps == [7.5]


def test_permanent_errors_are_not_retried_and_retries_run_out(sleeps):
    backend = ScriptedBackend([PermanentError("server answered 400: bad request")])
    [failed] = LLMClient(backend).run_all([_request()])
    assert isinstance(failed, CallFailed)
    assert failed.reason == "server answered 400: bad request"
    assert len(backend.history) == 1
    backend = ScriptedBackend(default=TransientError("server answered 503"))
    [failed] = LLMClient(backend, retry=RetryPolicy(retries=2)).run_all([_request()])
    assert failed.reason == "server answered 503 after 3 attempts"
    assert len(backend.history) == 3


def test_timeouts_are_transient_and_reported(sleeps):
    backend = ScriptedBackend(default="late?", delay_s=0.5)
    [failed] = LLMClient(backend, timeout_s=0.05, retry=RetryPolicy(retries=1)).run_all(
        [_request()]
    )
    assert failed.reason == "timed out after 0.05 s after 2 attempts"


def test_concurrency_limit_is_respected():
    in_flight = peak = 0

    class Counting(ScriptedBackend):
        async def chat(self, request, timeout):
            nonlocal in_flight, peak
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.01)
            in_flight -= 1
            return await super().chat(request, timeout)

    requests = [_request(sample_index=i) for i in range(20)]
    LLMClient(Counting(default="q?"), concurrency=3).run_all(requests)
    assert peak == 3


def test_failures_do_not_stop_other_requests():
    backend = ScriptedBackend(
        default=lambda r: PermanentError("no") if r.sample_index == 1 else "fine?"
    )
    results = LLMClient(backend).run_all([_request(sample_index=i) for i in range(3)])
    assert [type(r).__name__ for r in results] == ["ChatResult", "CallFailed", "ChatResult"]


def test_an_empty_reply_is_retried_and_never_cached(tmp_path, sleeps):
    store = CallStore(tmp_path / "llm.sqlite")
    backend = ScriptedBackend(["", "  \n", "a real answer?"])
    [result] = LLMClient(backend, store, retry=RetryPolicy(retries=3)).run_all([_request()])
    assert result.text == "a real answer?" and len(backend.history) == 3
    # the answer only, under the request's key and the key of the retry that drew it
    # (tests/test_llm_empty_retry.py)
    assert [r["reply"] for r in store.rows("cache")] == 2 * [
        '{"text": "a real answer?", "model": "scripted", "prompt_tokens": 3, '
        '"completion_tokens": 3}'
    ]
    # empty every time: the call fails with the reason, and nothing is cached
    store2 = CallStore(tmp_path / "other.sqlite")
    [failed] = LLMClient(ScriptedBackend(default=""), store2, retry=RetryPolicy(retries=1)).run_all(
        [_request()]
    )
    assert isinstance(failed, CallFailed)
    assert failed.reason == "empty content in the reply after 2 attempts"
    assert store2.rows("cache") == []


def test_two_servers_never_share_cached_replies(tmp_path):
    from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend

    one = OpenAICompatibleBackend("http://127.0.0.1:8001/v1", model="default", api_key="sk-secret")
    two = OpenAICompatibleBackend("http://127.0.0.1:8002/v1", model="default", api_key="sk-secret")
    assert one.model_identity == "default@http://127.0.0.1:8001/v1"
    assert LLMClient(one).key(_request()) != LLMClient(two).key(_request())
    assert "sk-secret" not in one.model_identity
    # the key never changes the identity either
    three = OpenAICompatibleBackend("http://127.0.0.1:8001/v1", model="default", api_key="other")
    assert LLMClient(one).key(_request()) == LLMClient(three).key(_request())


def test_the_local_backend_never_caches_an_empty_reply(tmp_path, sleeps):
    from maieutic.llm.backends.local import LocalLlamaBackend

    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    replies = iter(["", "   ", "Is it true?"])

    class Llama:  # llama.cpp's reply shape, as create_chat_completion returns it
        def create_chat_completion(self, **kwargs):
            content = next(replies)
            return {
                "choices": [{"message": {"content": content}}],
                "usage": {"prompt_tokens": 9, "completion_tokens": len(content.split())},
            }

    backend = LocalLlamaBackend(model)
    backend._llama = Llama()  # loaded: no llama.cpp needed to check the client's rule
    store = CallStore(tmp_path / "llm.sqlite")
    [failed] = LLMClient(backend, store, retry=RetryPolicy(retries=1)).run_all([_request()])
    assert isinstance(failed, CallFailed)
    assert failed.reason == "empty content in the reply after 2 attempts"
    assert store.rows("cache") == []
    [result] = LLMClient(backend, store).run_all([_request()])
    assert (result.text, result.cached) == ("Is it true?", False)
    assert len(store.rows("cache")) == 1
    # the log keeps the failure (its attempts in their own column) and the success
    calls = [(r["error"], r["attempts"], r["cache_hit"]) for r in store.rows("calls")]
    assert calls == [("empty content in the reply", 2, 0), (None, 1, 0)]
