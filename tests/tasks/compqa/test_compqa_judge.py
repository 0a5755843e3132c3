"""The CompQA rubric judge with a scripted backend (complete, prose, partial and
out-of-range replies, one resample), its prompt, few-shot examples that are never the
evaluated answers, merging with the rules, and ``evaluate compqa`` end to end against
a fake server (results, table, agreement, bad input)."""

from __future__ import annotations

import json

import pytest

from maieutic.errors import DataError
from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import LLMClient
from maieutic.llm.store import CallStore
from maieutic.tasks.compqa.data import Answer
from maieutic.tasks.compqa.evaluate import RubricEvaluator, looks_english
from maieutic.tasks.compqa.judge import JudgeInput, RubricJudge, prompt
from maieutic.tasks.compqa.rules import RuleJudge
from maieutic.tasks.compqa.shots import Shot, choose_shots
from tests.fake_server import FakeOpenAIServer

ALL_ONES = json.dumps({str(c): 1 for c in range(1, 16)})
ITEM = JudgeInput(
    object1="tea",
    object2="coffee",
    aspect="taste",
    comparison="Tea is calm. Coffee is strong. Tea wins.",
)


def _judge(*replies, shots=()):
    backend = ScriptedBackend(list(replies))
    return RubricJudge(LLMClient(backend, CallStore()), shots), backend


def test_a_complete_reply_is_used_and_the_models_total_ignored():
    judge, backend = _judge("```json\n" + ALL_ONES[:-1] + ', "total": 3}\n```')
    [score] = judge.score([ITEM])
    assert score.check.total == 15 and score.unscored_reason is None
    assert len(backend.history) == 1


def test_prose_twice_is_unscored_with_the_reason():
    judge, backend = _judge("This answer is quite good overall.", "I would rate it highly.")
    [score] = judge.score([ITEM])
    assert score.check is None and "unparseable judge reply" in score.unscored_reason
    assert len(backend.history) == 2  # asked once more as a new sample
    assert backend.history[1].params.temperature > 0


def test_a_partial_dict_twice_keeps_the_valid_criteria_and_no_total():
    partial = json.dumps({str(c): 1 for c in range(8, 16)})
    judge, _ = _judge(partial, partial)
    [score] = judge.score([ITEM])
    assert sorted(score.check.scores) == list(range(8, 16))
    assert score.check.total is None
    assert {p[1] for p in score.check.problems} == {"missing"}


def test_out_of_range_is_asked_again_then_reported_per_criterion():
    bad = json.dumps({str(c): (3 if c == 1 else 1) for c in range(1, 16)})
    judge, _ = _judge(bad, ALL_ONES)
    [score] = judge.score([ITEM])
    assert score.check.total == 15  # the resample was valid
    judge, _ = _judge(bad, bad)
    [score] = judge.score(
        [JudgeInput(object1="a", object2="b", aspect="", comparison="Another answer.")]
    )  # not cached
    assert ("C1", "out-of-range", "score 3 outside 0–1") in score.check.problems
    assert 1 not in score.check.scores and score.check.total is None


def test_the_prompt_lists_the_rubric_and_fences_the_answer():
    shot = Shot(
        object1="cats",
        object2="dogs",
        aspect="",
        comparison="Cats are independent.",
        scores={c: 1.0 for c in range(1, 16)},
    )
    text = prompt(ITEM, [shot])
    for c in range(1, 16):
        assert f"\n{c}. " in text
    assert "0 to 2: 0 = most arguments off the aspect" in text
    assert "What is better taste: tea or coffee?" in text
    assert "<answer>\nTea is calm." in text and "Example 1" in text and '"15": 1' in text
    assert text.index("Example 1") < text.index("What is better taste")


def test_examples_are_never_the_evaluated_answers(tmp_path):
    shots = [
        {"object1": f"a{i}", "object2": "b", "aspect": "", "comparison": f"Answer {i}.",
         "score_dict": {str(c): 1 for c in range(1, 16)}}
        for i in range(3)
    ]  # fmt: skip
    shots.append({**shots[0], "comparison": "Broken", "score_dict": {"15": 0}})
    path = tmp_path / "shots.json"
    path.write_text(json.dumps(shots))
    chosen = choose_shots(path, 1, seed=0, evaluated=["Answer   0.\n", "Answer 1."])
    assert [s.comparison for s in chosen] == ["Answer 2."]  # whitespace does not hide one
    with pytest.raises(DataError, match="1 fully scored answer"):
        choose_shots(path, 2, seed=0, evaluated=["Answer 0.", "Answer 1."])
    assert choose_shots(path, 2, seed=7) == choose_shots(path, 2, seed=7)  # seeded


def test_rules_and_judge_merge_with_sources():
    backend = ScriptedBackend(default=json.dumps({str(c): 0 for c in range(1, 16)}))
    scorer = RubricEvaluator(RuleJudge(), RubricJudge(LLMClient(backend, CallStore())), "rules+llm")
    answer = Answer(
        object1="tea",
        object2="coffee",
        aspect="",
        comparison="Tea is calm.",
        generator="g",
        scenario="1",
    )
    [scored] = scorer.score_answers([answer])
    assert scored.sources[15] == "rules" and scored.sources[9] == "judge"
    assert scored.complete and scored.total == 0.0


