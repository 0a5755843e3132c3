"""Bad CompQA inputs: people's score files, answer files with repeated keys, and judge
replies with two conflicting score objects. One line and exit 2, or scored and
flagged — never a silent guess."""

from __future__ import annotations

import csv
import json

import pytest

from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import LLMClient
from maieutic.llm.store import CallStore
from maieutic.tasks.compqa.judge import JudgeInput, RubricJudge
from maieutic.tasks.compqa.reply_parsing import parse_scores
from maieutic.tasks.compqa.shots import read_shots

CRITERIA = [f"score_dict.{i}" for i in range(1, 16)]
HEADER = ["object1", "object2", "aspect", "comparison", "score", *CRITERIA, "filename"]
NAME = "scored_gpt4_scenario_1_comparison"
ONES = {str(c): 1 for c in range(1, 16)}


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _annotator(path, rows, header=HEADER):
    """An annotator's TSV: each row (object1, scores) with 15 score cells."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t")
        writer.writerow(header)
        for obj, scores in rows:
            cells = {"object1": obj, "object2": "tea", "aspect": "", "score": "0",
                     "comparison": f"{obj} answer\nwith a second line",
                     "filename": NAME}  # fmt: skip
            cells.update(zip(CRITERIA, scores, strict=True))
            writer.writerow([cells.get(column, "") for column in header])
    return path


def _judged(tmp_path, n=4):
    answers = [
        {"object1": f"coffee{i}", "object2": "tea", "aspect": "",
         "comparison": f"coffee{i} answer\nwith a second line",
         "score_dict": {str(c): (i + c) % 2 for c in range(1, 16)}, "score": 0}
        for i in range(n)
    ]  # fmt: skip
    path = tmp_path / "gpt4_scenario_1.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    return path


def _scores(i):
    return [str(float((i * c) % 2)) for c in range(1, 16)]


@pytest.fixture
def humans(tmp_path):
    first = _annotator(tmp_path / "h1.tsv", [(f"coffee{i}", _scores(i)) for i in range(4)])
    second = _annotator(tmp_path / "h2.tsv", [(f"coffee{i}", _scores(i + 1)) for i in range(4)])
    return first, second


def _agree(cli, tmp_path, first, second, *extra):
    return cli("meta-eval", "compqa", "--judged", _judged(tmp_path), "--hum1", first,
               "--hum2", second, *extra)  # fmt: skip


def test_the_constructed_files_agree(cli, tmp_path, humans):
    out = tmp_path / "r.json"
    result = _agree(cli, tmp_path, *humans, "--out", out)
    assert result.code == 0, result.err
    assert json.loads(out.read_text())["counts"]["matched"] == 4


@pytest.mark.parametrize("command", [("meta-eval", "compqa"), ("compqa", "agree")])
def test_a_file_without_the_score_columns_is_refused(cli, tmp_path, humans, command):
    header = [h for h in HEADER if h not in CRITERIA]
    bare = tmp_path / "bare.tsv"
    bare.write_text("\t".join(header) + "\n" + "\t".join(["coffee0", "tea", "", "x", "0",
                    NAME]) + "\n", encoding="utf-8")  # fmt: skip
    result = cli(*command, "--judged", _judged(tmp_path), "--hum1", bare, "--hum2", humans[1])
    assert result.code == 2
    line = [x for x in result.err.splitlines() if "error" in x][-1]
    assert "missing column(s)" in line and "score_dict.1" in line and str(bare) in line


def test_the_humans_command_refuses_it_too(cli, tmp_path, humans):
    bare = tmp_path / "bare.tsv"
    bare.write_text("filename\tscore\n" + NAME + "\t3\n", encoding="utf-8")
    result = cli("meta-eval", "compqa-humans", bare, humans[1])
    assert result.code == 2 and "missing column(s)" in _one_line(result.err)


@pytest.mark.parametrize("bad", ["-7", "99", "nan", "NaN", "inf", "-inf", "2.5", "one"])
@pytest.mark.parametrize("command", ["meta-eval compqa", "meta-eval compqa-humans"])
def test_a_score_off_the_rubric_scale_is_refused_with_its_line(cli, tmp_path, bad, command):
    rows = [(f"coffee{i}", _scores(i)) for i in range(4)]
    rows[2] = ("coffee2", [*_scores(2)[:4], bad, *_scores(2)[5:]])
    first = _annotator(tmp_path / "h1.tsv", rows)
    second = _annotator(tmp_path / "h2.tsv", [(f"coffee{i}", _scores(i)) for i in range(4)])
    if command == "meta-eval compqa":
        result = _agree(cli, tmp_path, first, second)
    else:
        result = cli("meta-eval", "compqa-humans", first, second)
    assert result.code == 2
    line = _one_line(result.err)
    # row 3 starts on line 6: each answer takes two lines
    assert f"{first}:6" in line and "score_dict.5" in line and "from 0 to 2" in line


def test_a_bad_score_in_a_partial_row_is_refused_too(cli, tmp_path, humans):
    rows = [(f"coffee{i}", _scores(i)) for i in range(4)]
    rows[0] = ("coffee0", ["", "-7", *_scores(0)[2:]])
    first = _annotator(tmp_path / "h1.tsv", rows)
    result = _agree(cli, tmp_path, first, humans[1])
    assert result.code == 2 and "score_dict.2: score '-7'" in _one_line(result.err)


def test_a_score_above_its_criterion_maximum_is_kept_and_flagged(cli, tmp_path, humans):
    rows = [(f"coffee{i}", _scores(i)) for i in range(4)]
    rows[1] = ("coffee1", ["1.0", "2.0", *_scores(1)[2:]])  # criterion 2 is out of 1
    first = _annotator(tmp_path / "h1.tsv", rows)
    out = tmp_path / "r.json"
    result = _agree(cli, tmp_path, first, humans[1], "--out", out)
    assert result.code == 0, result.err
    counts = json.loads(out.read_text())["counts"]
    assert counts["human scores above their criterion's maximum (kept)"] == 1
    humans_result = cli("meta-eval", "compqa-humans", first, humans[1])
    assert humans_result.code == 0
    assert "warning:" in humans_result.err and "above criterion 2's maximum 1" in humans_result.err


def test_a_byte_order_mark_is_dropped(cli, tmp_path, humans):
    first, second = humans
    plain = tmp_path / "plain.json"
    assert _agree(cli, tmp_path, first, second, "--out", plain).code == 0
    marked = tmp_path / "bom.tsv"
    marked.write_bytes(b"\xef\xbb\xbf" + first.read_bytes())
    with_bom = tmp_path / "bom.json"
    result = _agree(cli, tmp_path, marked, second, "--out", with_bom)
    assert result.code == 0, result.err
    assert json.loads(with_bom.read_text())["rows"] == json.loads(plain.read_text())["rows"]


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"object1\tobject2\x00\n", "NUL"), ("caf\xe9\tx\n".encode("latin-1"), "not UTF-8")],
)
def test_binary_or_non_utf8_files_are_one_line(cli, tmp_path, humans, content, message):
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(content)
    result = _agree(cli, tmp_path, bad, humans[1])
    assert result.code == 2 and message in _one_line(result.err)
    result = cli("meta-eval", "compqa-humans", humans[0], bad)
    assert result.code == 2 and message in _one_line(result.err)


def test_a_repeated_column_is_refused(cli, tmp_path, humans):
    header = [*HEADER, "score_dict.3"]
    first = _annotator(tmp_path / "dup.tsv", [(f"coffee{i}", _scores(i)) for i in range(4)], header)
    result = _agree(cli, tmp_path, first, humans[1])
    assert result.code == 2 and "'score_dict.3' appears twice" in _one_line(result.err)


def test_a_row_with_extra_fields_and_a_header_only_file_are_refused(cli, tmp_path, humans):
    extra = tmp_path / "extra.tsv"
    extra.write_text(humans[0].read_text(encoding="utf-8") + "a\tb\t" * 20 + "\n")
    result = _agree(cli, tmp_path, extra, humans[1])
    assert result.code == 2 and "the header has 21" in _one_line(result.err)
    header_only = tmp_path / "header.tsv"
    header_only.write_text("\t".join(HEADER) + "\n")
    result = cli("meta-eval", "compqa-humans", header_only, humans[1])
    assert result.code == 2 and "no rows" in _one_line(result.err)


def test_shots_from_a_tsv_check_the_scores_the_same_way(tmp_path, humans):
    assert len(read_shots(humans[0])) == 4
    rows = [(f"coffee{i}", _scores(i)) for i in range(4)]
    rows[3] = ("coffee3", ["inf", *_scores(3)[1:]])
    from maieutic.errors import DataError

    with pytest.raises(DataError, match="from 0 to 2"):
        read_shots(_annotator(tmp_path / "bad.tsv", rows))


@pytest.mark.parametrize(
    ("text", "at"),
    [('[{"object1": "a", "object2": "b", "object1": "c", "comparison": "x"}]', "[0]"),
     ('[{"object1": "a", "object2": "b", "comparison": "x", '
      '"score_dict": {"1": 1, "2": 0, "1": 0}}]', "[0].score_dict")],
)  # fmt: skip
@pytest.mark.parametrize("command", ["evaluate", "table", "meta-eval"])
def test_repeated_keys_in_an_answer_file_are_refused(cli, tmp_path, humans, text, at, command):
    answers = tmp_path / "gpt4_scenario_1.json"
    answers.write_text(text, encoding="utf-8")
    if command == "evaluate":
        result = cli("evaluate", "compqa", answers, "--evaluator", "rules")
    elif command == "table":
        result = cli("compqa", "table", "--judged", answers)
    else:
        result = cli("meta-eval", "compqa", "--judged", answers, "--hum1", humans[0],
                     "--hum2", humans[1])  # fmt: skip
    assert result.code == 2
    line = [x for x in result.err.splitlines() if "error" in x][-1]
    assert f"{at}: key" in line and "appears twice" in line


def test_two_conflicting_score_objects_are_not_read():
    other = {**ONES, "3": 0}
    assert parse_scores(json.dumps(ONES) + "\nOn reflection:\n" + json.dumps(other)) is None
    same = parse_scores(json.dumps(ONES) + "\nAgain:\n" + json.dumps(ONES))
    assert same.complete and same.total == 15
    fenced = parse_scores("```json\n" + json.dumps(ONES) + "\n```")  # one object, seen twice
    assert fenced.complete


def test_the_judge_resamples_a_conflicting_reply_then_leaves_it_unscored():
    conflicting = json.dumps(ONES) + " or rather " + json.dumps({**ONES, "9": 2})
    backend = ScriptedBackend([conflicting, conflicting])
    judge = RubricJudge(LLMClient(backend, CallStore()))
    [score] = judge.score(
        [JudgeInput(object1="tea", object2="coffee", aspect="", comparison="Tea wins.")]
    )
    assert len(backend.history) == 2  # asked once more
    assert score.check is None and "unparseable judge reply" in score.unscored_reason
    backend = ScriptedBackend([conflicting, json.dumps(ONES)])
    judge = RubricJudge(LLMClient(backend, CallStore()))
    [score] = judge.score(
        [JudgeInput(object1="tea", object2="coffee", aspect="", comparison="Coffee wins.")]
    )
    assert score.check.total == 15  # the resample was one clear object
