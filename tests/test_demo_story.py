"""``maieutic demo`` tells each task's story in order — the text, the questions made for
it, how they score — and says what it leaves out. Checked against the files the demo
writes (run once, with the real embedding model)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.samples import sample_path


class Demo:
    """The demo's output, whitespace collapsed (lines are wrapped), and its files."""

    def __init__(self, out: str, directory: Path) -> None:
        self.raw = out
        self.out = flat(out)
        self.directory = directory

    def lines(self) -> list[str]:
        return [line.strip() for line in self.raw.splitlines()]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Demo:
    directory = tmp_path_factory.mktemp("demo")
    home = tmp_path_factory.mktemp("home")
    done = subprocess.run(
        [sys.executable, "-m", "maieutic", "demo", "--out-dir", str(directory)],
        capture_output=True,
        text=True,
        env={**os.environ, "MAIEUTIC_HOME": str(home)},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return Demo(done.stdout, directory)


def shown_ids(demo: Demo, ids: list[str]) -> list[str]:
    """The ids the demo shows as a heading line of their own (``ID`` or ``ID (…)``)."""
    return [
        i for i in ids if any(re.fullmatch(rf"{re.escape(i)}( \(.*\))?", ln) for ln in demo.lines())
    ]


def cqs_records(demo: Demo) -> list[dict]:
    payload = json.loads((demo.directory / "results.json").read_text())
    [mine] = [r for r in payload["results"] if r["submission"] == "claims_generator"]
    return mine["items"]


@pytest.mark.slow
def test_each_shown_intervention_text_comes_before_its_questions(demo):
    dataset = json.loads(sample_path("cqs/sample_dataset.json").read_text())
    records = cqs_records(demo)
    shown = shown_ids(demo, [r["intervention_id"] for r in records])
    assert shown, "no intervention is shown as a heading followed by its text"
    for record in records:
        if record["intervention_id"] not in shown:
            continue
        # the start of the text, shortened or not, is there
        text = flat(dataset[record["intervention_id"]]["intervention"])[:80]
        at_text = demo.out.find(text)
        assert at_text >= 0, f"{record['intervention_id']}: its text is not shown"
        for question in record["cqs"]:
            at_question = demo.out.find(flat(question["cq"]), at_text)
            assert at_question > at_text, question["cq"]


@pytest.mark.slow
def test_every_shown_question_has_its_label_and_similarity_next_to_it(demo):
    records = cqs_records(demo)
    shown = shown_ids(demo, [r["intervention_id"] for r in records])
    questions = [q for r in records if r["intervention_id"] in shown for q in r["cqs"]]
    assert len(questions) >= 3
    for n, question in enumerate(questions):
        start = demo.out.find(flat(question["cq"]))
        assert start >= 0, question["cq"]
        following = [demo.out.find(flat(q["cq"]), start + 1) for q in questions[n + 1 :]]
        end = min([f for f in following if f > start] or [len(demo.out)])
        beside = demo.out[start + len(flat(question["cq"])) : end]
        assert f"→ {question['label']}" in beside, (question, beside)
        assert f"{question['similarity']:.3f}" in beside, (question, beside)


@pytest.mark.slow
def test_fewer_shown_than_there_are_is_said_with_n_of_m(demo):
    records = cqs_records(demo)
    shown = shown_ids(demo, [r["intervention_id"] for r in records])
    if len(shown) < len(records):
        assert f"Showing {len(shown)} of {len(records)} interventions" in demo.out
    gold = [json.loads(line) for line in sample_path("focus/shots.jsonl").read_text().splitlines()]
    arguments = shown_ids(demo, [g["id"] for g in gold])
    assert 0 < len(arguments) < len(gold)
    assert f"Showing {len(arguments)} of {len(gold)} arguments" in demo.out
    assert str(sample_path("focus/shots.jsonl")) in demo.out


@pytest.mark.slow
def test_the_submission_score_is_given_with_its_meaning(demo):
    payload = json.loads((demo.directory / "results.json").read_text())
    for result in payload["results"]:
        assert f"{result['submission']} {result['score']:.3f}" in demo.out
    assert "score = Useful questions / 3 per intervention, averaged" in demo.out


@pytest.mark.slow
def test_focus_shows_the_text_then_what_was_found_then_the_gold_and_scores(demo):
    gold = {g["id"]: g for g in map(json.loads, sample_path("focus/shots.jsonl").open())}
    predicted = {p["id"]: p for p in map(json.loads, (demo.directory / "focus_cues.jsonl").open())}
    shown = shown_ids(demo, list(gold))
    for key in shown:
        at_text = demo.out.find(flat(gold[key]["argument"]))
        assert at_text >= 0, key
        for label in predicted[key]["labels"]:
            at_span = demo.out.find(f'"{label["span"]}"', at_text)
            assert at_span > at_text, label
            if label.get("question"):
                assert demo.out.find(label["question"], at_span) > at_span
        at_gold = demo.out.find("against the gold", at_text)
        for label in gold[key]["labels"]:
            assert demo.out.find(f'"{label["span"]}" →', at_gold) > at_gold, label
    [result] = json.loads((demo.directory / "focus_results.json").read_text())["results"]
    assert f"macro F1 {result['score']:.3f}" in demo.out


@pytest.mark.slow
def test_compqa_is_titled_by_what_it_is_and_says_why_no_total(demo):
    assert "compqa · shots" not in demo.raw
    [title] = [ln for ln in demo.lines() if ln.startswith("== CompQA")]
    assert "comparative answers scored by the offline rubric rules" in title
    [result] = json.loads((demo.directory / "compqa_rules.json").read_text())["results"]
    records = result["items"]
    decided = {int(c) for r in records for c in r["score_dict"]}
    assert decided and decided != set(range(1, 16))
    # only the criteria that are defined are shown, with their scores
    for record in records:
        for criterion, value in record["score_dict"].items():
            assert re.search(rf"C{criterion} +{value:g} \(", demo.out), criterion
    assert "—" not in demo.out[demo.out.find("== CompQA") : demo.out.find("Why no total")]
    if any(r["score"] is None for r in records):
        why = demo.out[demo.out.find("Why no total") :]
        assert why.startswith("Why no total: the total is the sum of all 15 criteria")
        assert "C8–C12, C14" in why  # the criteria no offline rule decides


@pytest.mark.slow
def test_it_ends_with_the_files_and_a_command_per_task(demo):
    ending = demo.raw[demo.raw.find("== Files and next steps") :]
    assert str(demo.directory) in ending
    for name in ("claims_generator.json", "results.json", "focus_cues.jsonl", "compqa_rules.json"):
        assert (demo.directory / name).is_file() and name in ending
    commands = [ln for ln in ending.splitlines() if ln.strip().startswith("maieutic ")]
    for task in ("cqs", "focus", "compqa"):
        assert any(f"maieutic evaluate {task} " in c for c in commands), task


def test_an_out_dir_that_cannot_be_made_is_one_line_and_no_work(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = cli("demo", "--out-dir", blocker / "sub")
    assert result.code == 1
    assert (
        result.err.strip() == f"maieutic: error: {blocker / 'sub'}: cannot write: Not a directory"
    )
    assert result.out == ""


def test_long_texts_are_cut_at_a_word_with_an_ellipsis():
    from maieutic.apps.demo_text import criteria_list, shorten, shorten_middle, showing

    text = "one two three four five six seven eight nine ten"
    assert shorten(text, 100) == text
    assert shorten(text, 20) == "one two three four…"
    middle = shorten_middle(text, 30)
    assert middle.startswith("one two") and middle.endswith("nine ten") and " … " in middle
    assert len(middle) <= 32
    assert criteria_list([15, 1, 2, 3, 13, 5, 6]) == "C1–C3, C5, C6, C13, C15"
    assert (
        showing(2, total=5, noun="argument", where="F")
        == "Showing 2 of 5 arguments; all 5 are in F."
    )
    assert (
        showing(5, total=5, noun="argument", where="F")
        == "All 5 arguments are shown; they are in F."
    )
