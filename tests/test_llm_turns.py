"""A model in this process runs one call at a time: a call's time limit starts when its
turn comes (not while it waits behind the others), and a call out of time is stopped
at its next token and says so, instead of running on unseen with the lock held."""

from __future__ import annotations

import asyncio
import time

import pytest

from maieutic.errors import RunError
from maieutic.llm.backends.local import LocalLlamaBackend, smollm2_gguf_path
from maieutic.llm.budget import SPENT, time_budget
from maieutic.llm.client import CallFailed, LLMClient, RetryPolicy
from maieutic.llm.types import ChatRequest, GenerationParams

TOKENS = 1000


class SteadyLlama:
    """llama-cpp-python's ``Llama`` as the backend sees it: completions draw their
    tokens from ``generate``, ``step_s`` each; it counts the tokens drawn."""

    def __init__(self, step_s: float, tokens: int = 3) -> None:
        self.step_s, self.tokens, self.drawn = step_s, tokens, 0

    def generate(self, *args, **kwargs):
        for token in range(self.tokens):
            time.sleep(self.step_s)
            self.drawn += 1
            yield token

    def create_chat_completion(self, **kwargs):
        words = [f"w{t}" for t in self.generate()]
        return {
            "choices": [{"message": {"content": " ".join(words) + "?"}}],
            "usage": {"prompt_tokens": 5, "completion_tokens": len(words)},
        }


def _backend(tmp_path, llama) -> LocalLlamaBackend:
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    backend = LocalLlamaBackend(model)
    backend._llama = llama  # loaded: the turns, not llama.cpp, are under test
    return backend


def _requests(n: int, max_tokens: int = 32) -> list[ChatRequest]:
    params = GenerationParams(temperature=0.7, max_tokens=max_tokens)
    return [
        ChatRequest.of([{"role": "user", "content": "Ask one question."}], params=params,
                       sample_index=i)
        for i in range(n)
    ]  # fmt: skip


def test_waiting_for_the_turn_does_not_count(tmp_path):
    # 8 calls of 0.15 s each, sent together, with 0.6 s each: the last waits 1.05 s
    # for its turn (a limit counted from sending failed calls 4 to 8)
    llama = SteadyLlama(0.05, tokens=3)
    client = LLMClient(_backend(tmp_path, llama), concurrency=8, timeout_s=0.6,
                       retry=RetryPolicy(retries=0))  # fmt: skip
    results = client.run_all(_requests(8))
    failed = [r.reason for r in results if isinstance(r, CallFailed)]
    assert failed == []
    assert llama.drawn == 8 * 3 and client.backend_calls == 8


def test_a_call_out_of_time_is_stopped_and_says_so(tmp_path):
    llama = SteadyLlama(0.01, tokens=TOKENS)  # 10 s if nothing stopped it
    backend = _backend(tmp_path, llama)
    client = LLMClient(backend, timeout_s=0.2, retry=RetryPolicy(retries=0))
    [failed] = client.run_all(_requests(1))
    assert isinstance(failed, CallFailed)
    assert failed.reason.startswith("timed out after 0.2 s of generating (stopped after ")
    # stopped at its deadline: it drew about 20 tokens, not 1000, and left the turn free
    assert 0 < llama.drawn < TOKENS // 10
    assert backend._lock.acquire(blocking=False)
    drawn = llama.drawn
    time.sleep(0.1)
    assert llama.drawn == drawn  # nothing runs on


def test_the_time_budget_still_caps_a_call_and_its_wait(tmp_path):
    llama = SteadyLlama(0.05, tokens=4)  # 0.2 s a call
    client = LLMClient(_backend(tmp_path, llama), concurrency=4, timeout_s=60,
                       retry=RetryPolicy(retries=0))  # fmt: skip

    async def within_budget():
        with time_budget(0.3):
            return await client.complete_all(_requests(4))

    results = asyncio.run(within_budget())
    done = [r for r in results if not isinstance(r, CallFailed)]
    failed = [r.reason for r in results if isinstance(r, CallFailed)]
    assert len(done) == 1 and len(failed) == 3, failed
    # the second is stopped at the budget's end; the others never start
    assert all(SPENT in reason for reason in failed), failed
    assert llama.drawn < 4 * 4


@pytest.fixture(scope="module")
def smollm2():
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    try:
        backend = LocalLlamaBackend(smollm2_gguf_path())
    except RunError as exc:
        pytest.skip(str(exc))
    backend.load()
    return backend


@pytest.mark.slow
def test_the_real_model_writes_what_it_wrote_before(smollm2):
    """The stop at the deadline leaves sampling alone: the reply is llama.cpp's own."""
    request = _requests(1, max_tokens=24)[0]
    params = request.params

    def bare() -> str:
        return smollm2._llama.create_chat_completion(
            messages=request.openai_messages(), temperature=params.temperature,
            top_p=params.top_p, max_tokens=params.max_tokens, seed=params.seed,
        )["choices"][0]["message"]["content"]  # fmt: skip

    # llama.cpp's first call on a fresh context may differ from the next ones (its
    # prompt cache): compared once warm, on the same prompt
    bare()
    [result] = LLMClient(smollm2).run_all([request])
    assert result.text == bare()


@pytest.mark.slow
def test_the_real_model_is_stopped_when_out_of_time(smollm2):
    request = _requests(1, max_tokens=400)[0]
    client = LLMClient(smollm2, timeout_s=0.05, retry=RetryPolicy(retries=0))
    [failed] = client.run_all([request])
    assert isinstance(failed, CallFailed), failed.text
    tokens = int(failed.reason.split("stopped after ")[1].split()[0])
    assert tokens < 400
    assert smollm2._lock.acquire(blocking=False)
    smollm2._lock.release()
