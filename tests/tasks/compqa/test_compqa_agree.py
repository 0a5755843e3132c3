"""``maieutic meta-eval compqa``: a judge's rubric scores against people's, checked against
the krippendorff package and scipy on constructed data, and the figures on the
released files."""

from __future__ import annotations

import csv
import json

import krippendorff
import numpy as np
import pytest
from scipy.stats import spearmanr

from tests.conftest import SHARED_DATA

COMPQA = SHARED_DATA / "compqa"


def _table(path, rows):
    header = [
        "object1",
        "object2",
        "aspect",
        "comparison",
        "score",
        *[f"C{i}" for i in range(1, 16)],
        "filename",
    ]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t")
        writer.writerow(header)
        for name, obj, text, scores in rows:
            writer.writerow([obj, "tea", "", text, "0", *scores, name])


def test_agreement_matches_independent_implementations(cli, tmp_path):
    rng = np.random.default_rng(0)
    maxima = [1] * 8 + [2, 2, 2, 2] + [1, 1, 1]
    people, judge, rows, answers = [], [], [], []
    for n in range(6):
        p = [float(rng.integers(0, m + 1)) for m in maxima]
        j = [float(min(m, max(0, v + rng.integers(-1, 2)))) for v, m in zip(p, maxima, strict=True)]
        people.append(p)
        judge.append(j)
        rows.append(("scored_gpt4_scenario_1_comparison", f"coffee{n}", f"answer {n}", p))
        answers.append(
            {
                "object1": f"coffee{n}",
                "object2": "tea",
                "aspect": "",
                "comparison": f"answer {n}",
                "score_dict": {str(i + 1): v for i, v in enumerate(j)},
                "score": 0,
            }
        )
    rows.append(("scored_gpt4_scenario_1_comparison", "partial", "x", [""] + ["1"] * 14))
    _table(tmp_path / "humans.tsv", rows)
    (tmp_path / "gpt4_scenario_1.json").write_text(json.dumps(answers))
    out = tmp_path / "r.json"
    result = cli(
        "meta-eval",
        "compqa",
        "--judged",
        tmp_path / "gpt4_scenario_1.json",
        "--humans",
        tmp_path / "humans.tsv",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    report = json.loads(out.read_text())
    by = {r["column"]: r for r in report["rows"]}
    flat_p = [v for p in people for v in p]
    flat_j = [v for j in judge for v in j]
    assert by["all criteria"]["alpha_interval"] == pytest.approx(
        krippendorff.alpha(reliability_data=[flat_p, flat_j], level_of_measurement="interval")
    )
    assert by["all criteria"]["spearman"] == pytest.approx(spearmanr(flat_p, flat_j)[0])
    totals = [[sum(p) for p in people], [sum(j) for j in judge]]
    assert by["total"]["alpha_interval"] == pytest.approx(
        krippendorff.alpha(reliability_data=totals, level_of_measurement="interval")
    )
    assert report["counts"]["human rows left out (unscored or partial)"] == 1


def test_usage_errors(cli, tmp_path):
    assert cli("meta-eval", "compqa", "--judged", tmp_path).code == 2  # no human side


def test_released_figures(cli, tmp_path):
    if not (COMPQA / "judged").exists():
        pytest.skip(f"shared data not found at {COMPQA}")
    out = tmp_path / "r.json"
    result = cli(
        "meta-eval",
        "compqa",
        "--judged",
        COMPQA / "judged" / "gpt-4",
        "--hum1",
        COMPQA / "dataset_hum1_evaluation.tsv",
        "--hum2",
        COMPQA / "dataset_hum2_evaluation.tsv",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    by = {r["column"]: r for r in json.loads(out.read_text())["rows"]}
    # the README's figures (paper, GPT-4o: 0.71 / 0.58 alpha, 0.69 / 0.55 Spearman)
    assert round(by["all criteria"]["alpha_interval"], 3) == 0.674
    assert round(by["all criteria"]["spearman"], 3) == 0.691
    assert round(by["total"]["alpha_interval"], 3) == 0.506
    assert round(by["total"]["spearman"], 3) == 0.495


def test_per_criterion_uses_partial_judge_scores():
    from maieutic.tasks.compqa.data import Answer, check_scores
    from maieutic.tasks.compqa.judge_agreement import HumanScore, MatchReport, judge_per_criterion

    rng = np.random.default_rng(1)
    report = MatchReport()
    people, judge = [], []
    for i in range(30):
        human = tuple(float(rng.integers(0, 2)) for _ in range(15))
        given = {"1": float(rng.integers(0, 2))}
        if i % 3:  # a third of the judge's replies lack criterion 2
            given["2"] = float(rng.integers(0, 2))
        answer = Answer(
            object1="a",
            object2="b",
            aspect="",
            comparison="text",
            generator="g",
            scenario="1",
            check=check_scores(given),
        )
        report.matched.append(
            (
                HumanScore(
                    filename="g_scenario_1",
                    object1="a",
                    object2="b",
                    aspect="",
                    comparison="text",
                    scores=human,
                ),
                answer,
            )
        )
        people.append(human)
        judge.append(given)
    rows = {r["criterion"]: r for r in judge_per_criterion(report)}
    assert set(rows) == {"C1", "C2"} and rows["C1"]["n"] == 30 and rows["C2"]["n"] == 20
    x = [p[1] for p, j in zip(people, judge, strict=True) if "2" in j]
    y = [j["2"] for j in judge if "2" in j]
    expected = krippendorff.alpha(np.array([x, y]), level_of_measurement="interval")
    assert rows["C2"]["alpha_interval"] == pytest.approx(expected)
    assert rows["C2"]["spearman"] == pytest.approx(spearmanr(x, y).statistic)
