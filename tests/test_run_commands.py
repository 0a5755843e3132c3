"""The task commands run through the library run layer: the evaluate loop is written
once (``BaseEvaluator``), no command wires an evaluation or writes a record by hand,
generation records are ``maieutic.generation/3`` and name their task, and what an
input holds that is flagged is shown before ``--strict`` refuses it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import maieutic
from maieutic.errors import DataError
from maieutic.evaluate.base import BaseEvaluator
from maieutic.records import GenerationRecord, load_record
from maieutic.samples import sample_path

TASKS = Path(maieutic.__file__).parent / "tasks"
COMMAND_FILES = sorted(TASKS.glob("*/cli/*.py"))


def test_the_evaluators_share_one_loop():
    from maieutic.tasks.aura.evaluate import AuraEvaluator
    from maieutic.tasks.compqa.evaluate import RubricEvaluator
    from maieutic.tasks.cqs.evaluate import CQEvaluator
    from maieutic.tasks.focus.evaluate import FocusEvaluator

    for cls in (CQEvaluator, FocusEvaluator, AuraEvaluator, RubricEvaluator):
        assert issubclass(cls, BaseEvaluator)
        assert "evaluate" not in vars(cls), f"{cls.__name__} writes its own loop"


@pytest.mark.parametrize("path", COMMAND_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_no_command_wires_a_run_or_writes_a_record_by_hand(path):
    text = path.read_text(encoding="utf-8")
    assert "ResultsFile" not in text  # results files come from maieutic.evaluate
    assert "meta_path" not in text  # generation records come from maieutic.generate
    assert not re.search(r'"format":', text), "a file's dict built by hand, not its record"


def test_a_generated_record_is_version_3_and_names_its_task(cli, tmp_path):
    out = tmp_path / "sub.json"
    data = sample_path("cqs/sample_dataset.json")
    assert cli("generate", "cqs", "--data", data, "--out", out, "--limit", "2").code == 0
    meta = tmp_path / "sub.meta.json"
    written = json.loads(meta.read_text())
    assert list(written)[:2] == ["format", "task"]
    assert written["format"] == "maieutic.generation/3" and written["task"] == "cqs"
    record = load_record(meta)
    assert isinstance(record, GenerationRecord) and record.details["run"] == 1
    report = cli("report", meta, "--out", tmp_path / "r.html")
    assert report.code == 2 and "evaluate the submission beside it" in report.err


def _flagged_set(tmp_path: Path) -> Path:
    path = tmp_path / "flagged.json"
    path.write_text(json.dumps(["Water moves.", "What moves water?"]))
    return path


def test_flags_are_shown_before_strict_refuses_them(cli, tmp_path):
    document = tmp_path / "doc.md"
    document.write_text("Water moves through the roots of a plant. Leaves release it.\n")
    flagged = _flagged_set(tmp_path)
    seen = []
    with pytest.raises(DataError, match="--strict refuses"):
        maieutic.evaluate(
            "aura", document, submissions=[flagged], strict=True, on_loaded=seen.append
        )
    assert [s.name for s in seen] == ["flagged"]
    result = cli("evaluate", "aura", document, flagged, "--strict")
    assert result.code == 2
    warning, error = result.err.strip().splitlines()
    assert warning == "warning: flagged: questions[0]: 'Water moves.' is not a question"
    assert error.startswith("maieutic: error: ") and "--strict refuses" in error


def test_generation_shows_the_input_flags_before_strict_refuses_them(tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"object1": "cats", "object2": "dogs"}) + "\n")
    seen = []
    with pytest.raises(DataError, match="--strict refuses"):
        maieutic.generate(
            "compqa", questions, generator="llm", strict=True, on_flags=seen.append,
            scenarios=["2"], base_url="http://127.0.0.1:9/v1", llm="m",
        )  # fmt: skip
    [flags] = seen
    assert [f.code for f in flags] == ["no-arguments"]
