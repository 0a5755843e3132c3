"""An empty reply is retried with another seed (the same seed draws the same empty
reply again, so every retry was wasted), the same seeds in every run; the reply is
cached under the request's key and under the key of the request that drew it, so a
resumed run writes the same output without asking again."""

from __future__ import annotations

import asyncio

import pytest

import maieutic
from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend
from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import CallFailed, LLMClient, RetryPolicy
from maieutic.llm.store import CallStore
from maieutic.llm.types import RETRY_SEED_STEP, SEED_RANGE, ChatRequest, GenerationParams
from tests.conftest import plan_interventions, write_json
from tests.fake_server import FakeOpenAIServer, default_reply

MESSAGES = [{"role": "user", "content": "Ask three questions."}]


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    async def no_sleep(delay, *args, **kwargs):
        await asyncio.sleep(0)

    monkeypatch.setattr("maieutic.llm.client._sleep", no_sleep)


def _request(seed: int | None = 7) -> ChatRequest:
    return ChatRequest.of(MESSAGES, params=GenerationParams(temperature=0.7, seed=seed))


def _empty_below(limit: int):
    """A model whose reply is empty for every seed under ``limit`` (as a model that
    ends at once on some seed does, every time it is asked with that seed)."""
    return lambda body: "" if body.get("seed", 0) < limit else default_reply(body)


def _client(server: FakeOpenAIServer, store: CallStore | None, retries: int = 4) -> LLMClient:
    backend = OpenAICompatibleBackend(server.base_url, model="fake")
    return LLMClient(backend, store, retry=RetryPolicy(retries=retries))


def test_each_retry_after_an_empty_reply_sends_another_seed(tmp_path):
    with FakeOpenAIServer(reply=_empty_below(7 + 2 * RETRY_SEED_STEP)) as server:
        [result] = _client(server, CallStore(tmp_path / "llm.sqlite")).run_all([_request()])
    seeds = [body["seed"] for body in server.requests]
    assert seeds == [7, 7 + RETRY_SEED_STEP, 7 + 2 * RETRY_SEED_STEP]
    assert not isinstance(result, CallFailed), result
    assert result.text == default_reply({"messages": MESSAGES, "seed": seeds[-1]})


def test_a_resumed_run_gives_the_same_reply_without_asking(tmp_path):
    store = tmp_path / "llm.sqlite"
    with FakeOpenAIServer(reply=_empty_below(7 + RETRY_SEED_STEP)) as server:
        [first] = _client(server, CallStore(store)).run_all([_request()])
        asked = len(server.requests)
        [again] = _client(server, CallStore(store)).run_all([_request()])
        assert len(server.requests) == asked == 2  # the resumed run asked nothing
        # a run that starts over (a fresh cache) sends the same seeds and gets the same
        [fresh] = _client(server, CallStore(tmp_path / "other.sqlite")).run_all([_request()])
    assert (again.text, again.cached) == (first.text, True)
    assert fresh.text == first.text
    assert [b["seed"] for b in server.requests[2:]] == [7, 7 + RETRY_SEED_STEP]
    # cached under the request's key and under the key of the request that drew it
    client = _client(server, None)
    drew = ChatRequest.of(
        MESSAGES, params=GenerationParams(temperature=0.7, seed=7 + RETRY_SEED_STEP)
    )
    keys = {row["key"] for row in CallStore(store).rows("cache")}
    assert keys == {client.key(_request()), client.key(drew)}


def test_an_unseeded_request_stays_unseeded():
    backend = ScriptedBackend(["", "an answer?"])
    [result] = LLMClient(backend).run_all([_request(seed=None)])
    assert result.text == "an answer?"
    assert [r.params.seed for r in backend.history] == [None, None]


def test_retry_seeds_stay_in_range():
    params = GenerationParams(seed=SEED_RANGE - 1)
    seeds = [params.after_empty(n).seed for n in range(5)]
    assert seeds[0] == SEED_RANGE - 1 and len(set(seeds)) == 5
    assert all(0 <= s < SEED_RANGE for s in seeds)


def test_a_resumed_generation_writes_the_same_file(tmp_path, monkeypatch):
    """Through ``maieutic.generate`` against the fake server: every first seed draws an
    empty reply; the run, a resumed run (the same cache) and a run over a fresh cache
    write the same bytes, and the resumed one sends nothing."""
    data = write_json(tmp_path / "data.json", plan_interventions(3))
    outputs = []
    with FakeOpenAIServer(reply=_empty_below(RETRY_SEED_STEP)) as server:
        for n, home in enumerate(("home", "home", "fresh")):
            monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / home))
            before = len(server.requests)
            out = tmp_path / f"out{n}.json"
            maieutic.generate(
                "cqs", data, generator="llm", out=out, llm="fake", base_url=server.base_url
            )
            outputs.append(out.read_bytes())
            sent = len(server.requests) - before
            assert sent == (0 if n == 1 else 6), (n, sent)  # 3 calls, each retried once
    assert outputs[0] == outputs[1] == outputs[2]
    assert b"What evidence supports" in outputs[0]
