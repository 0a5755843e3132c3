"""Leave-one-out meta-evaluation, the threshold sweep, extra references, CompQA humans."""

from __future__ import annotations

import json

import krippendorff
import pytest
from sklearn.metrics import cohen_kappa_score

from maieutic.embed.encoder import Encoder
from maieutic.errors import DataError
from maieutic.evaluate.sweep import choose_threshold
from maieutic.tasks.cqs.data import (
    CQDataset,
    Intervention,
    ReferenceQuestion,
    load_cq_dataset,
    load_submission,
)
from maieutic.tasks.cqs.evaluate import CQEvaluator
from maieutic.tasks.cqs.matchers import EmbeddingMatcher, Match
from maieutic.tasks.cqs.meta_eval import LooItem, leave_one_out, leave_one_out_tasks, report
from maieutic.tasks.cqs.meta_eval import sweep as sweep_thresholds
from maieutic.tasks.cqs.references import load_labelled_submission, with_extra_references
from maieutic.tasks.cqs.scoring import NAE
from tests.conftest import FIXTURES, SHARED_DATA, one_reference, write_json


class FirstReference:
    """Matches every question to the first remaining reference with a fixed similarity."""

    name = "first"

    def __init__(self, similarity: float) -> None:
        self.similarity = similarity
        self.seen: list[tuple[list[str], str]] = []

    def prepare(self, items):
        pass

    def match(self, intervention, questions):
        self.seen.append(([q.cq for q in intervention.cqs], questions[0]))
        return [Match(reference_index=0, similarity=self.similarity)]

    def signature_fields(self):
        return {}


def _dataset():
    refs = (
        ReferenceQuestion(id="0", cq="same text?", label="Useful"),
        ReferenceQuestion(
            id="1", cq="same text?", label="Invalid"
        ),  # identical text: left out together
        ReferenceQuestion(id="2", cq="other?", label="Unhelpful"),
    )
    return CQDataset(
        interventions={"I": Intervention(intervention_id="I", intervention="t", cqs=refs)}
    )


def test_leave_one_out_drops_the_question_and_identical_texts():
    matcher = FirstReference(0.9)
    items = leave_one_out(_dataset(), CQEvaluator(matcher, 0.5))
    assert [refs for refs, _ in matcher.seen] == [
        ["other?"],
        ["other?"],
        ["same text?", "same text?"],
    ]
    # the first two inherit "Unhelpful" from ref 2; ref 2 inherits ref 0's "Useful"
    assert [(i.human, i.predicted) for i in items] == [
        ("Useful", "Unhelpful"),
        ("Invalid", "Unhelpful"),
        ("Unhelpful", "Useful"),
    ]


def test_sample_is_seeded():
    dataset = CQDataset(
        interventions={
            f"I{k}": Intervention(
                intervention_id=f"I{k}",
                intervention="t",
                cqs=tuple(
                    ReferenceQuestion(id=str(i), cq=f"q{k}-{i}?", label="Useful") for i in range(5)
                ),
            )
            for k in range(5)
        }
    )
    a = leave_one_out_tasks(dataset, sample=7, seed=3)
    b = leave_one_out_tasks(dataset, sample=7, seed=3)
    c = leave_one_out_tasks(dataset, sample=7, seed=4)
    assert len(a) == 7 and [r.id for _, r in a] == [r.id for _, r in b]
    assert [(p.intervention_id, r.id) for p, r in a] != [(p.intervention_id, r.id) for p, r in c]


def test_agreement_report_hand_worked():
    human = ["Useful", "Useful", "Invalid", "Unhelpful"]
    predicted = ["Useful", NAE, "Invalid", "Useful"]
    items = [
        LooItem(
            intervention_id="I",
            reference_id=str(k),
            text="q",
            human=h,
            predicted=p,
            similarity=None,
            matched_label=None,
        )
        for k, (h, p) in enumerate(zip(human, predicted, strict=True))
    ]
    result = report(items)
    assert result["nae_rate"] == 0.25 and result["n_labelled"] == 3
    # NAE dropped: pairs (U,U) (I,I) (Un,U): po = 2/3
    # human marginals U 1/3, I 1/3, Un 1/3; predicted U 2/3, I 1/3 -> pe = 2/9 + 1/9 = 1/3
    assert result["kappa_nae_dropped"] == pytest.approx((2 / 3 - 1 / 3) / (1 - 1 / 3))
    assert result["confusion"]["Useful"][NAE] == 1


