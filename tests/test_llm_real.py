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
pytest.importorskip("llama_cpp", reason="the embedded LLM needs: pip install 'maieutic[llm]'")

PROMPT = [{"role": "user", "content": "Write one question about taxes. End it with '?'."}]


@pytest.fixture(scope="module")
def server():
    from maieutic.llm.server import LocalServer

    with LocalServer() as running:
        yield running
    assert running.process.poll() is not None  # stopped


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
        "--model",
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
    assert sum(len(c) for c in meta["candidates"].values()) > 0  # the model wrote questions
    calls = CallStore().rows("calls")
    assert len(calls) == 6 and all(r["error"] is None for r in calls)
    assert all(r["completion_tokens"] > 0 for r in calls)

    evaluation = tmp_path / "eval.json"
    result = cli("evaluate", "cqs", "--data", cqs_dev, out, "--skip-unknown", "--out", evaluation)
    assert result.code == 0, result.err
    summary = json.loads(evaluation.read_text())["runs"][0]["summary"]
    assert summary["n_interventions"] == 3
    assert 0.0 <= summary["overall"] <= 1.0

    # a second run is served from the cache: no new calls reach the model
    again = cli(*args, "--out", tmp_path / "again.json")
    assert "model calls made: 0" in again.err
    assert (tmp_path / "again.json").read_text() == out.read_text()


def test_same_seed_same_reply_from_the_server(server):
    from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend

    backend = OpenAICompatibleBackend(server.base_url, "SmolLM2-135M-Instruct")
    params = GenerationParams(temperature=0.8, max_tokens=30, seed=11)
    first = LLMClient(backend).run_all([ChatRequest.of(PROMPT, params=params)])[0]
    second = LLMClient(backend).run_all([ChatRequest.of(PROMPT, params=params)])[0]
    assert first.text == second.text and first.text.strip()


def test_in_process_local_backend():
    from maieutic.llm.backends.local import LocalLlamaBackend

    backend = LocalLlamaBackend()
    [result] = LLMClient(backend).run_all(
        [ChatRequest.of(PROMPT, params=GenerationParams(max_tokens=30))]
    )
    assert result.text.strip() and result.completion_tokens > 0
    assert backend.model_identity.startswith("SmolLM2-135M-Instruct.Q4_1.gguf#")


def test_hf_backend_with_the_same_weights():
    pytest.importorskip("gguf", reason="the hf backend test loads the GGUF: pip install gguf")
    from maieutic.llm.backends.hf import HFBackend
    from maieutic.llm.backends.local import smollm2_gguf_path

    path = smollm2_gguf_path()
    backend = HFBackend(str(path.parent), gguf_file=path.name)
    [result] = LLMClient(backend, timeout_s=600).run_all(
        [ChatRequest.of(PROMPT, params=GenerationParams(max_tokens=20))]
    )
    assert result.text.strip()
    assert result.completion_tokens and result.completion_tokens <= 20


def test_hf_backend_missing_gives_the_install_hint(monkeypatch):
    import sys

    from maieutic.errors import RunError
    from maieutic.llm.backends.hf import HFBackend

    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(RunError, match=r"pip install 'maieutic\[hf\]'"):
        HFBackend("any-model")


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
        "--judge-model",
        SERVED_MODEL_NAME,
        "--sample",
        "4",
        "--seed",
        "0",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    assert result.out.startswith("llm-match: n=4 ")
    payload = json.loads(out.read_text())
    assert payload["signature"]["evaluator"] == "llm-match"
    assert payload["signature"]["model"] == SERVED_MODEL_NAME
    assert len(payload["items"]) == 4
    # every verdict is a label or NAE with a recorded reason
    for item in payload["items"]:
        assert item["predicted"] in {"Useful", "Unhelpful", "Invalid", "not_able_to_evaluate"}
