"""What ``maieutic evaluate`` prints: for one submission, a few headline figures (no
figure twice under two names), a legend line for each, the signature once and where
the full results went; for several, a leaderboard ranked by score only, with the
submissions that have no score listed last, unnumbered, and the reason in one line."""

from __future__ import annotations

import io
import json
import re
import shutil

import pytest
from rich.console import Console

from maieutic.core import Column, Task
from maieutic.evaluate.result import EvalResult
from maieutic.registry import Spec
from maieutic.report.tables import print_results
from maieutic.samples import sample_path
from maieutic.signature import Signature

from .conftest import SHARED_DATA

AURA_DOC = SHARED_DATA / "aura" / "sample_input.json"


def _first_table(text: str) -> list[list[str]]:
    """The cells of the first table's body rows (rich box drawing, one line a row)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("┌", "┡")))
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("└"):
            break
        cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
        if line.startswith("│") and any(cells[:2]):  # not a wrapped cell's next line
            rows.append(cells)
    return rows


def _notes(text: str) -> list[str]:
    """The lines after the last table."""
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("└"))
    return lines[last + 1 :]


def _as_number(cell: str) -> float | None:
    """A fractional figure, to three places ("46.7%" and "0.4667" are the same one);
    None for counts and text."""
    if re.fullmatch(r"-?\d+\.\d+%", cell):
        return round(float(cell[:-1]) / 100, 3)
    if re.fullmatch(r"-?\d+\.\d+", cell):
        return round(float(cell), 3)
    return None


def _check_summary(text: str, *, most: int = 11) -> dict[str, str]:
    """The summary's figures, checked: short, no figure twice, a legend line each, the
    signature once, and a last line saying where the full results went."""
    rows = _first_table(text)
    figures = {name: value for name, value in rows}
    assert len(rows) == len(figures) and 4 <= len(rows) <= most, rows
    numbers = [n for n in map(_as_number, figures.values()) if n is not None]
    assert len(numbers) == len(set(numbers)), f"a figure shown twice: {figures}"
    notes = _notes(text)
    for name in figures:
        assert any(line.startswith(f"{name}: ") for line in notes), f"no legend for {name}"
    assert sum(line.startswith("signature") for line in text.splitlines()) == 1
    assert notes[-1].startswith("full results")
    return figures


def _legend(text: str, name: str) -> str:
    return next(line for line in _notes(text) if line.startswith(f"{name}: "))


@pytest.mark.slow
def test_cqs_one_submission_is_short_explained_and_says_where_results_went(cli, tmp_path):
    data = sample_path("cqs/sample_dataset.json")
    submission = sample_path("cqs/sample_submission.json")
    result = cli("evaluate", "cqs", "--data", data, submission)
    assert result.code == 0, result.err
    figures = _check_summary(result.out)
    # 7 of 15 Useful; two questions sit 5e-5 under the 0.6 threshold, so a CPU that
    # rounds their cosines across it may count them: the figure printed is checked
    # against the results file below, the count here within those two
    useful = round(float(figures["score"]) * 15)
    assert figures["score"] == f"{useful / 15:.4f}" and 7 <= useful <= 9
    # the score under its other names (overall, Useful, useful_rate) is not repeated
    assert not {"overall", "Useful", "useful_rate"} & set(figures)
    assert _notes(result.out)[-1] == "full results not kept: add --out FILE"

    out = tmp_path / "results.json"
    kept = cli("evaluate", "cqs", "--data", data, submission, "--out", out)
    assert _notes(kept.out)[-1] == f"full results: {out}"
    [record] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert figures["score"] == f"{record['score']:.4f}"
    # the results file still holds every figure, twins included
    assert {"overall", "useful_rate", "labels", "diversity"} <= set(record["summary"])

    piped = cli("evaluate", "cqs", "--data", data, submission, "--out", "-")
    assert piped.err.splitlines()[-1] == "full results: standard output"


@pytest.mark.slow
def test_focus_one_submission_explains_each_figure_and_the_empty_one(cli, focus_dir):
    result = cli(
        "evaluate", "focus", "--gold", focus_dir / "dev_gold.csv", focus_dir / "dev_pred_gpt4.csv"
    )
    assert result.code == 0, result.err
    figures = _check_summary(result.out)
    assert figures["score"] == "0.3095" and figures["Jaccard all"] == "—"
    assert "--annotators" in _legend(result.out, "Jaccard all")
    assert not any(name.startswith(("open.", "category.")) for name in figures)


@pytest.mark.slow
def test_aura_one_set_names_its_four_metrics(cli, tmp_path):
    if not AURA_DOC.exists():
        pytest.skip(f"shared data not found at {AURA_DOC}")
    questions = json.loads(AURA_DOC.read_text(encoding="utf-8"))["questions1"]
    one_set = tmp_path / "mine.json"
    one_set.write_text(json.dumps(questions), encoding="utf-8")
    result = cli("evaluate", "aura", AURA_DOC, one_set)
    assert result.code == 0, result.err
    _check_summary(result.out)
    for short, word in [
        ("Ans", "answerability"),
        ("Cov", "coverage"),
        ("NRS", "non-redundancy"),
        ("Ent", "entropy"),
    ]:
        assert word in _legend(result.out, short).lower()


@pytest.mark.slow
def test_aura_leaderboard_is_ranked_by_score_with_a_legend(cli):
    if not AURA_DOC.exists():
        pytest.skip(f"shared data not found at {AURA_DOC}")
    result = cli("evaluate", "aura", AURA_DOC)  # the two sets inside the document
    assert result.code == 0, result.err
    rows = _first_table(result.out)
    scores = [float(row[2]) for row in rows]
    assert [row[0] for row in rows] == ["1", "2"] and scores == sorted(scores, reverse=True)
    assert [row[1] for row in rows] == ["questions2", "questions1"]
    notes = _notes(result.out)
    for header in ("score", "Ans", "Cov", "NRS", "Ent", "Qs"):
        assert any(line.startswith(f"{header}: ") for line in notes), header
    # one signature for every row: said once, below, not on each row
    assert sum("task:aura|" in line for line in result.out.splitlines()) == 1


@pytest.mark.slow
def test_compqa_one_file_says_why_the_total_is_empty(cli):
    result = cli("evaluate", "compqa", sample_path("compqa/shots.json"))
    assert result.code == 0, result.err
    figures = _check_summary(result.out)
    assert figures["score"] == "—"
    score = _legend(result.out, "score")
    assert "empty:" in score and "C8–C12 and C14" in score and "rules+llm" in score


@pytest.mark.slow
def test_compqa_leaderboard_ranks_no_unscored_file_and_says_why(cli, tmp_path):
    # input order zeta, alpha: kept as given, as neither has a score
    for name in ("zeta", "alpha"):
        shutil.copy(sample_path("compqa/shots.json"), tmp_path / f"{name}.json")
    result = cli("evaluate", "compqa", tmp_path / "zeta.json", tmp_path / "alpha.json")
    assert result.code == 0, result.err
    rows = _first_table(result.out)
    assert [row[1] for row in rows] == ["zeta", "alpha"]
    assert not any(row[0].isdigit() for row in rows)
    [reason] = [line for line in _notes(result.out) if line.startswith("not ranked")]
    assert "zeta, alpha" in reason and "C8–C12 and C14" in reason


def _result(name: str, score: float | None, data: str = "d") -> EvalResult:
    return EvalResult(
        task="toy",
        submission=name,
        source=f"{name}.json",
        signature=Signature(task="toy", evaluator="e", dataset=data),
        evaluator=Spec(kind="evaluator", task="toy", name="e", args={}),
        score=score,
        summary={"n": 3},
        items=[],
    )


def _toy() -> Task:
    return Task(
        name="toy",
        description="",
        load_reference=str,
        load_submission=str,
        score_description="share right",
        columns=[Column("n", lambda r: r.summary["n"], "{}", description="items scored")],
    )


def _printed(results: list[EvalResult], out: str | None = None) -> str:
    stream = io.StringIO()
    print_results(_toy(), results, Console(file=stream, width=200), out=out)
    return stream.getvalue()


def test_leaderboard_numbers_only_scored_submissions_highest_first():
    text = _printed(
        [_result("u1", None), _result("low", 0.2), _result("u2", None), _result("high", 0.5)]
    )
    rows = _first_table(text)
    assert [(row[0], row[1]) for row in rows] == [
        ("1", "high"),
        ("2", "low"),
        ("—", "u1"),
        ("—", "u2"),
    ]
    [reason] = [line for line in _notes(text) if line.startswith("not ranked")]
    assert reason.startswith("not ranked (no score): u1, u2 — ")
    assert _notes(text)[-1] == "full results not kept: add --out FILE"


def test_leaderboard_shows_the_shared_signature_once_and_each_row_its_own_part():
    text = _printed([_result("a", 0.1, "aaaa"), _result("b", 0.3, "bbbb")], out="r.json")
    rows = _first_table(text)
    assert [row[-1] for row in rows] == ["data:bbbb", "data:aaaa"]
    shared = [line for line in _notes(text) if line.startswith("signature")]
    assert len(shared) == 1 and "task:toy|eval:e" in shared[0] and "data:" not in shared[0]
    assert _notes(text)[-1] == "full results: r.json"


def test_a_figure_that_rounds_to_zero_is_never_shown_negative():
    from maieutic.report.tables import fmt

    assert fmt(-0.0, "{:.3f}") == "0.000"  # an entropy of one cluster computes as -0.0
    assert fmt(-0.00001, "{:.1%}") == "0.0%"
    assert fmt(-0.5, "{:.3f}") == "-0.500"
