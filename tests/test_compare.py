"""``maieutic compare`` and ``maieutic.compare``: systems tested against each other on
the same units, with real results files (the sample dataset scored by the real
command line, the released FOCUS predictions), refusals of what is not comparable, and
the leaderboards' marks against the top system."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import f1_score

import maieutic
from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.records import load_record
from maieutic.registry import Spec
from maieutic.samples import sample_path
from maieutic.signature import Signature

DATASET = sample_path("cqs/sample_dataset.json")
SUBMISSION = sample_path("cqs/sample_submission.json")


def _copy_useful_references(path: Path, per_text: int = 3, drop: str | None = None) -> Path:
    """A submission whose questions are each text's first Useful references (so every
    intervention scores per_text / 3), without the intervention ``drop``."""
    data = json.loads(DATASET.read_text())
    submission = {
        key: {
            "intervention_id": key,
            "cqs": [
                {"id": n, "cq": q["cq"]}
                for n, q in enumerate([q for q in item["cqs"] if q["label"] == "Useful"][:per_text])
            ],
        }
        for key, item in data.items()
        if key != drop
    }
    path.write_text(json.dumps(submission))
    return path


@pytest.fixture
def scored(tmp_path, cli):
    """Results files of the sample submission and of a copy-the-references system,
    scored with chrF (no model)."""
    better = _copy_useful_references(tmp_path / "references.json")
    out = tmp_path / "results.json"
    made = cli(
        "evaluate",
        "cqs",
        "--evaluator",
        "chrf",
        "--data",
        DATASET,
        SUBMISSION,
        better,
        "--out",
        out,
    )
    assert made.code == 0, made.err
    return out


def _exact_p(differences: list[float]) -> float:
    """The exact two-sided randomization p-value of a mean difference, by brute force."""
    observed = abs(sum(differences))
    patterns = list(itertools.product((1, -1), repeat=len(differences)))
    extreme = sum(
        abs(sum(s * d for s, d in zip(p, differences, strict=True))) >= observed - 1e-12
        for p in patterns
    )
    return extreme / len(patterns)


def test_compare_says_whether_two_systems_differ_with_the_exact_p_value(scored, tmp_path, cli):
    results = {r["submission"]: r for r in json.loads(scored.read_text())["results"]}
    base = [i["score"] for i in results["sample_submission"]["items"]]
    other = [i["score"] for i in results["references"]["items"]]
    # the copy scores 1 on every text but the one with two Useful references
    assert other == pytest.approx([1, 1, 1, 1, 2 / 3]) and sum(base) < 3

    out = tmp_path / "compare.json"
    done = cli("compare", scored, "--out", out)
    assert done.code == 0, done.err
    record = json.loads(out.read_text())
    pair = record["comparisons"][0]
    # 5 interventions: all 32 shuffles are made (an independent brute force agrees)
    assert pair["exact"] and pair["n_trials"] == 32
    assert pair["p_value"] == pytest.approx(
        _exact_p([o - b for o, b in zip(other, base, strict=True)])
    )
    assert pair["difference"] == pytest.approx(np.mean(other) - np.mean(base))
    assert not pair["significant"]  # five texts cannot show it at p < 0.05
    assert "references and sample_submission do not differ significantly" in done.out
    assert record["unit"] == "interventions" and record["n_units"] == 5
    assert load_record(out).FORMAT == "maieutic.compare/1"
    assert record["signature"].startswith("task:cqs|eval:chrf|")


def test_the_python_api_gives_the_same_figures_as_the_command(scored, tmp_path, cli):
    out = tmp_path / "compare.json"
    assert cli("compare", scored, "--out", out).code == 0
    comparison = maieutic.compare([scored])
    assert comparison.to_json()["comparisons"] == json.loads(out.read_text())["comparisons"]
    # an Evaluation in memory works as its file does
    run = maieutic.evaluate(
        "cqs", DATASET, submissions=[SUBMISSION, tmp_path / "references.json"], evaluator="chrf"
    )
    assert maieutic.compare([run]).pairs[0].test == comparison.pairs[0].test


def test_baseline_and_every_pair(scored, tmp_path, cli):
    third = _copy_useful_references(tmp_path / "two.json", per_text=2)
    more = tmp_path / "more.json"
    assert (
        cli("evaluate", "cqs", "--evaluator", "chrf", "--data", DATASET, third, "--out", more).code
        == 0
    )
    named = maieutic.compare([scored, more], baseline="references")
    assert [(p.baseline, p.other) for p in named.pairs] == [
        ("references", "sample_submission"),
        ("references", "two"),
    ]
    every = maieutic.compare([scored, more], pairwise=True)
    assert len(every.pairs) == 3
    shown = cli("compare", scored, more, "--pairwise")
    assert shown.code == 0 and "0 of 3 pairs differ significantly" in shown.out


def test_what_is_not_comparable_is_refused_in_one_line(scored, tmp_path, cli):
    sts = tmp_path / "sts.json"
    assert cli("evaluate", "cqs", "--data", DATASET, SUBMISSION, "--out", sts).code == 0
    other_evaluator = cli("compare", scored, sts)
    assert other_evaluator.code == 2
    assert "another signature" in other_evaluator.err and "eval:" in other_evaluator.err
    assert len(other_evaluator.err.strip().splitlines()) == 1

    partial = _copy_useful_references(tmp_path / "partial.json", drop="LIBRARY_FEES_5")
    fewer = tmp_path / "fewer.json"
    made = cli("evaluate", "cqs", "--evaluator", "chrf", "--data", DATASET, partial, "--out", fewer)
    assert made.code == 0
    different = cli("compare", scored, fewer)
    assert different.code == 2
    assert "different interventions" in different.err and "LIBRARY_FEES_5" in different.err

    assert "no system named 'nope'" in cli("compare", scored, "--baseline", "nope").err
    single = tmp_path / "single.json"
    assert (
        cli(
            "evaluate", "cqs", "--evaluator", "chrf", "--data", DATASET, SUBMISSION, "--out", single
        ).code
        == 0
    )
    assert "at least two systems" in cli("compare", single).err
    assert "given twice" in cli("compare", scored, scored).err
    assert "not a maieutic results file" in cli("compare", DATASET).err
    clash = cli("compare", scored, "--out", scored)
    assert clash.code == 2 and json.loads(scored.read_text())["results"]  # input untouched


def test_an_edited_score_is_refused_not_compared(scored, tmp_path, cli):
    data = json.loads(scored.read_text())
    data["results"][0]["score"] = 0.99
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    done = cli("compare", edited)
    assert done.code == 2 and "not its stored score" in done.err


def test_the_leaderboard_marks_systems_not_different_from_the_top(tmp_path, cli):
    better = _copy_useful_references(tmp_path / "references.json")
    done = cli("evaluate", "cqs", "--evaluator", "chrf", "--data", DATASET, SUBMISSION, better)
    assert done.code == 0
    row = next(line for line in done.out.splitlines() if "sample_submission" in line)
    assert "≈ p 0.0625" in row  # the exact p-value of the test above, from the top one
    assert "vs #1: approximate-randomization p-value against references (#1)" in done.out


def test_focus_released_predictions_compared_over_arguments(focus_dir, tmp_path, cli):
    out = tmp_path / "focus.json"
    gold = focus_dir / "dev_gold.csv"
    made = cli(
        "evaluate", "focus", "--gold", gold, focus_dir / "dev_pred_gpt4.csv",
        focus_dir / "dev_pred_gpt35.csv", "--no-span-embedding", "--out", out,
    )  # fmt: skip
    assert made.code == 0, made.err
    comparison = maieutic.compare([out], n_trials=2000)
    test = comparison.pairs[0].test
    assert comparison.unit == "arguments" and test.n_units == 140

    # an independent randomization: arguments' predicted type sets swapped at random,
    # macro-F1 by scikit-learn
    results = json.loads(out.read_text())["results"]
    from maieutic.tasks.focus.report_intervals import _truth_and_guess

    loaded = [EvalResult.from_json(r) for r in results]
    truth, guess_a = _truth_and_guess(loaded[0], "category")
    _, guess_b = _truth_and_guess(loaded[1], "category")
    assert test.baseline == pytest.approx(
        f1_score(truth, guess_a, average="macro", zero_division=0)
    )
    rng = np.random.default_rng(0)
    observed = abs(test.difference)
    extreme = 0
    for _ in range(2000):
        swap = rng.random(140) < 0.5
        a = np.where(swap[:, None], guess_b, guess_a)
        b = np.where(swap[:, None], guess_a, guess_b)
        shuffled = f1_score(truth, b, average="macro", zero_division=0) - f1_score(
            truth, a, average="macro", zero_division=0
        )
        extreme += abs(shuffled) >= observed - 1e-9
    assert test.p_value == pytest.approx((extreme + 1) / 2001, abs=0.015)


def _aura(name: str, document: str, score: float, **extra: str) -> EvalResult:
    signature = Signature(
        task="aura", evaluator="aura", dataset=document, n_references=4, extra=extra
    )
    items = [{"question": "q", "score": 0.5, "answerable": True}]
    return EvalResult(
        task="aura",
        submission=name,
        source=f"{name}.json",
        signature=signature,
        evaluator=Spec(kind="evaluator", task="aura", name="aura", args={}),
        score=score,
        summary={},
        items=items,
    )


def test_set_level_scores_are_compared_over_documents():
    # AURA's score belongs to a whole question set: one unit per document, and the
    # results of one set name on several documents make one system
    results = [
        _aura("a", f"sha256:{d}", s) for d, s in zip("0123", (0.5, 0.6, 0.7, 0.4), strict=True)
    ]
    results += [
        _aura("b", f"sha256:{d}", s) for d, s in zip("3210", (0.5, 0.8, 0.7, 0.6), strict=True)
    ]
    comparison = maieutic.compare(results)
    test = comparison.pairs[0].test
    assert comparison.unit == "documents" and test.n_units == 4
    # aligned by document: b − a = 0.1, 0.1, 0.1, 0.1 (b's results came in another order)
    assert test.difference == pytest.approx(0.1)
    assert test.p_value == pytest.approx(2 / 16)
    with pytest.raises(DataError, match="scored twice on the same documents"):
        maieutic.compare([*results, _aura("a", "sha256:0", 0.5)])


def test_a_judge_rebuilt_elsewhere_compares_and_another_recipe_is_refused():
    # the learned scorer's recipe must match; the bytes of its build (a rebuild on
    # another CPU rounds the weights differently) need not
    def results(name: str, **judge: str) -> list[EvalResult]:
        scores = {"sha256:0": 0.5, "sha256:1": 0.6}
        return [_aura(name, d, s, **judge) for d, s in scores.items()]

    here = results("a", scorer="r1", scorer_build="b1")
    elsewhere = results("b", scorer="r1", scorer_build="b2")
    assert maieutic.compare(here + elsewhere).pairs[0].test.n_units == 2
    with pytest.raises(DataError, match=r"another signature.*scorer:r2"):
        maieutic.compare(here + results("c", scorer="r2", scorer_build="b1"))


def test_answers_to_one_question_move_together():
    # CompQA: two answers to one question are one unit; the score stays the mean over
    # completely scored answers
    def result(name: str, totals: list) -> EvalResult:
        items = [
            {"object1": "x", "object2": "y", "aspect": str(n // 2), "score": t}
            for n, t in enumerate(totals)
        ]
        scored = [t for t in totals if t is not None]
        signature = Signature(task="compqa", evaluator="rules", dataset="sha256:1")
        spec = Spec(kind="evaluator", task="compqa", name="rules", args={})
        return EvalResult(
            task="compqa",
            submission=name,
            source=name,
            signature=signature,
            evaluator=spec,
            score=sum(scored) / len(scored),
            summary={},
            items=items,
        )

    comparison = maieutic.compare([result("a", [10, 12, 9, None]), result("b", [14, 15, 11, 13])])
    assert comparison.unit == "questions" and comparison.n_units == 2
    assert comparison.pairs[0].test.difference == pytest.approx(53 / 4 - 31 / 3)


def test_the_report_draws_comparisons_and_marks_its_leaderboard(scored, tmp_path, cli):
    out = tmp_path / "compare.json"
    assert cli("compare", scored, "--out", out).code == 0
    page_path = tmp_path / "report.html"
    assert cli("report", scored, out, "--out", page_path).code == 0
    page = page_path.read_text()
    assert "Paired comparisons (cqs)" in page
    assert "references and sample_submission do not differ significantly" in page
    summary = page[page.index("<h3>Summary</h3>") :]
    assert "vs #1" in summary and "≈ p 0.0625" in summary


def test_the_web_leaderboard_marks_systems_against_the_top(tmp_path):
    from fastapi.testclient import TestClient

    from maieutic.web import Settings, create_app
    from tests.test_web import BASE, finish

    better = _copy_useful_references(tmp_path / "references.json")
    files = [
        ("dataset", ("sample_dataset.json", DATASET.read_bytes())),
        ("submissions", ("sample_submission.json", SUBMISSION.read_bytes())),
        ("submissions", ("references.json", better.read_bytes())),
    ]
    with TestClient(create_app(Settings()), base_url=BASE) as client:
        posted = client.post(
            "/leaderboard", files=files, data={"evaluator": "chrf"}, follow_redirects=False
        )
        page = finish(client, posted)
    assert page.status_code == 200
    assert ">vs #1</th>" in page.text and "≈ p 0.0625" in page.text


def test_a_leaderboard_on_one_document_says_it_cannot_test_pairs():
    from maieutic.core import get_task
    from maieutic.evaluate.compare import top_marks

    results = [_aura("a", "sha256:0", 0.5), _aura("b", "sha256:0", 0.6)]
    found = top_marks(results, get_task("aura").paired_units)
    assert found == "one of the documents only: a paired test needs several (maieutic compare)"


def test_a_unit_listed_twice_is_refused_not_misaligned():
    # pairing aligns units by id: an id given twice would pair the wrong rows
    from maieutic.evaluate.compare import build_systems
    from maieutic.evaluate.units import Units
    from maieutic.stats.paired import mean_of

    def units_of(result):
        return Units(
            ids=("a", "b", "a"), statistic=mean_of(np.array([1.0, 0.0, 1.0])), unit="arguments"
        )

    result = _aura("x", "sha256:0", 2 / 3)
    with pytest.raises(DataError, match="'a' is in its arguments twice"):
        build_systems([("r.json", result)], units_of)


def test_a_comparison_out_of_reach_is_refused_saying_its_cost():
    from maieutic.errors import DataError
    from maieutic.evaluate.compare import MAX_CELLS, Settings, check_cost

    largest = Settings(n_resamples=100_000, n_trials=1_000_000)
    with pytest.raises(DataError) as refused:
        check_cost(100_000, n_pairs=1, settings=largest)
    assert "110,000,000,000 unit cells, about 92 minutes here" in refused.value.message
    assert "lower --trials or --resamples" in refused.value.message
    check_cost(186, n_pairs=3, settings=Settings())  # the benchmark's size: taken on
    per_pair = 1000 * (2000 + 10_000)
    check_cost(1000, n_pairs=MAX_CELLS // per_pair, settings=Settings())  # at the limit
    with pytest.raises(DataError):
        check_cost(1000, n_pairs=MAX_CELLS // per_pair + 1, settings=Settings())
