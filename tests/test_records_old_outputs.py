"""Files written before the typed records (tests/fixtures/old_outputs, by the code of
commit a37667c) load with their record's ``from_json`` and round-trip: written back,
a file of a current format is the file it came from; an older one is migrated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maieutic import records
from maieutic.core import get_task
from maieutic.evaluate.results_file import ResultsFile, load_results

OLD = Path(__file__).parent / "fixtures" / "old_outputs"
FILES = sorted(OLD.rglob("*.json"))
MIGRATED = {"maieutic.generation/2"}

records.load_task_records()  # the task folders' own formats


def _data(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _name(path: Path) -> str:
    return str(path.relative_to(OLD))


def _without_result_signature_strings(data: dict) -> dict:
    # A learned scorer puts "threshold" in a signature's extra fields as well as in its
    # threshold field; read back, the printed form shows it once (as "thr:"), so the
    # recomputed signature_string of a result differs. Everything else is kept.
    out = dict(data)
    for key in ("results", "sets"):
        if key in out:
            out[key] = [{k: v for k, v in r.items() if k != "signature_string"} for r in out[key]]
    return out


def test_every_record_class_has_an_old_example():
    formats = {_data(p)["format"] for p in FILES}
    classes = {records.READABLE[f] for f in formats}
    assert classes == set(records.FORMATS.values())


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_an_old_file_loads_and_round_trips(path):
    data = _data(path)
    record = records.load_record(path)
    assert isinstance(record, records.READABLE[data["format"]])
    written = record.to_json()
    assert written["format"] == type(record).FORMAT
    again = records.read_record(json.loads(json.dumps(written)))
    assert again == record
    if data["format"] in MIGRATED:
        return
    assert record.extra_fields == {}, "a field the record does not declare"
    if isinstance(record, records.ResultsRecord | records.AuraCompare):
        assert _without_result_signature_strings(written) == _without_result_signature_strings(data)
    else:
        # byte for byte, as the writers format it
        assert json.dumps(written, ensure_ascii=False, indent=2) == json.dumps(
            data, ensure_ascii=False, indent=2
        )


@pytest.mark.parametrize(
    ("name", "task"),
    [
        ("cqs-submission-claims/submission.meta.json", "cqs"),
        ("focus-predictions-llm/pred.meta.json", "focus"),
        ("aura-generated/questions.meta.json", "aura"),
        ("compqa-generated/fake_scenario_1.meta.json", "compqa"),
    ],
)
def test_a_version_2_generation_record_is_read_as_version_3(name, task):
    data = _data(OLD / name)
    record = records.load_record(OLD / name)
    assert isinstance(record, records.GenerationRecord) and record.task == task
    written = record.to_json()
    assert written["format"] == "maieutic.generation/3" and written["task"] == task
    # nothing lost or changed: only the version and the task (cqs named none)
    assert {k: v for k, v in written.items() if k not in ("format", "task")} == {
        k: v for k, v in data.items() if k not in ("format", "task")
    }
    assert list(written)[:2] == ["format", "task"]


def test_the_generation_details_are_the_tasks_own_fields():
    cqs = records.load_record(OLD / "cqs-submission-claims/submission.meta.json")
    assert cqs.details["run"] == 1 and "candidates" in cqs.details
    assert cqs.failed == {} and cqs.generator.name == "claims"
    compqa = records.load_record(OLD / "compqa-generated/fake_scenario_1.meta.json")
    assert compqa.details["scenario"] == "1" and compqa.failed == []
    assert compqa.model_calls is None and "model_calls" not in compqa.to_json()


@pytest.mark.parametrize("path", sorted(OLD.glob("*/results.json")), ids=_name)
def test_old_results_files_load_with_load_results(path):
    results = load_results(path)
    assert results and all(r.task == _data(path)["task"] for r in results)


def test_a_results_file_rewritten_from_an_old_one_has_the_same_bytes(tmp_path):
    source = OLD / "cqs-results-runs" / "results.json"
    old = records.load_record(source)
    assert old.repeated_runs, "the example has repeated runs"
    out = tmp_path / "results.json"
    rewritten = ResultsFile(out, old.task, old.provenance, run_figures=get_task("cqs").run_figures)
    for result in load_results(source):
        rewritten.add(result)
    rewritten.close()  # the whole file: written as before the completeness flag
    assert out.read_bytes() == source.read_bytes()
