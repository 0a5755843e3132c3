"""``maieutic report``: one self-contained HTML page for results files of any task and
for meta-evaluation outputs; bad input stops it with one line and no file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markupsafe import escape

from maieutic.cli.main import run
from maieutic.evaluate.results_file import load_results
from maieutic.report.html import render_report
from maieutic.report.html.intervals import N_RESAMPLES, SEED
from maieutic.samples import sample_path
from tests.conftest import CQS_DEV, SHARED_DATA

HOSTILE = "<script>alert(1)</script> Is the source of these figures reliable?"

FOCUS_GOLD = [
    {
        "id": "g1",
        "argument": "Cars should be banned from the old town because the square was busier "
        "when it was closed, so the ban caused the boom.",
        "category": "implication_consequences",
        "labels": [{"type": "QCE", "span": "so the ban caused the boom"}],
    },
    {
        "id": "g2",
        "argument": "Uniforms make students behave better. I wore one and we behaved.",
        "category": "reasons_evidence",
        "labels": [{"type": "WE", "span": "I wore one and we behaved"}],
    },
]
FOCUS_PRED = [
    {
        "id": "g1",
        "argument": FOCUS_GOLD[0]["argument"],
        "labels": [{"type": "QCE", "span": "the ban caused the boom"}],
    },
    {
        "id": "g2",
        "argument": FOCUS_GOLD[1]["argument"],
        "labels": [{"type": "LE", "span": "Uniforms make students behave better"}],
    },
]


def _jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """Results files made once by the real command line on the bundled samples (chrF
    and FOCUS without span embeddings: no model is loaded)."""
    folder = tmp_path_factory.mktemp("report-inputs")
    submission = json.loads(sample_path("cqs/sample_submission.json").read_text())
    submission["TOWN_BIKES_1"]["cqs"][2]["cq"] = HOSTILE
    hostile = folder / "hostile.json"
    hostile.write_text(json.dumps(submission), encoding="utf-8")
    gold = _jsonl(folder / "gold.jsonl", FOCUS_GOLD)
    predictions = _jsonl(folder / "pred.jsonl", FOCUS_PRED)
    commands = {
        "cqs": [
            "evaluate", "cqs", "--data", sample_path("cqs/sample_dataset.json"),
            sample_path("cqs/sample_submission.json"), hostile, "--evaluator", "chrf",
        ],
        "focus": ["evaluate", "focus", "--gold", gold, predictions, "--no-span-embedding"],
    }  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAIEUTIC_HOME", str(folder / "home"))
        for name, argv in commands.items():
            code = run([str(a) for a in [*argv, "--out", folder / f"{name}.json"]])
            assert code == 0, name
    return {"cqs": folder / "cqs.json", "focus": folder / "focus.json", "dir": folder}


@pytest.fixture(scope="module")
def cqs_page(made) -> str:
    return render_report([made["cqs"]])


def test_the_report_shows_each_system_its_score_signature_and_questions(cli, made, tmp_path):
    out = tmp_path / "report.html"
    result = cli("report", made["cqs"], "--out", out)
    assert result.code == 0, result.err
    page = out.read_text(encoding="utf-8")
    for r in load_results(made["cqs"]):
        assert r.submission in page
        assert f">{r.score:.4f}<" in page  # as the summary table prints it
        *fields, last = str(r.signature).split("|")
        drawn = "".join(f"<span>{escape(f)}|</span><wbr>" for f in fields)
        assert f"{drawn}<span>{escape(last)}</span>" in page  # it wraps between fields only
        for item in r.items:
            for question in item["cqs"] if isinstance(item["cqs"], list) else []:
                assert str(escape(question["cq"])) in page
                assert question["best_reference_id"] in page


def _block(page: str, title: str) -> str:
    """The part of the page from the heading ``title`` to the next heading."""
    start = page.index(f"<h3>{title}</h3>")
    return page[start : page.index("<h3>", start + 1)]


def _row(block: str, name: str) -> list[float]:
    """The sort values of the numeric cells of the table row that starts with ``name``."""
    row = re.search(rf"<td>{re.escape(name)}</td>(.*?)</tr>", block, re.S)
    assert row, name
    return [float(v) for v in re.findall(r'data-sort="([^"]+)"', row.group(1))]


def test_label_counts_and_intervals_match_the_results(cqs_page, made):
    from maieutic.report.html.intervals import system_interval

    labels = _block(cqs_page, "Label distribution")
    intervals = _block(cqs_page, "Scores with bootstrap intervals")
    for r in load_results(made["cqs"]):
        counts = r.summary["labels"]
        assert _row(labels, r.submission)[:4] == [
            counts["Useful"],
            counts["Unhelpful"],
            counts["Invalid"],
            counts["not_able_to_evaluate"],
        ]
        interval = system_interval(r)
        assert interval.low is not None and interval.low <= r.score <= interval.high
        shown = _row(intervals, r.submission)
        assert shown[:3] == pytest.approx([r.score, interval.low, interval.high])
    assert f"seed {SEED}" in cqs_page and f"{N_RESAMPLES} resamples" in cqs_page


def test_the_page_loads_nothing_from_the_network(cqs_page):
    lowered = cqs_page.lower()
    assert "<script src" not in lowered and "<link" not in lowered
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", lowered)
    assert "url(" not in lowered and "@import" not in lowered
    assert "http://" not in lowered and "https://" not in lowered
    assert "<svg" in lowered and "<style>" in lowered and "<script>" in lowered


def test_user_text_is_escaped(cqs_page):
    assert "<script>alert(1)</script>" not in cqs_page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in cqs_page
    assert cqs_page.count("<script>") == 1  # the page's own sorting script only


def test_rendering_twice_gives_identical_bytes(made):
    paths = [made["cqs"], made["focus"]]
    assert render_report(paths) == render_report(paths)


def test_two_tasks_render_in_one_report_with_spans_marked(cli, made, tmp_path):
    out = tmp_path / "both.html"
    result = cli("report", made["cqs"], made["focus"], "--out", out, "--title", "Two <tasks>")
    assert result.code == 0, result.err
    page = out.read_text(encoding="utf-8")
    assert 'id="task-cqs"' in page and 'id="task-focus"' in page
    assert "<title>Two &lt;tasks&gt;</title>" in page
    assert "F1 per type" in page and "Label distribution" in page
    # the gold file is found through the provenance and its hash: spans marked in place
    assert '<mark class="gold">I wore one and we behaved</mark>' in page
    assert '<mark class="both">the ban caused the boom</mark>' in page


def test_a_malformed_file_exits_2_naming_it_and_writes_nothing(cli, made, tmp_path):
    bad = tmp_path / "broken-results.json"
    bad.write_text('{"format": "maieutic.results/2", "results": [', encoding="utf-8")
    out = tmp_path / "report.html"
    result = cli("report", made["cqs"], bad, "--out", out)
    assert result.code == 2
    assert "broken-results.json" in result.err and "not valid JSON" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("just text", "not valid JSON"),
        ("[1, 2]", "expected a JSON object, found a list"),
        ('{"results": []}', 'no "format" field'),
        ('{"format": "maieutic.unknown/9"}', "unknown format 'maieutic.unknown/9'"),
        ('{"format": "maieutic.generation/2"}', "evaluate the submission beside it"),
        ('{"format": "maieutic.generation/3"}', "evaluate the submission beside it"),
        ('{"A_1": {"intervention_id": "A_1", "cqs": []}}', "evaluate it first"),
        ('{"format": "maieutic.results/2", "results": []}', "missing field 'task'"),
        ('{"format": "maieutic.meta-eval/2", "report": {}}', "missing field 'signature'"),
    ],
)
def test_bad_files_are_one_line_errors(cli, tmp_path, content, message):
    bad = tmp_path / "input.json"
    bad.write_text(content, encoding="utf-8")
    out = tmp_path / "r.html"
    result = cli("report", bad, "--out", out)
    assert result.code == 2 and message in result.err and "input.json" in result.err
    assert not out.exists()


def test_a_result_without_a_field_is_named(cli, made, tmp_path):
    data = json.loads(made["cqs"].read_text())
    del data["results"][1]["signature"]
    bad = tmp_path / "nosig.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = cli("report", bad, "--out", tmp_path / "r.html")
    assert result.code == 2
    assert "nosig.json: results[1]: missing field 'signature'" in result.err


def test_an_earlier_report_is_kept_when_a_later_one_fails(cli, made, tmp_path):
    out = tmp_path / "r.html"
    assert cli("report", made["cqs"], "--out", out).code == 0
    before = out.read_bytes()
    assert cli("report", made["cqs"], tmp_path / "missing.json", "--out", out).code == 2
    assert out.read_bytes() == before


def test_out_dash_prints_the_page_and_out_may_not_be_an_input(cli, made):
    result = cli("report", made["cqs"], "--out", "-")
    assert result.code == 0 and result.out.startswith("<!DOCTYPE html>")
    result = cli("report", made["cqs"], "--out", made["cqs"])
    assert result.code == 2 and "is one of the input files" in result.err


def test_a_task_without_a_detailed_view_still_gets_its_summary(made, tmp_path):
    data = json.loads(made["cqs"].read_text())
    for record in data["results"]:
        record["task"] = "newtask"
    path = tmp_path / "new.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    page = render_report([path])
    assert "Task: newtask" in page and "no detailed view" in page
    for record in data["results"]:
        assert record["submission"] in page and f"{record['score']:.4f}" in page


def test_meta_eval_outputs_get_heatmaps_and_sweeps(tmp_path):
    sweep = [
        {"threshold": t, "kappa_nae_kept": 0.3, "kappa_nae_dropped": 0.4, "nae_rate": t / 2}
        for t in (0.5, 0.6)
    ]
    meta = {
        "format": "maieutic.meta-eval/2",
        "signature": {"task": "cqs-meta-eval", "evaluator": "chrf"},
        "evaluator": {"kind": "evaluator", "task": "cqs", "name": "chrf", "args": {}},
        "report": {
            "n": 3,
            "n_unscored": 0,
            "kappa_nae_kept": 0.25,
            "kappa_nae_dropped": 0.5,
            "nae_rate": 0.1,
            "confusion": {"Useful": {"Useful": 2, "Invalid": 1}, "Invalid": {"Useful": 0}},
        },
        "items": [{"reference_id": "r1", "text": "Is <b>this</b> so?", "human": "Useful"}],
        "sweep": {"rows": sweep, "chosen": {"threshold": 0.6}},
    }
    compare = {
        "format": "maieutic.cqs-compare/2",
        "evaluators": ["sts", "chrf"],
        "kappa": [[1.0, 0.4], [0.4, 1.0]],
        "signatures": {"sts": "task:cqs|eval:sts", "chrf": "task:cqs|eval:chrf"},
        "submissions": ["a", "b"],
        "overall": {"sts": [0.2, 0.3], "chrf": [0.25, 0.35]},
        "rankings": [{"a": "sts", "b": "chrf", "pearson": 1.0, "spearman": 1.0}],
        "n_questions": 6,
    }
    paths = []
    for name, payload in (("meta.json", meta), ("compare.json", compare)):
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps(payload), encoding="utf-8")
    page = render_report(paths)
    assert "Confusion matrix" in page and "Threshold sweep" in page
    assert "κ between evaluators" in page
    assert "<span>task:cqs|</span><wbr><span>eval:chrf</span>" in page
    assert "Is &lt;b&gt;this&lt;/b&gt; so?" in page
    assert "<polyline" in page  # the sweep's lines
    assert page.count('class="chart"') >= 3
    assert "interval, bootstrap over" not in page  # a file written before the intervals

    meta["report"]["kappa_useful_nae_kept"] = 0.375
    meta["report"]["intervals"] = {
        "unit": "interventions", "n_units": 16, "confidence": 0.95, "n_resamples": 1000,
        "seed": 0, "kappa_nae_kept": {"low": 0.125, "high": 0.3125},
        "kappa_useful_nae_kept": {"low": None, "high": None, "undefined": "one class"},
    }  # fmt: skip
    paths[0].write_text(json.dumps(meta), encoding="utf-8")
    page = render_report(paths[:1])
    assert "Useful vs rest (NAE kept)" in page and "0.375" in page
    assert (
        "κ NAE kept: 95% interval, bootstrap over 16 interventions</td><td>[0.125, 0.312]" in page
    )
    assert "κ Useful: 95% interval" not in page  # undefined: no bounds shown


@pytest.mark.usefixtures("shared_home")
@pytest.mark.xdist_group("cqs-released")
@pytest.mark.slow
def test_a_report_of_the_shared_cqs_data_with_its_texts(cli, tmp_path):
    if not CQS_DEV.exists():
        pytest.skip(
            f"shared data not found at {SHARED_DATA} (clone with ../shared beside the repo)"
        )
    submission = tmp_path / "template.json"
    assert cli("generate", "cqs", "--data", CQS_DEV, "--out", submission).code == 0
    results = tmp_path / "results.json"
    assert cli("evaluate", "cqs", "--data", CQS_DEV, submission, "--out", results).code == 0
    meta = tmp_path / "meta.json"
    argv = ["meta-eval", "cqs", "--data", CQS_DEV, "--sweep", "--sample", "60", "--out", meta]
    assert cli(*argv).code == 0
    out = tmp_path / "report.html"
    assert cli("report", results, meta, "--out", out).code == 0
    page = out.read_text(encoding="utf-8")
    dataset = json.loads(CQS_DEV.read_text(encoding="utf-8"))
    intervention = next(iter(dataset.values()))
    # the intervention texts come from the dataset named in the provenance
    assert str(escape(intervention["intervention"].split("\n")[0])) in page
    assert "Threshold sweep" in page and "Confusion matrix" in page


def _compqa_result(totals_by_answer: list[dict[int, int]]) -> dict:
    """A CompQA result as an LLM judge would leave it: every criterion scored."""
    items, totals = [], []
    for index, scores in enumerate(totals_by_answer):
        totals.append(sum(scores.values()))
        items.append(
            {
                "index": index,
                "object1": "tea",
                "object2": "<coffee>",
                "aspect": "taste",
                "comparison": "Tea is milder; coffee is stronger.",
                "score_dict": {str(c): v for c, v in scores.items()},
                "sources": {str(c): "judge" for c in scores},
                "score": totals[-1],
                "complete": True,
                "problems": [],
            }
        )
    mean = sum(totals) / len(totals)
    criteria = {
        f"C{c}": sum(s[c] for s in totals_by_answer) / len(totals_by_answer) for c in range(1, 16)
    }
    return {
        "format": "maieutic.result/2",
        "task": "compqa",
        "submission": "judge-run",
        "source": "answers.json",
        "signature": {"task": "compqa", "evaluator": "llm", "model": "m"},
        "evaluator": {"kind": "evaluator", "task": "compqa", "name": "llm", "args": {}},
        "score": mean,
        "summary": {
            "n_answers": len(items),
            "n_complete": len(items),
            "n_incomplete": 0,
            "total": [mean, 1.0],
            "groups": {"structure": [5.0, 1.0], "relevance": [3.0, 1.0], "quality": [4.0, 1.0]},
            "criteria": criteria,
        },
        "items": items,
    }


def test_compqa_gets_every_criterion_and_an_interval_of_the_totals(tmp_path):
    from maieutic.tasks.compqa.data import rubric

    ones = {c: 1 for c in range(1, 16)}
    answers = [ones, {**ones, 9: 2, 10: 2, 11: 2, 12: 2}, dict.fromkeys(range(1, 16), 0)]
    payload = {"format": "maieutic.results/2", "task": "compqa", "provenance": {}}
    payload["results"] = [_compqa_result(answers)]
    path = tmp_path / "compqa.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    page = render_report([path])
    for number_, criterion in rubric().items():
        assert f"<td>C{number_}</td>" in page and str(escape(criterion.description)) in page
    assert "Distribution of totals" in page and "tea vs &lt;coffee&gt;" in page
    row = _row(_block(page, "Scores with bootstrap intervals"), "judge-run")
    assert row[0] == pytest.approx(34 / 3) and row[1] <= 34 / 3 <= row[2] and row[3] == 3


@pytest.mark.slow
def test_aura_and_compqa_rules_results_from_the_command_line(cli, tmp_path):
    aura_input = SHARED_DATA / "aura" / "sample_input.json"
    if not aura_input.exists():
        pytest.skip(f"shared data not found at {aura_input} (clone with ../shared beside the repo)")
    aura = tmp_path / "aura.json"
    assert cli("evaluate", "aura", aura_input, "--out", aura).code == 0
    answers = tmp_path / "tool_scenario_1.json"
    answer = {"object1": "tea", "object2": "coffee", "aspect": "taste"}
    answer["comparison"] = "Tea is milder than coffee. Coffee is stronger. Tea is better for taste."
    answers.write_text(json.dumps([answer]), encoding="utf-8")
    compqa = tmp_path / "compqa.json"
    assert cli("evaluate", "compqa", answers, "--out", compqa).code == 0
    out = tmp_path / "r.html"
    assert cli("report", aura, compqa, "--out", out).code == 0
    page = out.read_text(encoding="utf-8")
    assert "Axes per question set" in page and "non_redundancy" in page
    for r in load_results(aura):
        assert f"{r.score:.4f}" in page
        for item in r.items:
            assert str(escape(item["question"])) in page
    assert "<td>C15</td>" in page and "Tea is milder than coffee." in page


def test_a_score_that_is_not_a_number_is_listed_but_not_drawn(made, tmp_path):
    data = json.loads(made["cqs"].read_text())
    data["results"][0]["score"] = float("nan")
    data["results"][0]["summary"]["labels"]["Useful"] = float("inf")
    path = tmp_path / "nan.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # NaN and Infinity, as Python writes them
    page = render_report([path])
    charts = re.findall(r"<svg.*?</svg>", page, re.S)
    assert charts and not any(re.search(r'="[^"]*(nan|inf)', c) for c in charts)
    assert data["results"][0]["submission"] in page