def test_the_kappas_intervals_resample_interventions_not_questions():
    """Four interventions of five questions: agreement perfect in two, none in two. The
    intervals are the plain loop's over interventions (a bootstrap over questions
    would give others), and the Useful-vs-rest one reads NAE as not Useful."""
    from tests.test_grouped_kappa import loop_oracle

    rows = []
    for n, agree in enumerate((True, False, True, False)):
        for k, h in enumerate(["Useful", "Unhelpful", "Invalid", "Useful", "Unhelpful"]):
            p = h if agree else ("Useful" if h != "Useful" else NAE)
            rows.append((f"I{n}", h, p, k))
    items = [
        LooItem(intervention_id=g, reference_id=str(k), text="q", human=h, predicted=p,
                similarity=None, matched_label=None)
        for g, h, p, k in rows
    ]  # fmt: skip
    found = report(items)["intervals"]
    assert (found["unit"], found["n_units"], found["n_resamples"]) == ("interventions", 4, 1000)
    groups, human, predicted = ([r[i] for r in rows] for i in range(3))
    _, low, high = loop_oracle(human, predicted, groups, n_resamples=1000, seed=0)
    assert (found["kappa_nae_kept"]["low"], found["kappa_nae_kept"]["high"]) == pytest.approx(
        (low, high)
    )
    useful = [h == "Useful" for h in human], [p == "Useful" for p in predicted]
    _, low, high = loop_oracle(*useful, groups, n_resamples=1000, seed=0)
    assert found["kappa_useful_nae_kept"] == pytest.approx(
        {"low": low, "high": high, "n_undefined": 0}
    )


def test_sweep_and_chosen_threshold_hand_worked():
    items = [
        LooItem(
            intervention_id="I",
            reference_id=str(k),
            text="q",
            human=h,
            predicted="",
            similarity=s,
            matched_label=m,
        )
        for k, (h, s, m) in enumerate(
            [
                ("Useful", 0.95, "Useful"),
                ("Invalid", 0.85, "Invalid"),
                ("Useful", 0.75, "Invalid"),
                ("Unhelpful", 0.55, "Useful"),
                ("Useful", 0.45, "Useful"),
            ]
        )
    ]
    rows = sweep_thresholds(items, [0.5, 0.7, 0.8, 0.9])
    by_t = {r["threshold"]: r for r in rows}
    assert by_t[0.9]["nae_rate"] == pytest.approx(0.8)
    assert by_t[0.8]["kappa_nae_dropped"] == pytest.approx(1.0)  # two items, both right
    assert by_t[0.5]["n_labelled"] == 4
    chosen = choose_threshold(rows)
    # balance = kappa_dropped * (1 - NAE rate):
    #   0.9: one labelled item, kappa undefined; 0.8: 1.0 * 0.4 = 0.4
    #   0.7: kappa (2/3 - 4/9) / (5/9) = 0.4, * 0.6 = 0.24; 0.5: 0.2 * 0.8 = 0.16
    assert chosen["threshold"] == 0.8 and chosen["balance"] == pytest.approx(0.4)


def _labelled_copy(tmp_path, name, questions):
    labelled = {
        "I": {
            "intervention_id": "I",
            "cqs": [{"id": i, "cq": q, "label": label} for i, (q, label) in enumerate(questions)],
        }
    }
    return write_json(tmp_path / name, labelled)


def test_extra_references_leave_out_the_submissions_own_questions_by_content(tmp_path):
    dataset = _dataset()
    # sysA's questions, labelled, saved under a different name and folder
    (tmp_path / "elsewhere").mkdir()
    copy = _labelled_copy(
        tmp_path / "elsewhere",
        "labelled-copy.json",
        [("extra useful?", "Useful"), ("unsure?", "not_able_to_evaluate")],
    )
    other = _labelled_copy(tmp_path, "sysB.json", [("another one?", "Invalid")])
    submission = write_json(
        tmp_path / "sysA.json",
        {"I": {"intervention_id": "I", "cqs": [{"id": 0, "cq": "extra  useful?"}]}},
    )
    extras = [load_labelled_submission(copy), load_labelled_submission(other)]
    merged, left_out = with_extra_references(dataset, extras, leave_out=load_submission(submission))
    texts = [q.cq for q in merged.interventions["I"].cqs]
    # its own question (same intervention, same text up to spacing) is left out; NAE is
    # never a reference; sysB's question stays
    assert texts == ["same text?", "same text?", "other?", "another one?"]
    assert left_out == 1
    merged_all, none_left = with_extra_references(dataset, extras)
    assert len(merged_all.interventions["I"].cqs) == 5 and none_left == 0
    assert merged.fingerprint() != dataset.fingerprint()


