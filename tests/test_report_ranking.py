"""The report's summary table ranks as the terminal leaderboard does: only results with
a score get a number (highest first); the others follow in input order with a dash in
the # column, and a line under the table says why they have no score."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from maieutic.cli.main import run
from maieutic.report.html import render_report
from maieutic.samples import sample_path


def _made(folder: Path, argv: list, name: str) -> Path:
    """A results file written by the real command line (no model is loaded)."""
    out = folder / f"{name}.json"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAIEUTIC_HOME", str(folder / "home"))
        assert run([str(a) for a in [*argv, "--out", out]]) == 0, name
    return out


def _summary(page: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The Summary block's rows as (# cell, submission) and the reason lines under it."""
    start = page.index("<h3>Summary</h3>")
    block = page[start : page.index("<h3>", start + 1)]
    body = block[block.index("<tbody>") : block.index("</tbody>")]
    rows = re.findall(r"<tr><td[^>]*>([^<]*)</td><td><a [^>]*>([^<]*)</a>", body)
    reasons = re.findall(r'<p class="note unranked">([^<]*)</p>', block)
    return rows, reasons


def test_compqa_results_without_totals_get_no_rank_and_say_why(tmp_path):
    # input order zeta, alpha: kept as given, as neither has a score
    files = []
    for name in ("zeta", "alpha"):
        answers = tmp_path / f"{name}.json"
        shutil.copy(sample_path("compqa/shots.json"), answers)
        files.append(_made(tmp_path, ["evaluate", "compqa", answers], f"{name}-results"))
    rows, reasons = _summary(render_report(files))
    assert rows == [("—", "zeta"), ("—", "alpha")]
    [reason] = reasons
    assert reason.startswith("not ranked (no score): zeta, alpha — ")
    assert "C8–C12 and C14" in reason


def _cqs_results(folder: Path) -> Path:
    """Two CQs submissions scored with chrF (a copy of the sample with its questions
    cut to one, so the two scores differ)."""
    submission = json.loads(sample_path("cqs/sample_submission.json").read_text())
    for entry in submission.values():
        if isinstance(entry["cqs"], list):  # "Missing CQs" is kept as it is
            entry["cqs"] = entry["cqs"][:1]
    short = folder / "short.json"
    short.write_text(json.dumps(submission), encoding="utf-8")
    argv = [
        "evaluate", "cqs", "--data", sample_path("cqs/sample_dataset.json"),
        sample_path("cqs/sample_submission.json"), short, "--evaluator", "chrf",
    ]  # fmt: skip
    return _made(folder, argv, "cqs")


def test_scored_cqs_results_are_ranked_by_score(tmp_path):
    path = _cqs_results(tmp_path)
    results = json.loads(path.read_text(encoding="utf-8"))["results"]
    scores = {r["submission"]: r["score"] for r in results}
    assert len(set(scores.values())) == 2, scores  # the test needs distinct scores
    rows, reasons = _summary(render_report([path]))
    by_score = sorted(scores, key=lambda name: -scores[name])
    assert rows == [(str(n), name) for n, name in enumerate(by_score, start=1)]
    assert reasons == []


def test_a_result_without_a_score_follows_the_ranked_ones_with_a_dash(tmp_path):
    path = _cqs_results(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    scores = {r["submission"]: r["score"] for r in data["results"]}
    best = max(scores, key=lambda name: scores[name])
    other = min(scores, key=lambda name: scores[name])
    # the better one loses its score: it goes last, unnumbered, and is named below
    for r in data["results"]:
        if r["submission"] == best:
            r["score"] = None
    path.write_text(json.dumps(data), encoding="utf-8")
    rows, reasons = _summary(render_report([path]))
    assert rows == [("1", other), ("—", best)]
    [reason] = reasons
    assert reason.startswith(f"not ranked (no score): {best} — ")