def test_english_detection():
    assert looks_english("Tea is the better choice than coffee for a calm morning " * 3)
    assert not looks_english("Чай лучше кофе, потому что он мягче и полезнее для здоровья. " * 3)
    assert looks_english("Tea wins.")  # too short to tell


def _answers(tmp_path, name="fake_scenario_3.json"):
    rows = [
        {"object1": "tea", "object2": "coffee", "aspect": "", "comparison": "Tea is calm."},
        {"object1": "tea", "object2": "coffee", "aspect": "", "comparison": ""},
        {"object1": "cats", "object2": "dogs", "aspect": "loyalty", "comparison": "x " * 7000},
    ]
    path = tmp_path / name
    path.write_text(json.dumps(rows))
    return path


def _reply(body):
    text = body["messages"][-1]["content"]
    if "cats or dogs" in text:
        return "Scores:\n1: 1\n2: 1\n3: 3\n"  # partial, with an out-of-range score
    top = {c: 2 if 9 <= c <= 12 else 1 for c in range(1, 16)}  # 19, the maximum
    return "{" + ", ".join(f"{c}: {v}" for c, v in top.items()) + "}"  # bare keys


def test_evaluate_with_a_judge_then_table_agree_and_export(cli, tmp_path):
    answers = _answers(tmp_path)
    out = tmp_path / "results.json"
    with FakeOpenAIServer(reply=_reply) as server:
        remote = ("--base-url", server.base_url, "--llm", "m", "--retries", "0")
        strict = cli("evaluate", "compqa", answers, "--evaluator", "llm", "--strict", *remote)
        assert strict.code == 2 and "the answer is empty" in strict.err
        assert not server.requests
        result = cli("evaluate", "compqa", answers, "--evaluator", "llm", "--out", out, *remote)
    assert result.code == 0, result.err
    assert "warning: fake_scenario_3: [1].comparison: the answer is empty" in result.err
    assert "14000 characters; the judge sees the first 12000" in result.err
    [res] = json.loads(out.read_text())["results"]
    items = res["items"]
    assert items[0]["score"] == 19 and items[1]["score"] == 19  # the empty answer is judged
    assert items[2]["score"] is None and items[2]["score_dict"] == {"1": 1, "2": 1}
    codes = {(p["at"], p["code"]) for p in items[2]["problems"]}
    assert ("C3", "out-of-range") in codes and ("C15", "missing") in codes
    assert res["summary"]["n_incomplete"] == 1 and res["summary"]["total"] == [19.0, 0.0]
    assert res["signature"]["evaluator"] == "llm" and res["signature"]["shots"] == 0
    table = cli("compqa", "table", "--judged", out)
    assert table.code == 0 and "19.00 ± 0.00" in table.out
    sft = tmp_path / "sft.jsonl"
    exported = cli("compqa", "export-sft", "--judged", out, "--out", sft)
    assert exported.code == 0 and "exported: 1" in exported.err  # the empty one is not
    assert "incomplete scores: 1" in exported.err and "empty answers: 1" in exported.err
    [record] = [json.loads(line) for line in sft.read_text().splitlines()]
    assert record["messages"][0] == {"role": "user", "content": "What is better: tea or coffee?"}


def test_few_shot_uses_the_bundled_examples(cli, tmp_path):
    answers = _answers(tmp_path)
    out = tmp_path / "results.json"
    with FakeOpenAIServer(reply=_reply) as server:
        result = cli(
            "evaluate", "compqa", answers, "--evaluator", "llm", "--strategy", "few-shot",
            "--out", out, "--base-url", server.base_url, "--llm", "m",
        )  # fmt: skip
        prompts = [r["messages"][-1]["content"] for r in server.requests]
    assert result.code == 0, result.err
    assert all("Example 2" in p and "desktop computer" in p for p in prompts)
    assert json.loads(out.read_text())["results"][0]["signature"]["shots"] == 2


def test_bad_input_and_an_unreachable_server(cli, tmp_path):
    broken = tmp_path / "broken_scenario_1.json"
    broken.write_text("[{")
    result = cli("evaluate", "compqa", broken, "--evaluator", "llm")
    assert result.code == 2 and "broken_scenario_1.json" in result.err
    missing = tmp_path / "m.json"
    missing.write_text(json.dumps([{"object1": "a", "object2": "b"}]))
    result = cli("evaluate", "compqa", missing, "--evaluator", "llm")
    assert result.code == 2 and "[0].comparison: expected a string" in result.err
    out = tmp_path / "r.json"
    result = cli(
        "evaluate", "compqa", _answers(tmp_path), "--evaluator", "llm", "--out", out,
        "--base-url", "http://127.0.0.1:9/v1", "--llm", "m", "--retries", "0", "--timeout", "2",
    )  # fmt: skip
    assert result.code == 1 and "judge call(s) failed" in result.err
    [res] = json.loads(out.read_text())["results"]  # written before the exit
    assert res["summary"]["n_incomplete"] == 3
    assert res["items"][0]["problems"][0]["message"].startswith("judge call failed")
