"""Texts without reference questions (issue 50): the reference-free evaluators
(``usefulness``, ``scorer:DIR``, ``llm-label``, ``llm-rubric``) read them, and score a
submission exactly as with the references (they never look at them); a reference
evaluator with an NAE fallback judge lets the judge label every question; an evaluator
that compares with references refuses them in one line saying which evaluators do not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import maieutic
from maieutic.samples import sample_path

DATASET = sample_path("cqs/sample_dataset.json")
SUBMISSION = sample_path("cqs/sample_submission.json")


def _texts(folder: Path, empty_list: bool = False) -> Path:
    """The sample dataset's texts alone: no ``cqs`` field, or an empty one."""
    records = json.loads(DATASET.read_text())
    texts = {
        key: {"intervention_id": key, "intervention": record["intervention"]}
        | ({"cqs": []} if empty_list else {})
        for key, record in records.items()
    }
    path = folder / ("texts-empty.json" if empty_list else "texts.json")
    path.write_text(json.dumps(texts, indent=1))
    return path


def _questions(result: dict) -> list[dict]:
    # an intervention answered "Missing CQs" has that string for questions
    return [q for i in result["items"] if isinstance(i["cqs"], list) for q in i["cqs"]]


def _labels(result: dict) -> list[str]:
    return [q["label"] for q in _questions(result)]


def _score(cli, tmp_path: Path, data: Path, *options: str) -> dict:
    out = tmp_path / f"{data.stem}-{len(options)}.json"
    done = cli("evaluate", "cqs", "--data", data, SUBMISSION, *options, "--out", out)
    assert done.code == 0, done.err
    return json.loads(out.read_text())["results"][0]


@pytest.mark.parametrize("empty_list", [False, True], ids=["no-cqs-field", "empty-cqs"])
def test_the_usefulness_judge_scores_texts_without_references(cli, tmp_path, empty_list):
    texts = _texts(tmp_path, empty_list)
    alone = _score(cli, tmp_path, texts, "--evaluator", "usefulness")
    with_references = _score(cli, tmp_path, DATASET, "--evaluator", "usefulness")
    assert alone["score"] == with_references["score"]
    assert _labels(alone) == _labels(with_references)
    assert "|refs:0|" in alone["signature_string"]


def test_a_reference_evaluator_with_the_judge_as_fallback_lets_it_label_everything(cli, tmp_path):
    texts = _texts(tmp_path)
    judged = _score(cli, tmp_path, texts, "--evaluator", "chrf", "--nae-fallback", "usefulness")
    alone = _score(cli, tmp_path, texts, "--evaluator", "usefulness")
    assert judged["score"] == alone["score"]
    assert judged["summary"]["nae_fallback"]["n_questions"] == len(_questions(judged))
    assert _labels(judged) == _labels(alone)


@pytest.mark.parametrize("evaluator", ["chrf", "llm-match"])
def test_an_evaluator_that_compares_with_references_says_which_do_not(cli, tmp_path, evaluator):
    for texts in (_texts(tmp_path), _texts(tmp_path, empty_list=True)):
        done = cli("evaluate", "cqs", "--data", texts, SUBMISSION, "--evaluator", evaluator)
        assert done.code == 2
        (line,) = done.err.strip().splitlines()
        assert f"the {evaluator} evaluator compares questions with references" in line
        assert "usefulness" in line and "scorer:DIR" in line


def test_the_python_api_reads_texts_for_a_reference_free_evaluator(tmp_path):
    texts = _texts(tmp_path)
    run = maieutic.evaluate("cqs", texts, submissions=[SUBMISSION], evaluator="usefulness")
    full = maieutic.evaluate("cqs", DATASET, submissions=[SUBMISSION], evaluator="usefulness")
    assert run.results[0].score == full.results[0].score


def test_meta_eval_of_outputs_people_labelled_needs_the_texts_alone(cli, tmp_path):
    texts = _texts(tmp_path)
    outputs = tmp_path / "outputs.json"
    # the sample submission's questions as outputs people labelled
    labels = ["Useful", "Unhelpful", "Invalid"]
    outputs.write_text(
        json.dumps(
            {
                key: {
                    "intervention_id": key,
                    "cqs": [
                        {"id": n, "cq": q["cq"], "label": labels[n % 3]}
                        for n, q in enumerate(record["cqs"])
                    ],
                }
                for key, record in json.loads(SUBMISSION.read_text()).items()
                if isinstance(record["cqs"], list)
            }
        )
    )
    runs = {}
    for name, data in (("texts", texts), ("dataset", DATASET)):
        out = tmp_path / f"meta-{name}.json"
        done = cli(
            "meta-eval", "cqs", "--data", data, "--outputs", outputs,
            "--evaluator", "usefulness", "--out", out,
        )  # fmt: skip
        assert done.code == 0, done.err
        runs[name] = json.loads(out.read_text())
    assert runs["texts"]["report"] == runs["dataset"]["report"]
    refused = cli("meta-eval", "cqs", "--data", texts, "--evaluator", "usefulness")
    assert refused.code == 2
    assert "without --outputs, the references are the questions judged" in refused.err
