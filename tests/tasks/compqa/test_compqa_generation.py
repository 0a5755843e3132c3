"""CompQA generation: reading questions, the four scenarios' prompts, the generator with
a scripted backend, the command against a fake server (flags, --strict, a failed call)
and one run against the real llama.cpp server."""

from __future__ import annotations

import json

import pytest

from maieutic.errors import DataError
from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import LLMClient
from maieutic.llm.store import CallStore
from maieutic.llm.types import GenerationParams, PermanentError
from maieutic.tasks.compqa.data import generator_scenario, read_answers
from maieutic.tasks.compqa.generation import ComparativeAnswerGenerator
from maieutic.tasks.compqa.questions import ComparativeQuestion, parse_question, read_questions
from maieutic.tasks.compqa.scenarios import NO_ARGUMENTS, messages
from tests.conftest import SHARED_DATA
from tests.fake_server import FakeOpenAIServer, Fault


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "What is better for web development: Python or PHP?",
            ("Python", "PHP", "for web development"),
        ),
        ("What is better: tea or coffee?", ("tea", "coffee", "")),
        ("Which is better, a train or a plane", ("a train", "a plane", "")),
    ],
)
def test_question_forms(text, expected):
    q = parse_question(text)
    assert (q.object1, q.object2, q.aspect) == expected
    assert parse_question("Is tea healthy?") is None


def test_question_files(tmp_path):
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text(
        json.dumps(
            {"object1": "tea", "object2": "coffee", "arguments": "1. cheap\n2) strong\n- calm"}
        )
        + "\n"
        + json.dumps({"question": "What is better for speed: cars or bikes?"})
        + "\n"
        + json.dumps({"object1": "Tea", "object2": "coffee", "aspect": None})
        + "\n"
    )
    questions = read_questions(jsonl)
    assert questions.questions[0].arguments == ["cheap", "strong", "calm"]
    assert questions.questions[1].aspect == "for speed"
    assert [f.code for f in questions.flags] == ["repeated-question"]
    text = tmp_path / "q.txt"
    text.write_text("What is better: tea or coffee?\n\nhello there\n")
    with pytest.raises(DataError, match=r"q.txt: line 3: 'hello there' is not of the form"):
        read_questions(text)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"object1": "tea"}]))
    with pytest.raises(DataError, match=r"bad.json: \[0\].object2: expected a non-empty string"):
        read_questions(bad)
    bad.write_text(json.dumps([{"object1": "a", "object2": "b", "arguments": 3}]))
    with pytest.raises(DataError, match=r"\[0\].arguments: expected a list of strings"):
        read_questions(bad)


def test_the_released_answer_files_can_be_asked_again():
    path = SHARED_DATA / "compqa" / "cam.json"
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    questions = read_questions(path).questions
    assert len(questions) == 50 and questions[0].object1 == "baseball"
    assert questions[0].aspect == "most played sport"


def test_the_four_scenarios():
    q = ComparativeQuestion(
        object1="tea",
        object2="coffee",
        aspect="taste",
        arguments=["tea is calm", "coffee is strong"],
    )
    # the first scenario: the objects (and the asked aspect) only, and no role
    assert messages(q, "1") == [
        {"role": "user", "content": "Compare tea and coffee with respect to taste."}
    ]
    second = messages(q, "2")
    assert second[0]["content"] == "You are a helpful assistant."
    assert "1. tea is calm\n2. coffee is strong" in second[1]["content"]
    third = messages(q, "3")[1]["content"]
    assert "300 words" in third and "100 words" in third and "one word" in third
    assert "tea is calm" not in third  # no arguments in the third scenario
    fourth = messages(q, "4")[1]["content"]
    assert "15 arguments" in fourth and "[generated]" in fourth and "square brackets" in fourth
    assert "2. coffee is strong" in fourth and "numbered list of the arguments" in fourth
    assert (
        NO_ARGUMENTS in messages(ComparativeQuestion(object1="a", object2="b"), "4")[1]["content"]
    )
    assert "with respect to taste" in third