def test_a_labelled_copy_at_another_path_cannot_vouch_for_its_submission(cli, tmp_path):
    refs = {
        "I": {
            "intervention_id": "I",
            "intervention": "We must build the bridge now because traffic doubled.",
            "cqs": [{"id": "r0", "cq": "Did traffic really double?", "label": "Useful"}],
        }
    }
    data = write_json(tmp_path / "refs.json", refs)
    questions = ["What colour is the bridge?", "Who likes bridges?", "Is water wet?"]
    sub = write_json(
        tmp_path / "sysA.json",
        {
            "I": {
                "intervention_id": "I",
                "cqs": [{"id": i, "cq": q} for i, q in enumerate(questions)],
            }
        },
    )
    # someone labelled sysA's questions Useful and saved them under another name
    copy = _labelled_copy(tmp_path, "copy-of-sysA.json", [(q, "Useful") for q in questions])
    out = tmp_path / "res.json"
    result = cli(
        "evaluate",
        "cqs",
        "--evaluator",
        "chrf",
        "--data",
        data,
        sub,
        "--extra-references",
        copy,
        "--out",
        out,
    )
    assert result.code == 0, result.err
    run = json.loads(out.read_text())["results"][0]
    assert run["score"] == 0.0  # it was 1.0 when the copy was left out only by its path
    assert run["signature"]["left_out"] == 3


def test_meta_eval_with_nothing_to_compare_is_a_data_error(cli, tmp_path):
    same = [
        {"id": "a", "cq": "Same?", "label": "Useful"},
        {"id": "b", "cq": "Same?", "label": "Invalid"},
    ]
    data = one_reference(tmp_path, same)
    with pytest.raises(DataError, match="nothing to meta-evaluate"):
        leave_one_out(load_cq_dataset(data), CQEvaluator(FirstReference(0.9), 0.5))
    result = cli("meta-eval", "cqs", "--data", data, "--evaluator", "chrf")
    assert result.code == 2 and "nothing to meta-evaluate" in result.err
    assert "Traceback" not in result.err


@pytest.mark.slow
def test_sts_leave_one_out_on_dev_encodes_each_text_once(cqs_dev):
    dataset = load_cq_dataset(cqs_dev)
    matcher = EmbeddingMatcher(Encoder())
    items = leave_one_out(dataset, CQEvaluator(matcher, 0.6))
    distinct = {q.cq for i in dataset.interventions.values() for q in i.cqs}
    assert matcher.encoder.n_encoded == len(distinct)
    assert len(items) == 3022
    result = report(items)
    # the kappa is the one scikit-learn computes from the same labels
    human, predicted = [i.human for i in items], [i.predicted for i in items]
    assert result["kappa_nae_kept"] == pytest.approx(cohen_kappa_score(human, predicted))
    assert 0 < result["nae_rate"] < 1


