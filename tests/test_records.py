"""Typed records: the table of formats, field checks that name the field, migration on
read, optional fields, and the results file written through its record."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from maieutic import records
from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.results_file import ResultsFile, load_results
from maieutic.registry import Spec
from maieutic.signature import Signature

SRC = Path(__file__).resolve().parents[1] / "src" / "maieutic"
SHIPPED = {
    # package data maieutic reads but never writes for a user
    "maieutic.focus.typology/1",
    "maieutic.compqa.rubric/1",
    "maieutic.claim-ranker/2",  # rebuilt by benchmarks/train_claim_ranker.py
    "maieutic.candidate-filter/1",  # rebuilt by benchmarks/train_candidate_filter.py
    # one result inside a results file or a comparison: EvalResult, not a file
    "maieutic.result/2",
}

records.load_task_records()  # the task folders' own formats


def test_every_format_named_in_the_code_has_a_record():
    named = {
        m
        for path in SRC.rglob("*.py")
        for m in re.findall(r'"(maieutic\.[a-z.-]+/\d+)"', path.read_text(encoding="utf-8"))
    }
    assert named - SHIPPED <= set(records.READABLE), named - SHIPPED - set(records.READABLE)
    assert set(records.FORMATS) <= named | {records.GenerationRecord.FORMAT}


def test_the_formats_table_names_each_class_by_its_format():
    for name, cls in records.FORMATS.items():
        assert name == cls.FORMAT and records.READABLE[name] is cls
        assert cls.WRITTEN_BY and cls.__doc__
        assert bool(cls.NOT_RESULTS) != cls.HOLDS_RESULTS, name
    assert records.READABLE["maieutic.generation/2"] is records.GenerationRecord


def test_required_fields_are_what_a_reader_cannot_do_without():
    assert records.ResultsRecord.required_fields() == ("task", "results")
    assert records.CqsMetaEval.required_fields() == ("signature", "report")
    assert records.AuraSweep.required_fields() == ("rows", "chosen")
    assert records.GenerationRecord.required_fields() == (
        "task",
        "signature",
        "signature_string",
        "generator",
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "expected a JSON object, found a list"),
        ({"results": []}, 'no "format" field'),
        ({"format": 3}, '"format" must be a string, found a number'),
        ({"format": "maieutic.unknown/9"}, "unknown format 'maieutic.unknown/9'"),
        ({"format": "maieutic.results/2", "results": []}, "missing field 'task'"),
        ({"format": "maieutic.meta-eval/2", "report": {}}, "missing field 'signature'"),
        ({"format": "maieutic.aura.sweep/1", "rows": {}, "chosen": 1}, "rows: expected a list"),
        ({"format": "maieutic.aura.sweep/1", "rows": [], "chosen": "x"}, "chosen: expected a num"),
        (
            {"format": "maieutic.compqa.table/1", "cells": [{"n": 1}, 3]},
            "cells[1]: expected an object, found a number",
        ),
        (
            {"format": "maieutic.aura.agree/1", "n_items": True},
            "n_items: expected an integer, found a boolean",
        ),
    ],
)
def test_malformed_input_is_one_line_naming_the_field(data, message):
    with pytest.raises(DataError) as caught:
        records.read_record(data, where="f.json")
    assert message in str(caught.value) and str(caught.value).startswith("f.json: ")
    assert "\n" not in str(caught.value)


def _result(**changes) -> dict:
    result = EvalResult(
        task="cqs",
        submission="s",
        source="s.json",
        signature=Signature(task="cqs", evaluator="chrf"),
        evaluator=Spec(kind="evaluator", task="cqs", name="chrf", args={"threshold": 30.0}),
        score=0.5,
        summary={"n": 1},
        items=[{"id": "A"}],
    ).to_json()
    return {**result, **changes}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"signature": None}, "results[1].signature: expected an object, found null"),
        ({"score": True}, "results[1].score: expected a number or null, found a boolean"),
        ({"evaluator": {"kind": "evaluator", "task": "cqs"}}, "evaluator: missing field 'name'"),
        ({"items": [{"id": "A"}, "B"]}, "results[1].items[1]: expected an object"),
        ({"flags": [{"file": "f"}]}, "results[1].flags[0]: missing field 'at'"),
        ({"format": "maieutic.result/1"}, "results[1]: format 'maieutic.result/1'"),
    ],
)
def test_a_bad_result_is_named_by_its_path(change, message):
    data = {"format": "maieutic.results/2", "task": "cqs", "results": [_result(), _result()]}
    data["results"][1].update(change)
    with pytest.raises(DataError, match=re.escape(message)):
        records.read_record(data)


def test_a_result_without_a_field_is_named_by_load_results(tmp_path):
    data = {"format": "maieutic.results/2", "task": "cqs", "results": [_result(), _result()]}
    del data["results"][1]["source"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError, match=r"r\.json: results\[1\]: missing field 'source'"):
        load_results(path)


def test_a_cqs_generation_record_of_version_2_names_no_task_and_becomes_cqs():
    old = {
        "format": "maieutic.generation/2",
        "run": 2,
        "signature": {"task": "cqs"},
        "signature_string": "task:cqs",
        "generator": {"kind": "generator", "task": "cqs", "name": "template", "args": {}},
        "failed": {"A": "timeout"},
    }
    record = records.read_record(old)
    assert record.task == "cqs" and record.details == {"run": 2}
    assert record.failed == {"A": "timeout"}
    assert record.to_json() == {**old, "format": "maieutic.generation/3", "task": "cqs"}
    focus = records.read_record({**old, "task": "focus"})
    assert focus.task == "focus"


def test_optional_fields_are_left_out_when_absent_and_others_kept():
    minimal = {"format": "maieutic.meta-eval/2", "signature": {}, "report": {"n": 0}}
    record = records.read_record(minimal)
    assert record.sweep is None and record.to_json() == minimal
    extended = {**minimal, "later": [1]}
    assert records.read_record(extended).to_json() == extended


def test_a_record_is_built_and_written_in_field_order():
    sweep = records.AuraSweep(provenance={}, rows=[{"threshold": 0.5}], chosen=0.5, n_sets=1)
    assert list(sweep.to_json()) == ["format", "provenance", "rows", "chosen", "n_sets"]
    with pytest.raises(DataError, match=re.escape("format 'maieutic.aura.agree/1', expected")):
        records.AuraSweep.from_json({"format": "maieutic.aura.agree/1"})


def test_load_record_reads_a_file_and_refuses_other_names(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": "maieutic.compqa.table/1", "cells": []}), "utf-8")
    assert records.load_record(path) == records.CompqaTable(cells=[])
    with pytest.raises(DataError, match=r"expected a \.json file"):
        records.load_record(tmp_path / "t.jsonl")
    path.write_text('{"format": "maieutic.compqa.table/1", "cells": [], "cells": []}', "utf-8")
    with pytest.raises(DataError, match="duplicate key"):
        records.load_record(path)


def _old_payload(results_file: ResultsFile) -> dict:
    # what ResultsFile.payload built by hand before the typed record
    from maieutic.evaluate.runs import group_runs, summarize_runs

    return {
        "format": "maieutic.results/2",
        "task": results_file.task,
        "provenance": results_file.provenance,
        "results": [r.to_json() for r in results_file.results],
        "repeated_runs": {
            name: summarize_runs(runs, results_file.run_figures)
            for name, runs in group_runs(results_file.results).items()
        },
    }


def test_the_results_file_writes_what_it_wrote_before(tmp_path):
    out = tmp_path / "results.json"
    results = ResultsFile(out, "cqs", {"command": ["maieutic"]}, run_figures=("n",))
    for name, score in (("a-run1", 0.5), ("a-run2", 0.7), ("b", None)):
        result = EvalResult.from_json(_result(submission=name, score=score))
        results.add(result)
    assert json.loads(out.read_text(encoding="utf-8"))["complete"] is False  # while running
    results.close()
    expected = json.dumps(_old_payload(results), ensure_ascii=False, indent=2) + "\n"
    assert out.read_text(encoding="utf-8") == expected
    assert results.record().repeated_runs["a"]["score"]["n"] == 2
    assert load_results(out) == results.results