def test_the_generator_answers_each_scenario_and_reports_failures():
    backend = ScriptedBackend(default=lambda r: f"An answer for {r.tag}.")
    backend.enqueue(PermanentError("boom"))
    generator = ComparativeAnswerGenerator(
        LLMClient(backend, CallStore()), ["1", "3"], GenerationParams(seed=1)
    )
    questions = [
        ComparativeQuestion(object1="tea", object2="coffee"),
        ComparativeQuestion(object1="cats", object2="dogs"),
    ]
    run = generator.generate(questions)
    assert [(o.scenario, o.index) for o in run.outcomes] == [("1", 0), ("1", 1), ("3", 0), ("3", 1)]
    assert sum(o.failed for o in run.outcomes) == 1
    done = [o for o in run.outcomes if not o.failed]
    assert all(o.comparison.startswith("An answer for scenario-") for o in done)
    assert generator.signature(questions).extra["scenarios"] == "1,3"


def _questions(tmp_path):
    path = tmp_path / "questions.jsonl"
    rows = [
        {"object1": "tea", "object2": "coffee", "arguments": ["tea is calm"]},
        {"object1": "cats", "object2": "dogs"},
        {"object1": "BOOM", "object2": "bust", "arguments": ["x"]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_generate_command_with_flags_strict_and_a_failed_call(cli, tmp_path):
    with FakeOpenAIServer(reply=lambda body: "Tea wins.") as server:
        server.fail_matching("BOOM", *[Fault(kind="status", status=500)] * 10)
        out = tmp_path / "answers"
        base = ("generate", "compqa", "--questions", _questions(tmp_path), "--out", out)
        remote = ("--base-url", server.base_url, "--llm", "m", "--retries", "0")
        refused = cli(*base, "--scenario", "2", "--strict", *remote)
        assert refused.code == 2 and "has no arguments" in refused.err
        assert not server.requests  # refused before any model call
        result = cli(*base, "--scenario", "1", "--scenario", "2", "--name", "fake", *remote)
    assert result.code == 1, result.err
    assert (
        "warning:" in result.err
        and "'What is better: cats or dogs?' has no arguments" in result.err
    )
    assert "2 answer(s) failed" in result.err
    written = sorted(p.name for p in out.iterdir())
    assert written == [
        "fake_scenario_1.json",
        "fake_scenario_1.meta.json",
        "fake_scenario_2.json",
        "fake_scenario_2.meta.json",
    ]
    answers = read_answers(out / "fake_scenario_2.json")
    assert [a.object1 for a in answers] == ["tea", "cats"] and answers[0].comparison == "Tea wins."
    assert generator_scenario("fake_scenario_2.json") == ("fake", "2")
    meta = json.loads((out / "fake_scenario_2.meta.json").read_text())
    assert meta["failed"][0]["index"] == 2 and meta["signature"]["scenarios"] == "1,2"


@pytest.mark.slow
@pytest.mark.xdist_group("llm")  # the session's llama.cpp server (conftest)
def test_generate_then_evaluate_with_the_real_server(cli, tmp_path, llama_server):
    pytest.importorskip("llama_cpp", reason="needs: maieutic setup-llm --llamacpp")
    from maieutic.llm.server import SERVED_MODEL_NAME

    questions = tmp_path / "q.txt"
    questions.write_text("What is better for a first course: Python or Java?\n")
    out = tmp_path / "answers"
    server = llama_server  # one for the session (conftest)
    result = cli(
        "generate", "compqa", "--questions", questions, "--out", out, "--scenario", "3",
        "--base-url", server.base_url, "--llm", SERVED_MODEL_NAME, "--max-tokens", "200",
    )  # fmt: skip
    assert result.code == 0, result.err
    [answer] = read_answers(out / "smollm2-135m-instruct_scenario_3.json")
    assert answer.object1 == "Python" and len(answer.comparison.split()) > 5
    scored = cli(
        "evaluate", "compqa", out, "--evaluator", "rules+llm", "--out", tmp_path / "r.json",
        "--base-url", server.base_url, "--llm", SERVED_MODEL_NAME,
    )  # fmt: skip
    assert scored.code in (0, 1), scored.err
    [record] = json.loads((tmp_path / "r.json").read_text())["results"][0]["items"]
    assert record["sources"]["15"] == "rules" and record["scenario"] == "3"
