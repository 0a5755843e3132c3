"""What CompQA's numbers are signed with: a rubric score by how it was made (scorer,
judge, rubric, question set), never by the answers scored; a table or an agreement
figure by the scores and the people's ratings it was computed from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maieutic.tasks.compqa import data as compqa_data
from maieutic.tasks.compqa.evaluate import RubricEvaluator, load_answer_file
from maieutic.tasks.compqa.rules import RuleJudge
from tests.conftest import SHARED_DATA
from tests.fake_server import FakeOpenAIServer

COMPQA = SHARED_DATA / "compqa"
QUESTIONS = [("tea", "coffee", ""), ("cats", "dogs", "loyalty"), ("ASP", "PHP", "")]


def _rows(texts, questions=QUESTIONS):
    return [
        {"object1": a, "object2": b, "aspect": aspect, "comparison": text}
        for (a, b, aspect), text in zip(questions, texts, strict=True)
    ]


def _write(path: Path, rows) -> Path:
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def _rules_signature(path: Path):
    return RubricEvaluator(RuleJudge(None), None, "rules").signature(load_answer_file(path))


def test_two_answer_files_to_the_same_questions_share_a_signature(tmp_path):
    first = _write(tmp_path / "m_scenario_1.json", _rows(["Tea.", "Cats.", "ASP."]))
    third = _write(tmp_path / "m_scenario_3.json", _rows(["Coffee wins.", "Dogs.", "PHP."]))
    one, three = _rules_signature(first), _rules_signature(third)
    assert one == three and str(one) == str(three)
    assert one.n_references == 3 and one.extra["data_covers"] == "questions+rubric"


def test_repeated_samples_and_order_do_not_change_the_question_set(tmp_path):
    once = _write(tmp_path / "a_scenario_1.json", _rows(["x", "y", "z"]))
    rows = _rows(["p", "q", "r"]) + _rows(["s", "t", "u"])[::-1]  # two samples, reordered
    twice = _write(tmp_path / "b_scenario_1.json", rows)
    assert _rules_signature(once) == _rules_signature(twice)


def test_another_question_set_or_rubric_changes_the_signature(tmp_path, monkeypatch):
    base = _rules_signature(_write(tmp_path / "a_scenario_1.json", _rows(["x", "y", "z"])))
    other = [("tea", "coffee", "taste"), *QUESTIONS[1:]]  # one aspect differs
    moved = _rules_signature(_write(tmp_path / "b_scenario_1.json", _rows(["x", "y", "z"], other)))
    assert moved.dataset != base.dataset
    rubric = json.loads(compqa_data._RUBRIC.read_text(encoding="utf-8"))
    rubric["criteria"][0]["description"] = "another description"
    monkeypatch.setattr(compqa_data, "_RUBRIC", _write(tmp_path / "rubric.json", rubric))
    compqa_data.rubric.cache_clear()
    try:
        reworded = _rules_signature(tmp_path / "a_scenario_1.json")
    finally:
        monkeypatch.undo()
        compqa_data.rubric.cache_clear()
    assert reworded.dataset != base.dataset


def test_the_judge_and_the_embedding_model_are_in_the_signature(tmp_path):
    path = _write(tmp_path / "a_scenario_1.json", _rows(["x", "y", "z"]))

    class _Encoder:
        model_name = "some-embedding-model"

    with_model = RubricEvaluator(RuleJudge(_Encoder()), None, "rules").signature(
        load_answer_file(path)
    )
    assert with_model.extra["embedding"] == "some-embedding-model"
    assert with_model != _rules_signature(path)


def test_the_released_scenario_1_and_3_answers_share_a_signature():
    first, third = COMPQA / "llama3-8b_scenario_1.json", COMPQA / "llama3-8b_scenario_3.json"
    if not third.exists():
        pytest.skip(f"shared data not found at {COMPQA}")
    one, three = _rules_signature(first), _rules_signature(third)
    assert one == three and one.n_references == 50
    # the released judged files hold three samples per question: the same 50 questions
    judged = COMPQA / "judged" / "gpt-4" / "gpt4_scenario_2.json"
    assert _rules_signature(judged).dataset == one.dataset
    assert _rules_signature(COMPQA / "judged" / "gpt-4" / "yahoo.json").dataset != one.dataset


def _judge_reply(body):
    return "{" + ", ".join(f'"{c}": 1' for c in range(1, 16)) + "}"


def test_the_report_of_two_scenarios_says_they_compare(cli, tmp_path):
    first = _write(tmp_path / "m_scenario_1.json", _rows(["Tea.", "Cats.", "ASP."]))
    third = _write(tmp_path / "m_scenario_3.json", _rows(["Coffee.", "Dogs.", "PHP is it."]))
    runs = [(first, "m", "r1.json"), (third, "m", "r3.json"), (third, "other", "o3.json")]
    with FakeOpenAIServer(reply=_judge_reply) as server:
        for answers, model, out in runs:  # separate runs
            remote = ("--evaluator", "llm", "--base-url", server.base_url, "--llm", model)
            assert cli("evaluate", "compqa", answers, *remote, "--out", tmp_path / out).code == 0
    same, other_judge = tmp_path / "same.html", tmp_path / "other.html"
    assert cli("report", tmp_path / "r1.json", tmp_path / "r3.json", "--out", same).code == 0
    html = same.read_text(encoding="utf-8")
    assert "All rows share one signature" in html and "different signatures" not in html
    assert cli("report", tmp_path / "r1.json", tmp_path / "o3.json", "--out", other_judge).code == 0
    assert "made under 2 different signatures" in other_judge.read_text(encoding="utf-8")


def _judged(tmp_path: Path, name: str, value: int) -> Path:
    rows = _rows(["a", "b", "c"])
    for row in rows:
        row["score_dict"] = {str(c): value for c in range(1, 16)}
    return _write(tmp_path / name, rows)


def test_the_table_is_signed_by_the_scores_it_read(cli, tmp_path):
    _judged(tmp_path, "g_scenario_1.json", 1)
    out = tmp_path / "t.json"
    result = cli("compqa", "table", "--judged", tmp_path / "g_scenario_1.json", "--out", out)
    assert result.code == 0, result.err
    assert "judge-vs-people" not in result.out and "humans" not in result.out
    record = json.loads(out.read_text())
    signature = record["signature"]
    assert signature["evaluator"] == "table-by-generator-scenario"
    assert signature["scores"] == "score_dict" and signature["n_references"] == 3
    assert record["signature_string"] in " ".join(result.out.split()).replace(" ", "")
    _judged(tmp_path, "g_scenario_1.json", 0)  # other scores: another signature
    again = tmp_path / "t2.json"
    assert (
        cli("compqa", "table", "--judged", tmp_path / "g_scenario_1.json", "--out", again).code == 0
    )
    assert json.loads(again.read_text())["signature"]["dataset"] != signature["dataset"]


def _humans(path: Path, value: str) -> Path:
    header = ["object1", "object2", "aspect", "comparison", *[f"C{i}" for i in range(1, 16)]]
    lines = ["\t".join([*header, "filename"])]
    for a, b, aspect in QUESTIONS:
        cells = [a, b, aspect, "x", *[value] * 15, "scored_g_scenario_1_comparison"]
        lines.append("\t".join(cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_agreement_names_the_human_ratings_it_used(cli, tmp_path):
    judged = _judged(tmp_path, "g_scenario_1.json", 1)
    signatures = []
    for value in ("1", "0"):
        humans = _humans(tmp_path / f"h{value}.tsv", value)
        out = tmp_path / f"a{value}.json"
        result = cli("meta-eval", "compqa", "--judged", judged, "--humans", humans, "--out", out)
        assert result.code == 0, result.err
        signatures.append(json.loads(out.read_text())["signature"])
    same_judge, other_people = signatures
    assert same_judge["humans"] == "table" and same_judge["scores"] == "score_dict"
    assert same_judge["judged"] == other_people["judged"]  # the same judge scores
    assert same_judge["dataset"] != other_people["dataset"]  # other human ratings
