"""End to end against the real embedded LLM (SmolLM2-135M-Instruct via llama-cpp-python).

The server test starts llama-cpp-python's OpenAI-compatible server on a free loopback
port, generates for real development interventions, evaluates the result with
``maieutic evaluate cqs`` and stops the server.
"""

from __future__ import annotations

import json

import pytest

from maieutic.llm.client import LLMClient
from maieutic.llm.store import CallStore
from maieutic.llm.types import ChatRequest, GenerationParams

pytestmark = pytest.mark.slow
pytest.importorskip("llama_cpp", reason="the llama.cpp server needs: maieutic setup-llm --llamacpp")

PROMPT = [{"role": "user", "content": "Write one question about taxes. End it with '?'."}]


@pytest.fixture
def server(llama_server):
    return llama_server  # one server for every test of the session (conftest)


def test_generate_then_evaluate_against_the_real_server(cli, cqs_dev, tmp_path, server):
    from maieutic.llm.server import SERVED_MODEL_NAME

    out = tmp_path / "smollm.json"
    args = [
        "generate",
        "cqs",
        "--data",
        cqs_dev,
        "--generator",
        "llm",
        "--base-url",
        server.base_url,
        "--llm",
        SERVED_MODEL_NAME,
        "--strategy",
        "baseline",
        "--candidates",
        "2",
        "--limit",
        "3",
    ]
    result = cli(*args, "--out", out)
    assert result.code in (0, 1), result.err  # 1: some item had < 3 usable questions
    sub = json.loads(out.read_text())
    assert len(sub) == 3
    meta = json.loads((tmp_path / "smollm.meta.json").read_text())
    # every question written is one the model's replies contained
    for key, entry in sub.items():
        if entry["cqs"] != "Missing CQs":
            assert [q["cq"] for q in entry["cqs"]] == meta["candidates"][key][:3]
    assert meta["signature"]["model"] == SERVED_MODEL_NAME
    assert meta["signature"]["generator"] == "llm"
    calls = CallStore().rows("calls")
    assert len(calls) == 6 and all(r["error"] is None for r in calls)
    assert all(r["completion_tokens"] > 0 for r in calls)

    evaluation = tmp_path / "eval.json"
    result = cli("evaluate", "cqs", "--data", cqs_dev, out, "--skip-unknown", "--out", evaluation)
    assert result.code == 0, result.err
    run = json.loads(evaluation.read_text())["results"][0]
    # the score is the mean of Useful/3 over the three interventions' own labels
    per_item = [
        0.0
        if item["cqs"] == "Missing CQs"
        else sum(q["label"] == "Useful" for q in item["cqs"]) / 3
        for item in run["items"]
    ]
    assert len(per_item) == 3
    assert run["score"] == pytest.approx(sum(per_item) / 3)

    # a second run is served from the cache: no new calls reach the model
    again = cli(*args, "--out", tmp_path / "again.json")
    assert "model calls: 0 made, 6 served from the cache, 0 failed" in again.err
    assert (tmp_path / "again.json").read_text() == out.read_text()


def test_same_seed_same_reply_from_the_server(server):
    from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend

    backend = OpenAICompatibleBackend(server.base_url, model="SmolLM2-135M-Instruct")
    params = GenerationParams(temperature=0.8, max_tokens=30, seed=11)
    first = LLMClient(backend).run_all([ChatRequest.of(PROMPT, params=params)])[0]
    second = LLMClient(backend).run_all([ChatRequest.of(PROMPT, params=params)])[0]
    assert first.text == second.text and first.text.strip()
    # and the seed is what fixes it: other seeds sample other replies
    others = LLMClient(backend).run_all(
        [
            ChatRequest.of(PROMPT, params=GenerationParams(temperature=0.8, max_tokens=30, seed=s))
            for s in (12, 13, 14)
        ]
    )
    assert any(o.text != first.text for o in others)


def test_llm_match_judge_meta_eval_against_the_real_server(cli, cqs_dev, tmp_path, server):
    from maieutic.llm.server import SERVED_MODEL_NAME

    out = tmp_path / "meta.json"
    result = cli(
        "meta-eval",
        "cqs",
        "--data",
        cqs_dev,
        "--evaluator",
        "llm-match",
        "--base-url",
        server.base_url,
        "--llm",
        SERVED_MODEL_NAME,
        "--sample",
        "4",
        "--seed",
        "0",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    assert result.out.startswith("llm-match: n=")
    payload = json.loads(out.read_text())
    assert payload["signature"]["evaluator"] == "llm-match"
    assert payload["signature"]["model"] == SERVED_MODEL_NAME
    assert len(payload["items"]) == 4
    # the report counts exactly what the items say: unscored ones are counted, and read
    # as not_able_to_evaluate (the paper's rule for what the evaluator cannot judge)
    predicted = [i["predicted"] for i in payload["items"]]
    report = payload["report"]
    assert report["n_unscored"] == predicted.count("unscored")
    assert report["n"] == 4
    not_labelled = predicted.count("not_able_to_evaluate") + predicted.count("unscored")
    assert report["n_labelled"] == report["n"] - not_labelled
    # every call the judge made is in the log with its tokens
    calls = CallStore().rows("calls")
    assert len(calls) >= 4 and all(r["model"] for r in calls)


def test_the_server_ends_with_the_process_that_started_it_even_after_kill_9(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import time\n"
        "from maieutic.llm.server import LocalServer\n"
        "server = LocalServer().start()\n"
        "print(server.process.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    owner = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "MAIEUTIC_HOME": str(tmp_path)},
    )  # fmt: skip
    try:
        server_pid = int(owner.stdout.readline())
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        os.kill(server_pid, signal.SIGKILL)
        raise AssertionError("the llama.cpp server outlived its owner by 10 s")


def test_model_first_with_the_model_as_its_own_judge_against_the_real_server(
    cli, cqs_dev, tmp_path, server
):
    """The route a person with a model gets, the model labelling its own candidates: the
    judge's calls go to the same server through the same client (cached and logged),
    every question shown is the model's or the offline one's, and a second run is served
    from the cache whole."""
    from maieutic.llm.server import SERVED_MODEL_NAME

    out = tmp_path / "judged.json"
    args = ["generate", "cqs", "--data", cqs_dev, "--generator", "model-first",
            "--selector", "llm-judge", "--order", "model-first", "--base-url",
            server.base_url, "--llm", SERVED_MODEL_NAME, "--candidates", "3",
            "--limit", "2", "--out", out]  # fmt: skip
    result = cli(*args)
    assert result.code == 0, result.err
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    signature = meta["signature_string"]
    assert "gen:model-first" in signature and "selector:llm-judge" in signature
    assert "order:model-first" in signature and "judge_prompt:" in signature
    sub = json.loads(out.read_text())
    for key, entry in sub.items():
        shown = [q["cq"] for q in entry["cqs"]]
        offline = meta["filled"].get(key, [])
        model = [q for q in shown if q not in offline]
        assert len(shown) == 3 and set(model) <= set(meta["candidates"][key])
        assert not set(model) & set(meta["rejected"].get(key, {}))
    # the judge asked about more than the 2 texts' 3 samples each: its calls are counted
    made = meta["model_calls"]["made"] + meta["model_calls"]["cache_hits"]
    assert made > 6, meta["model_calls"]
    again = cli(*args)
    assert again.code == 0 and json.loads(out.read_text()) == sub
    assert "0 made" in again.err  # generation and judgement both from the cache