@pytest.mark.slow
def test_meta_eval_cli_with_sweep_and_plot(cli, cqs_dev, tmp_path):
    out, plot = tmp_path / "meta.json", tmp_path / "sweep.svg"
    result = cli(
        "meta-eval",
        "cqs",
        "--data",
        cqs_dev,
        "--evaluator",
        "chrf",
        "--sweep",
        "--plot",
        plot,
        "--sample",
        "300",
        "--seed",
        "1",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    first = result.out.splitlines()[0]
    assert first.startswith("chrf: n=300 kappa(NAE kept)=") and "NAE=" in first
    assert "bootstrap over the" in result.out  # the intervals' line
    assert "chosen threshold:" in result.out
    assert "<svg" in plot.read_text() and "chosen " in plot.read_text()
    payload = json.loads(out.read_text())
    assert len(payload["sweep"]["rows"]) == 11
    assert payload["signature"]["seed"] == 1 and payload["signature"]["sample"] == 300
    intervals = payload["report"]["intervals"]
    assert intervals["unit"] == "interventions" and intervals["kappa_nae_kept"]["low"] is not None


@pytest.mark.usefixtures("shared_home")
@pytest.mark.xdist_group("cqs-released")
@pytest.mark.slow
def test_compare_two_evaluators_over_submissions(cli, cqs_dev, tmp_path):
    # realistic submissions: paraphrases, generic and unrelated questions, so that the
    # similarities spread across both thresholds and the per-evaluator ones matter
    fixtures = FIXTURES / "cqs" / "submissions"
    subs = [fixtures / f"{name}.json" for name in ("realistic", "mixed", "padded")]
    out, plot = tmp_path / "cmp.json", tmp_path / "kappa.svg"
    result = cli(
        "meta-eval",
        "cqs-compare",
        "--data",
        cqs_dev,
        "--evaluator",
        "sts",
        "--evaluator",
        "chrf",
        "--threshold",
        "sts=0.9",
        "--threshold",
        "chrf=70",
        *subs,
        "--plot",
        plot,
        "--out",
        out,
    )
    assert result.code == 0, result.err
    payload = json.loads(out.read_text())
    # oracle: each evaluator's labels from `evaluate cqs`, kappa by scikit-learn
    labels = {}
    assert "thr:0.9|" in payload["signatures"]["sts"]
    assert "thr:70|" in payload["signatures"]["chrf"]
    for name, threshold in (("sts", "0.9"), ("chrf", "70")):
        res = tmp_path / f"{name}.json"
        args = ["--evaluator", name, "--threshold", threshold, *subs, "--out", res]
        assert cli("evaluate", "cqs", "--data", cqs_dev, *args).code == 0
        labels[name] = [
            q["label"]
            for run in json.loads(res.read_text())["results"]
            for item in run["items"]
            if item["cqs"] != "Missing CQs"
            for q in item["cqs"]
        ]
    expected = cohen_kappa_score(labels["sts"], labels["chrf"])
    assert payload["kappa"][0][1] == pytest.approx(expected)
    assert payload["kappa"][1][0] == pytest.approx(expected)
    assert payload["n_questions"] == len(labels["sts"])
    assert "score correlation sts vs chrf over 3 submissions" in result.out
    # the thresholds changed labels: at the defaults the kappa would differ
    default = tmp_path / "default.json"
    assert (
        cli(
            "meta-eval",
            "cqs-compare",
            "--data",
            cqs_dev,
            "--evaluator",
            "sts",
            "--evaluator",
            "chrf",
            *subs,
            "--out",
            default,
        ).code
        == 0
    )
    assert json.loads(default.read_text())["kappa"][0][1] != pytest.approx(expected)
    assert "<svg" in plot.read_text() and "between evaluators" in plot.read_text()


def test_compqa_human_agreement_on_real_files(cli, tmp_path):
    first = SHARED_DATA / "compqa" / "dataset_hum1_evaluation.tsv"
    second = SHARED_DATA / "compqa" / "dataset_hum2_evaluation.tsv"
    if not first.exists():
        pytest.skip(f"shared data not found at {first}")
    from maieutic.tasks.compqa.human_agreement import load_pairs

    pairs = load_pairs(first, second=second)
    assert 90 <= len(pairs) <= 110  # "about a hundred" rows scored by both
    out = tmp_path / "agree.json"
    result = cli("meta-eval", "compqa-humans", first, second, "--out", out)
    assert result.code == 0, result.err
    payload = json.loads(out.read_text())
    rows = {r["column"]: r for r in payload["rows"]}
    assert payload["signature"]["task"] == "compqa" and "signature:" in result.out
    # the total is the sum of the 15 criteria, never the files' own "score" column
    criteria = [f"score_dict.{i}" for i in range(1, 16)]
    totals = [
        [sum(p.first[c] for c in criteria) for p in pairs],
        [sum(p.second[c] for c in criteria) for p in pairs],
    ]
    assert rows["total"]["alpha_interval"] == pytest.approx(
        krippendorff.alpha(reliability_data=totals, level_of_measurement="interval")
    )
    assert rows["total"]["alpha_ordinal"] == pytest.approx(
        krippendorff.alpha(reliability_data=totals, level_of_measurement="ordinal")
    )
    assert set(rows) >= {"C1", "C15", "all criteria", "total"}


def test_compqa_mismatched_files_are_a_data_error(cli, tmp_path):
    header = "\t".join(["score", *[f"score_dict.{i}" for i in range(1, 16)], "filename"])
    row = "\t".join(["10", *["1"] * 15, "{}"])
    a = tmp_path / "a.tsv"
    b = tmp_path / "b.tsv"
    a.write_text(header + "\n" + row.format("x") + "\n")
    b.write_text(header + "\n" + row.format("y") + "\n")
    result = cli("meta-eval", "compqa-humans", a, b)
    assert result.code == 2
    assert "line 2: filename 'x' vs 'y'" in result.err


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0.6", "expected EVALUATOR=VALUE"),
        ("bleu=3", "expected EVALUATOR=VALUE"),
        ("chrf=high", "'high' is not a number"),
        ("chrf=300", "outside [0, 100]"),
    ],
)
def test_compare_thresholds_are_per_evaluator(cli, tmp_path, value, message):
    data = one_reference(tmp_path)
    sub = write_json(tmp_path / "s.json", {"I": {"intervention_id": "I", "cqs": "Missing CQs"}})
    result = cli(
        "meta-eval",
        "cqs-compare",
        "--data",
        data,
        "--evaluator",
        "chrf",
        "--evaluator",
        "llm-label",
        "--threshold",
        value,
        sub,
    )
    assert result.code == 2
    assert message in result.err
