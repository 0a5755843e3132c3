"""Questions about a document: passages per granularity, reply parsing, the generator
with a scripted backend, and one run against the real llama.cpp server."""

from __future__ import annotations

import json

import pytest

from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import LLMClient
from maieutic.llm.store import CallStore
from maieutic.llm.types import GenerationParams
from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.generation import (
    DocumentQuestionGenerator,
    parse_generated,
    passages,
)

TEXT = (
    "# Pump\nThe pump moves water through the pipes every morning.\n\n"
    "The filter must be cleaned every month.\n\n- check the valve\n- check the hose\n"
)


def test_passages_per_granularity():
    assert len(passages(TEXT, granularity="paragraph")) == 3
    assert passages(TEXT, granularity="page") == [
        "\n\n".join(passages(TEXT, granularity="paragraph"))
    ]
    assert passages(TEXT, granularity="document") == [TEXT]
    assert passages(TEXT, granularity="page", pages=["page one", " ", "page two"]) == [
        "page one",
        "page two",
    ]


def test_answer_first_replies_keep_only_the_questions():
    reply = (
        "Answer: the pump moves water\nQuestion: What moves water through the pipes?\n"
        "Answer: monthly\nQuestion 2: How often must the filter be cleaned?"
    )
    assert parse_generated(reply, strategy="answer-first") == [
        "What moves water through the pipes?",
        "How often must the filter be cleaned?",
    ]
    assert parse_generated("1. What moves water?\n2. Why clean it?", strategy="zero-shot") == [
        "What moves water?",
        "Why clean it?",
    ]


def test_generator_prompts_each_passage_and_reports_failures():
    backend = ScriptedBackend(default=lambda r: f"What is in {r.tag}?")
    generator = DocumentQuestionGenerator(
        LLMClient(backend, CallStore()),
        "answer-first",
        granularity="paragraph",
        params=GenerationParams(seed=3),
    )
    run = generator.generate(Document(text=TEXT, source="doc.md"))
    assert [o.questions for o in run.outcomes] == [
        ["What is in passage-0?"],
        ["What is in passage-1?"],
        ["What is in passage-2?"],
    ]
    prompt = backend.history[0].messages[1][1]
    assert "Answer:" in prompt and "<passage>" in prompt and "Pump" not in prompt  # heading dropped
    assert generator.signature(Document(text=TEXT, source="d")).extra["granularity"] == "paragraph"


@pytest.mark.slow
@pytest.mark.xdist_group("llm")  # the session's llama.cpp server (conftest)
def test_generate_then_evaluate_with_the_real_server(cli, tmp_path, llama_server):
    pytest.importorskip("llama_cpp", reason="needs: maieutic setup-llm --llamacpp")
    from maieutic.llm.server import SERVED_MODEL_NAME

    doc = tmp_path / "doc.md"
    doc.write_text(TEXT)
    out = tmp_path / "q.json"
    server = llama_server  # one for the session (conftest)
    result = cli(
        "generate",
        "aura",
        "--document",
        doc,
        "--out",
        out,
        "--granularity",
        "document",
        "--base-url",
        server.base_url,
        "--llm",
        SERVED_MODEL_NAME,
        "--max-tokens",
        "128",
    )
    assert result.code == 0, result.err
    meta = json.loads((tmp_path / "q.meta.json").read_text())
    assert meta["model_calls"]["made"] == 1 and meta["signature"]["strategy"] == "zero-shot"
    questions = json.loads(out.read_text())
    assert isinstance(questions, list)
    if questions:  # the 135M model does not always write a question
        scored = cli("evaluate", "aura", doc, out)
        assert scored.code == 0, scored.err
