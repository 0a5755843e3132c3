"""A bounded wait for ``ask`` with a model: one time budget for all its calls (retries
included), each step is announced, and when the model gives up the offline questions
stand in under a heading that says why."""

from __future__ import annotations

import asyncio
import json

import pytest

from maieutic.llm.budget import SPENT, remaining, time_budget
from maieutic.llm.client import CallFailed, LLMClient, RetryPolicy
from maieutic.llm.types import BackendReply, ChatRequest, GenerationParams
from tests.fake_server import FakeOpenAIServer

ARGUMENT = (
    "We should ban cars from the city centre because traffic pollution causes asthma in "
    "children, and every doctor in the city agrees that cleaner air would help them."
)


class SlowBackend:
    """Answers after ``delay`` seconds (a scripted fake: the real server is below)."""

    kind = "scripted"
    model_identity = "slow"
    secrets: tuple[str, ...] = ()

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.started = 0
        self.finished = 0

    async def chat(self, request, timeout):
        self.started += 1
        await asyncio.sleep(self.delay)
        self.finished += 1
        return BackendReply(text="ok", model="slow", prompt_tokens=1, completion_tokens=1)


def _requests(n: int) -> list[ChatRequest]:
    return [
        ChatRequest(messages=(("user", f"q{i}"),), params=GenerationParams(), tag="t")
        for i in range(n)
    ]


def test_no_budget_outside_the_block():
    assert remaining() is None
    with time_budget(10):
        assert 9 < remaining() <= 10
    assert remaining() is None


def test_calls_share_one_deadline_and_none_starts_after_it():
    backend = SlowBackend(delay=5)
    client = LLMClient(backend, None, concurrency=1, timeout_s=60, retry=RetryPolicy(retries=4))
    with time_budget(0.5):
        outcomes = client.run_all(_requests(4), on_done=lambda *_: None)
    assert all(isinstance(o, CallFailed) for o in outcomes)
    # the first call waits until the deadline; the others never reach the backend, and
    # neither its 5 s reply nor a retry is waited for (counted, not timed)
    assert backend.started == 1 and backend.finished == 0
    assert sum(SPENT in o.reason for o in outcomes) == 4


def test_a_timed_out_call_is_retried_within_the_budget():
    backend = SlowBackend(delay=5)
    client = LLMClient(backend, None, timeout_s=0.1, retry=RetryPolicy(retries=2, base_delay_s=0))
    client.run_all(_requests(1), on_done=lambda *_: None)
    assert backend.started == 3  # no budget: every retry
    backend = SlowBackend(delay=5)
    client = LLMClient(backend, None, timeout_s=0.1, retry=RetryPolicy(retries=50, base_delay_s=0))
    with time_budget(0.35):
        [outcome] = client.run_all(_requests(1), on_done=lambda *_: None)
    assert isinstance(outcome, CallFailed) and SPENT in outcome.reason
    assert 3 <= backend.started <= 5  # the budget, not the 51 tries, ended it


@pytest.mark.slow
def test_ask_with_a_slow_server_gives_offline_questions_within_its_budget(cli):
    with FakeOpenAIServer(delay_s=3) as server:
        result = cli("ask", ARGUMENT, "--format", "json", "--base-url", server.base_url,
                     "--llm", "slow", "--timeout", "1", "--budget", "4")  # fmt: skip
        requests = len(server.requests)
    assert result.code == 1  # the model failed, and that is said
    data = json.loads(result.out)
    why = "offline claims generator: the model's time budget ran out"
    assert data["origins"]["cqs"] in (why, "offline claims generator: the model call failed")
    assert data["origins"]["focus"] == why  # by then the budget was spent
    assert len(data["cqs"]) == 3 and data["focus"]
    # each step announced on stderr, with the time so far and the budget
    assert "ask: writing critical questions (0 s, budget 4 s)" in result.err
    assert "ask: finding weaknesses and Socratic questions" in result.err
    # bounded work: at most the attempts 4 s of 1 s timeouts allow, not 5 tries per call
    assert requests <= 3 * 4


def test_offline_ask_prints_no_steps(cli):
    result = cli("ask", "Nice weather today.", "--format", "json")
    assert "ask: writing" not in result.err
