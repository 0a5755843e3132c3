"""The ``maieutic evaluate cqs`` command: bad input gives one line and exit 2."""

from __future__ import annotations

import json

import pytest

from tests.conftest import write_json

DATASET = {
    "A_1": {
        "intervention_id": "A_1",
        "intervention": "We should do X because Y.",
        "cqs": [
            {"id": "r0", "cq": "Does Y really lead to X?", "label": "Useful"},
            {"id": "r1", "cq": "What is the weather like today?", "label": "Invalid"},
        ],
    }
}
SUBMISSION = {
    "A_1": {"intervention_id": "A_1", "cqs": [{"id": 0, "cq": "Does Y really lead to X?"}]}
}


@pytest.fixture
def files(tmp_path):
    return write_json(tmp_path / "refs.json", DATASET), write_json(
        tmp_path / "sub.json", SUBMISSION
    )


def _one_error_line(result, *needles):
    assert result.code == 2, result.err
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, result.err
    assert lines[0].startswith("maieutic: error: ")
    assert "Traceback" not in result.err
    for needle in needles:
        assert needle in lines[0]


def test_not_json(cli, tmp_path, files):
    refs, _ = files
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    _one_error_line(cli("evaluate", "cqs", "--data", refs, bad), str(bad), "not valid JSON")


def test_missing_file(cli, tmp_path, files):
    refs, _ = files
    _one_error_line(
        cli("evaluate", "cqs", "--data", refs, tmp_path / "nope.json"), "file not found"
    )


def test_wrong_top_level_type(cli, tmp_path, files):
    refs, _ = files
    sub = write_json(tmp_path / "list.json", [1, 2])
    _one_error_line(cli("evaluate", "cqs", "--data", refs, sub), "found an array")


def test_unknown_label_in_references(cli, tmp_path, files):
    _, sub = files
    data = json.loads(json.dumps(DATASET))
    data["A_1"]["cqs"][0]["label"] = "USE"
    refs = write_json(tmp_path / "refs2.json", data)
    _one_error_line(cli("evaluate", "cqs", "--data", refs, sub), '"A_1".cqs[0].label', "'USE'")


def test_unknown_submission_id(cli, tmp_path, files):
    refs, _ = files
    sub = write_json(tmp_path / "s.json", {"Z_9": {"intervention_id": "Z_9", "cqs": "Missing CQs"}})
    _one_error_line(cli("evaluate", "cqs", "--data", refs, sub), "'Z_9'", "--skip-unknown")


def test_skip_unknown_warns_and_scores_the_rest(cli, tmp_path, files):
    refs, _ = files
    sub = write_json(
        tmp_path / "s.json",
        {
            "Z_9": {"intervention_id": "Z_9", "cqs": "Missing CQs"},
            "A_1": {"intervention_id": "A_1", "cqs": "Missing CQs"},
        },
    )
    out = tmp_path / "res.json"
    result = cli(
        "evaluate",
        "cqs",
        "--evaluator",
        "chrf",
        "--data",
        refs,
        sub,
        "--skip-unknown",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    assert "skipped 1 id(s) not in the references" in result.err
    run = json.loads(out.read_text())["results"][0]
    assert run["summary"]["n_interventions"] == 1
    assert run["summary"]["labels"]["missing_cqs"] == 3


def test_threshold_out_of_range_is_a_usage_error(cli, files):
    refs, sub = files
    _one_error_line(cli("evaluate", "cqs", "--data", refs, sub, "--threshold", "3"), "outside")


def test_bad_option_value_exits_2(cli, files):
    refs, sub = files
    result = cli("evaluate", "cqs", "--data", refs, sub, "--evaluator", "bleu")
    assert result.code == 2
    assert "Invalid value for '--evaluator'" in result.err


def test_chrf_end_to_end_writes_results_and_official_layout(cli, tmp_path, files):
    refs, sub = files
    out, official = tmp_path / "res.json", tmp_path / "official"
    result = cli(
        "evaluate",
        "cqs",
        "--evaluator",
        "chrf",
        "--data",
        refs,
        sub,
        "--out",
        out,
        "--official-out",
        official,
    )
    assert result.code == 0, result.err
    assert "eval:chrf" in result.out and "thr:30|" in result.out
    payload = json.loads(out.read_text())
    run = payload["results"][0]
    q = run["items"][0]["cqs"][0]
    assert (q["label"], q["best_reference_id"], q["similarity"]) == ("Useful", "r0", 100.0)
    assert run["summary"]["overall"] == pytest.approx(1 / 3)
    assert run["signature"]["evaluator"] == "chrf"
    assert run["signature"]["dataset"].startswith("sha256:")
    assert "1 question (expected 3)" in " ".join(run["warnings"])
    assert [f["code"] for f in run["flags"]] == ["question-count"]
    assert payload["provenance"]["options"]["evaluator"] == "chrf"
    assert run["evaluator"] == {
        "kind": "evaluator",
        "task": "cqs",
        "name": "chrf",
        "args": {"threshold": 30.0, "extra_references": [], "nae_fallback": None},
    }
    plain = json.loads((official / "chrf_30_sub.json").read_text())
    assert plain["A_1"]["cqs"][0]["label"] == "Useful"


def test_a_bad_second_submission_fails_before_any_work(cli, tmp_path, files):
    refs, sub = files
    bad = write_json(tmp_path / "bad.json", {"A_1": {"intervention_id": "A_1", "cqs": [{"cq": 7}]}})
    out = tmp_path / "res.json"
    result = cli("evaluate", "cqs", "--evaluator", "chrf", "--data", refs, sub, bad, "--out", out)
    _one_error_line(result, "bad.json", '"A_1".cqs[0].cq: expected a string, found a number')
    assert not out.exists()
