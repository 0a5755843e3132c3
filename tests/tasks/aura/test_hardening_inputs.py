"""Bad AURA inputs: one line and exit 2, never a silent score of nothing."""

from __future__ import annotations

import json

import pytest

from maieutic.llm.fake_server import FakeOpenAIServer
from maieutic.tasks.aura import data as aura_data
from maieutic.tasks.aura.data import read_questions

DOC = "The pump moves water through the pipes every morning. The filter is cleaned monthly.\n"
HEBREW = "הממשלה החליטה להעלות את המסים בשנה הבאה. האזרחים מחו נגד ההחלטה בכל הערים.\n"


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def doc(tmp_path):
    path = tmp_path / "doc.md"
    path.write_text(DOC, encoding="utf-8")
    return path


def _generate(cli, tmp_path, document):
    with FakeOpenAIServer() as server:
        result = cli("generate", "aura", "--document", document, "--out", tmp_path / "q.json",
                     "--base-url", server.base_url, "--llm", "m")  # fmt: skip
    return result, server.requests


@pytest.mark.parametrize("content", ["", "  \n\n\t\n"])
def test_generate_refuses_an_empty_document(cli, tmp_path, content):
    document = tmp_path / "empty.md"
    document.write_text(content, encoding="utf-8")
    result, requests = _generate(cli, tmp_path, document)
    assert result.code == 2
    assert "the document has no text" in _one_line(result.err)
    assert not requests and not (tmp_path / "q.json").exists()


def test_generate_refuses_a_document_of_only_headings(cli, tmp_path):
    document = tmp_path / "headings.md"
    document.write_text("# One\n## Two\n", encoding="utf-8")
    result, requests = _generate(cli, tmp_path, document)
    assert result.code == 2 and "no content" in _one_line(result.err) and not requests


def test_generate_has_the_size_limit_of_evaluate(cli, tmp_path):
    assert aura_data.MAX_DOCUMENT_CHARS == 2_000_000  # the one limit, in data.py
    document = tmp_path / "big.txt"
    document.write_text("The valve keeps the pressure steady. " * 60_000, encoding="utf-8")
    result, requests = _generate(cli, tmp_path, document)
    assert result.code == 2 and not requests  # refused before any request
    assert "over the 2,000,000 limit" in _one_line(result.err)
    questions = tmp_path / "q.txt"
    questions.write_text("What keeps the pressure steady?\n", encoding="utf-8")
    scored = cli("evaluate", "aura", document, questions)
    assert scored.code == 2 and "over the 2,000,000 limit" in _one_line(scored.err)


@pytest.mark.parametrize(
    ("name", "content"),
    [("empty.json", "[]"), ("blank.json", '["", "  "]'), ("empty.txt", "\n \n"),
     ("none.json", '{"questions": []}')],
)  # fmt: skip
def test_evaluate_refuses_a_set_with_no_questions(cli, tmp_path, doc, name, content):
    questions = tmp_path / name
    questions.write_text(content, encoding="utf-8")
    result = cli("evaluate", "aura", doc, questions)
    assert result.code == 2
    assert "no questions in the set" in _one_line(result.err)


def test_an_empty_set_inside_the_document_json_is_refused(cli, tmp_path):
    document = tmp_path / "sample.json"
    document.write_text(json.dumps({"passage": DOC, "questions1": []}), encoding="utf-8")
    result = cli("evaluate", "aura", document)
    assert result.code == 2
    assert "no questions in the set 'questions1'" in _one_line(result.err)


def test_the_questions_object_is_the_documented_json_shape(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"questions": ["What moves water?", "Why?"]}), encoding="utf-8")
    assert read_questions(path) == ["What moves water?", "Why?"]


@pytest.mark.parametrize(
    ("name", "content"),
    [("q.txt", '{"questions": ["What moves water?", "Why?"]}'),
     ("q.txt", '[\n  "What moves water?",\n  "Why?"\n]'),
     ("q.jsonl", '{"question": "What moves water?"}\n{"question": "Why?"}\n'),
     ("q.json", '{"items": ["What moves water?"]}')],
)  # fmt: skip
def test_json_that_is_not_a_question_set_is_refused_naming_the_shape(cli, tmp_path, doc, name,
                                                                     content):  # fmt: skip
    questions = tmp_path / name
    questions.write_text(content, encoding="utf-8")
    result = cli("evaluate", "aura", doc, questions)
    assert result.code == 2
    assert '{"questions": [...]}' in _one_line(result.err)


def test_a_text_set_with_brackets_is_still_questions(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text("[Intro] What moves water?\nWhy clean it?\n", encoding="utf-8")
    assert read_questions(path) == ["[Intro] What moves water?", "Why clean it?"]


def test_hebrew_is_refused_as_an_unsupported_language(cli, tmp_path):
    document = tmp_path / "he.md"
    document.write_text(HEBREW, encoding="utf-8")
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps(["מה החליטה הממשלה?"]), encoding="utf-8")
    result = cli("evaluate", "aura", document, questions)
    assert result.code == 2
    line = _one_line(result.err)
    assert "language is not supported" in line and "no content" not in line
    assert str(document) in line


def _qgeval(tmp_path, rating: str):
    passage = json.dumps(DOC)
    text = (
        f'[{{"id": "p1", "passage": {passage}, "questions": ['
        f'{{"prediction": "What moves water?", "source": "SQuAD_x", "answerability": 3.0}},'
        f'{{"prediction": "Why clean it?", "source": "SQuAD_y", "answerability": {rating}}}]}}]'
    )
    path = tmp_path / "qgeval.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("rating", ["NaN", "Infinity", "-Infinity", "99", "0", "true", '"3"'])
def test_a_qgeval_rating_off_the_scale_is_refused(cli, tmp_path, rating):
    result = cli("meta-eval", "aura", "--qgeval", _qgeval(tmp_path, rating))
    assert result.code == 2
    line = _one_line(result.err)
    assert "[0].questions[1].answerability" in line and "from 1 to 3" in line


def test_qgeval_ratings_on_the_scale_are_read(tmp_path):
    from maieutic.tasks.aura.qgeval import load_qgeval

    [item] = load_qgeval(_qgeval(tmp_path, "1"))
    assert [q["answerability"] for q in item["questions"]] == [3.0, 1]
