"""What ``--judged`` takes in each CompQA command (people's score TSVs only where a
table of people's scores is wanted), people's rows left out being said and recorded,
and ``compqa extremes`` refusing a low bound not below the high one."""

from __future__ import annotations

import csv
import json

import pytest

C = [f"C{i}" for i in range(1, 16)]
HEADER = ["object1", "object2", "aspect", "comparison", "score", *C, "filename"]
LEFT_OUT = "human rows left out (unscored or partial)"


def _people(tmp_path, *rows):
    """A people's table (C1…C15) of the given score rows, all on one gpt4 answer."""
    path = tmp_path / "people.tsv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t")
        writer.writerow(HEADER)
        for scores in rows:
            writer.writerow(
                [
                    "tea",
                    "coffee",
                    "",
                    "an answer",
                    "0",
                    *scores,
                    "scored_gpt4_scenario_1_comparison",
                ]
            )
    return path


def _judged(tmp_path, total_ones=15):
    """A judged file holding the same answer, its first ``total_ones`` criteria at 1."""
    scores = {str(i): (1 if i <= total_ones else 0) for i in range(1, 16)}
    record = {
        "object1": "tea",
        "object2": "coffee",
        "aspect": "",
        "comparison": "an answer",
        "score_dict": scores,
    }
    path = tmp_path / "gpt4_scenario_1.json"
    path.write_text(json.dumps([record]), encoding="utf-8")
    return path


def _refused(cli, out, *args):
    """The command's one-line error (exit 2), nothing written."""
    result = cli(*args)
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert result.code == 2 and len(lines) == 1 and "Traceback" not in result.err, result.err
    assert not out.exists()
    return lines[0]


def test_table_refuses_judge_and_people_files_together(cli, tmp_path):
    people, judged, out = _people(tmp_path, ["1"] * 15), _judged(tmp_path), tmp_path / "t.json"
    line = _refused(
        cli, out, "compqa", "table", "--judged", judged, "--judged", people, "--out", out
    )
    assert "people.tsv" in line and "compqa breakdown" in line


@pytest.mark.parametrize(
    "command",
    [
        ["meta-eval", "compqa", "--humans", "{people}"],
        ["compqa", "extremes", "--humans", "{people}"],
        ["compqa", "export-sft"],
    ],
    ids=["meta-eval", "extremes", "export-sft"],
)
def test_a_people_tsv_is_refused_where_a_judges_scores_are_needed(cli, tmp_path, command):
    people, out = _people(tmp_path, ["1"] * 15), tmp_path / "out.json"
    args = [str(people) if a == "{people}" else a for a in command]
    line = _refused(cli, out, *args, "--judged", people, "--out", out)
    assert "people.tsv" in line and "people's score file (TSV)" in line


def test_table_says_and_records_people_rows_left_out(cli, tmp_path):
    people = _people(tmp_path, ["1"] * 15, ["1"] * 14 + [""], [""] * 15)
    out = tmp_path / "t.json"
    result = cli("compqa", "table", "--judged", people, "--out", out)
    assert result.code == 0, result.err
    assert f"{LEFT_OUT}: 2" in result.out + result.err
    data = json.loads(out.read_text())
    assert data["human_rows_left_out"] == 2 and data["cells"][0]["n"] == 1


def test_a_judges_table_carries_no_left_out_count(cli, tmp_path):
    out = tmp_path / "t.json"
    result = cli("compqa", "table", "--judged", _judged(tmp_path), "--out", out)
    assert result.code == 0 and LEFT_OUT not in result.out + result.err
    assert "human_rows_left_out" not in json.loads(out.read_text())


def test_breakdown_says_and_records_people_rows_left_out_per_column(cli, tmp_path):
    people = _people(tmp_path, ["1"] * 15, ["1"] * 14 + [""])
    out = tmp_path / "b.json"
    columns = ["--judge", f"j={_judged(tmp_path)}", "--judge", f"p={people}"]
    result = cli("compqa", "breakdown", *columns, "--out", out)
    assert result.code == 0, result.err
    assert f"p: {LEFT_OUT}: 1" in (result.out + result.err).replace("\n", " ")
    assert json.loads(out.read_text())["human_rows_left_out"] == {"p": 1}


def test_extremes_says_and_records_people_rows_left_out(cli, tmp_path):
    people = _people(tmp_path, ["1"] * 15, [""] * 15)
    out = tmp_path / "e.json"
    result = cli(
        "compqa", "extremes", "--judged", _judged(tmp_path), "--humans", people, "--out", out
    )
    assert result.code == 0, result.err
    assert f"{LEFT_OUT}: 1" in (result.out + result.err).replace("\n", " ")
    data = json.loads(out.read_text())
    assert data["counts"][LEFT_OUT] == 1 and data["counts"]["matched"] == 1


@pytest.mark.parametrize(("low", "high"), [("18", "18"), ("17", "12")])
def test_extremes_refuses_low_not_below_high(cli, tmp_path, low, high):
    out = tmp_path / "e.json"
    people = _people(tmp_path, ["1"] * 15)
    args = ["--judged", _judged(tmp_path), "--humans", people, "--low", low, "--high", high]
    result = cli("compqa", "extremes", *args, "--out", out)
    assert result.code == 2 and "--low" in result.err and "below --high" in result.err
    assert not out.exists()
