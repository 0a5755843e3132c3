"""FOCUS generation against the real embedded LLM (SmolLM2-135M-Instruct served by
llama-cpp-python on a free loopback port), then scored by ``evaluate focus``."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow
pytest.importorskip("llama_cpp", reason="the llama.cpp server needs: maieutic setup-llm --llamacpp")


@pytest.fixture
def server(llama_server):
    return llama_server  # one server for every test of the session (conftest)


@pytest.mark.parametrize("strategy", ["zero-shot", "few-shot"])
def test_generate_and_evaluate_with_the_real_server(cli, focus_dir, tmp_path, server, strategy):
    from maieutic.llm.server import SERVED_MODEL_NAME

    out = tmp_path / "smol.jsonl"
    args = [
        "generate",
        "focus",
        "--data",
        focus_dir / "dev_gold.csv",
        "--generator",
        "llm",
        "--strategy",
        strategy,
        "--base-url",
        server.base_url,
        "--llm",
        SERVED_MODEL_NAME,
        "--limit",
        "3",
        "--max-tokens",
        "96",
        "--out",
        out,
    ]
    result = cli(*args)
    assert result.code == 0, result.err
    meta = json.loads((tmp_path / "smol.meta.json").read_text())
    assert meta["model_calls"]["made"] == 3
    assert meta["signature"]["model"] and meta["signature"]["strategy"] == strategy
    for outcome in meta["outcomes"].values():
        assert outcome["raw"]  # the model's own reply is kept for inspection
    again = cli(*args)
    assert again.code == 0 and "0 made, 3 served from the cache" in again.err
    scored = cli(
        "evaluate",
        "focus",
        "--gold",
        focus_dir / "dev_gold.csv",
        out,
        "--no-span-embedding",
        "--skip-unknown",
    )
    assert scored.code == 0, scored.err
