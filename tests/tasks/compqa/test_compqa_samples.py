"""``generate compqa --samples K``: the paper drew three answers from each GPT model
(n = 3) and scored each as a separate answer. Each draw has its own seed and cache
key (never the cached first reply), the samples sit side by side in the scenario's
file, and one sample each (the default) is unchanged."""

from __future__ import annotations

import json

from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import LLMClient
from maieutic.llm.store import CallStore
from maieutic.llm.types import GenerationParams
from maieutic.tasks.compqa.data import read_answers
from maieutic.tasks.compqa.generation import ComparativeAnswerGenerator
from maieutic.tasks.compqa.questions import ComparativeQuestion
from tests.fake_server import FakeOpenAIServer


def _draws(samples: int):
    backend = ScriptedBackend(default=lambda r: f"seed {r.params.seed} for {r.tag}")
    store = CallStore()
    generator = ComparativeAnswerGenerator(
        LLMClient(backend, store), ["1"], GenerationParams(seed=5), samples=samples
    )
    questions = [
        ComparativeQuestion(object1="tea", object2="coffee"),
        ComparativeQuestion(object1="cats", object2="dogs"),
    ]
    return generator, generator.generate(questions), backend, questions


def test_three_samples_are_three_distinct_calls():
    generator, run, backend, questions = _draws(3)
    assert len(backend.history) == 6  # 2 questions × 3 samples, none served from the cache
    seeds = sorted({r.params.seed for r in backend.history})
    assert seeds == [5, 6, 7] and len({r.sample_index for r in backend.history}) == 3
    texts = [o.comparison for o in run.outcomes]
    assert len(set(texts)) == 6
    assert [(o.sample, o.index) for o in run.outcomes] == [(k, i) for k in range(3) for i in (0, 1)]
    assert generator.signature(questions).extra["samples"] == 3


def test_one_sample_is_as_before():
    generator, _run, backend, questions = _draws(1)
    assert [r.params.seed for r in backend.history] == [5, 5]
    assert [r.tag for r in backend.history] == ["scenario-1-q0", "scenario-1-q1"]
    assert "samples" not in generator.signature(questions).extra


def test_the_command_writes_the_samples_side_by_side(cli, tmp_path):
    questions = tmp_path / "q.txt"
    questions.write_text("What is better: tea or coffee?\nWhat is better: cats or dogs?\n")
    seeds = []

    def reply(body):
        seeds.append(body.get("seed"))
        return f"answer {len(seeds)}"

    with FakeOpenAIServer(reply=reply) as server:
        result = cli(
            "generate",
            "compqa",
            "--questions",
            questions,
            "--out-dir",
            tmp_path / "o",
            "--scenario",
            "3",
            "--samples",
            "3",
            "--name",
            "g",
            "--base-url",
            server.base_url,
            "--llm",
            "m",
        )
    assert result.code == 0, result.err
    answers = read_answers(tmp_path / "o" / "g_scenario_3.json")
    assert [a.object1 for a in answers] == ["tea"] * 3 + ["cats"] * 3
    assert len({a.comparison for a in answers}) == 6 and len(set(seeds)) == 3
    meta = json.loads((tmp_path / "o" / "g_scenario_3.meta.json").read_text())
    assert meta["signature"]["samples"] == 3
