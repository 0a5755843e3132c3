"""The CQs paper's analyses of evaluators against people, on the released files.

Golden figures (``tests/fixtures/cqs/paper_golden.json``) come from an independent
script (sentence-transformers, sacrebleu and scikit-learn called directly, no part of
maieutic): every system question of ``extended_test-dev.json`` labelled against the
``test-dev.json`` references (setting A), and with every other system's questions of
the same intervention added as references (setting B, the end of the curve).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from maieutic.registry import create
from maieutic.tasks.cqs.data import (
    CQDataset,
    Intervention,
    ReferenceQuestion,
    load_cq_dataset,
)
from maieutic.tasks.cqs.labelled_outputs import (
    LabelledOutput,
    LabelledOutputs,
    load_labelled_outputs,
)
from maieutic.tasks.cqs.meta_eval import report
from maieutic.tasks.cqs.outputs_agreement import judge_outputs, references_curve
from tests.conftest import FIXTURES, SHARED_DATA, write_json

GOLDEN = json.loads((FIXTURES / "cqs" / "paper_golden.json").read_text(encoding="utf-8"))
TEST_DEV = SHARED_DATA / "cqs" / "test-dev.json"
EXTENDED = SHARED_DATA / "cqs" / "extended_test-dev.json"
VALIDATION = SHARED_DATA / "cqs" / "validation-dev.json"

# the released data's vectors are encoded once per worker (conftest.shared_home)
pytestmark = [pytest.mark.usefixtures("shared_home"), pytest.mark.xdist_group("cqs-released")]


@pytest.fixture(scope="module")
def released():
    if not EXTENDED.exists():
        pytest.skip(f"shared data not found at {EXTENDED}")
    dataset = load_cq_dataset(TEST_DEV)
    return dataset, load_labelled_outputs(EXTENDED, dataset)


def _tiny(tmp_path: Path, question: str = "Why?", asked: str = "Why?") -> tuple[Path, Path]:
    """A one-intervention dataset with one Useful reference, and a submission asking
    ``asked``."""
    reference = {"id": "a", "cq": question, "label": "Useful"}
    data = {"I": {"intervention_id": "I", "intervention": "X.", "cqs": [reference]}}
    sub = {"I": {"intervention_id": "I", "cqs": [{"id": 0, "cq": asked}]}}
    return write_json(tmp_path / "d.json", data), write_json(tmp_path / "s.json", sub)


def _confusion(result: dict) -> dict:
    rename = {"not_able_to_evaluate": "NAE"}
    return {h: {rename.get(p, p): n for p, n in row.items()} for h, row in result.items()}


# --- reading the released file ------------------------------------------------------


def test_the_extended_file_is_read_as_released(released):
    dataset, outputs = released
    raw = json.loads(EXTENDED.read_text(encoding="utf-8"))
    facts = GOLDEN["extended_test-dev"]
    assert len(outputs.outputs) == facts["n_system_questions"] == 719
    assert outputs.n_references_skipped == dataset.n_references == 385
    # every label people gave, "Wrong reasoning" read as Invalid
    raw_counts = dict(facts["system_label_counts_raw"])
    raw_counts["Invalid"] += raw_counts.pop("Wrong reasoning")
    counted = {label: sum(o.label == label for o in outputs.outputs) for label in raw_counts}
    assert counted == raw_counts
    codes = sorted(f.code for f in outputs.flags)
    assert codes == ["label-is-a-reason", "uneven-blocks"]
    assert any("radamchak_175" in f.at for f in outputs.flags if f.code == "uneven-blocks")
    # reasons kept: as many as the file's system questions carry
    with_reason = sum(
        "reason" in q for k, e in raw.items() for q in e["cqs"][len(dataset.interventions[k].cqs) :]
    )
    assert with_reason == sum(o.reason is not None for o in outputs.outputs) > 0
    # integer ids restart: positions, not keys (the same id many times in one intervention)
    clinton = [o for o in outputs.outputs if o.intervention_id == "CLINTON_27"]
    assert [o.id for o in clinton[:6]] == ["0", "1", "2", "0", "1", "2"]
    assert [o.block for o in clinton[:6]] == [0, 0, 0, 1, 1, 1]


def test_the_extended_file_as_references_is_flagged_and_strict_refuses_it(cli, tmp_path):
    if not EXTENDED.exists():
        pytest.skip(f"shared data not found at {EXTENDED}")
    dataset = load_cq_dataset(EXTENDED)
    assert dataset.n_references == 1104
    assert [f.code for f in dataset.flags] == ["label-is-a-reason"]
    assert not any("duplicate reference id" in w for w in dataset.warnings)  # integer ids
    sub = write_json(
        tmp_path / "s.json",
        {
            "CLINTON_27": {
                "intervention_id": "CLINTON_27",
                "cqs": [
                    {"id": i, "cq": q}
                    for i, q in enumerate(["Why?", "Since when?", "Who says so?"])
                ],
            }
        },
    )
    out = tmp_path / "r.json"
    ok = cli("evaluate", "cqs", "--data", EXTENDED, sub, "--out", out)
    assert ok.code == 0, ok.err
    assert "read as Invalid" in ok.err
    flags = json.loads(out.read_text())["results"][0]["flags"]
    assert [f["code"] for f in flags] == ["label-is-a-reason"]
    strict = cli(
        "evaluate", "cqs", "--data", EXTENDED, sub, "--out", tmp_path / "s2.json", "--strict"
    )
    assert strict.code == 2 and "--strict refuses" in strict.err
    assert "'Wrong reasoning' is one of the paper's reasons for Invalid" in strict.err
    assert not (tmp_path / "s2.json").exists()


# --- agreement with people on system outputs (section 6.1, Figure 3) -----------------


@pytest.mark.parametrize(("evaluator", "threshold"), [("sts", 0.6), ("sts", 0.65), ("chrf", 30.0)])
def test_agreement_on_system_outputs_matches_the_independent_computation(
    released, evaluator, threshold
):
    dataset, outputs = released
    items = judge_outputs(
        dataset, outputs, create("evaluator", task="cqs", name=evaluator, threshold=threshold)
    )
    result = report(items)
    golden = GOLDEN["evaluation"]["A_references_only"][evaluator][f"{threshold:g}"]
    assert result["n"] == golden["n"] == 719
    assert result["kappa_nae_kept"] == pytest.approx(golden["kappa_nae_kept"], abs=1e-9)
    assert result["kappa_nae_dropped"] == pytest.approx(golden["kappa_nae_dropped"], abs=1e-9)
    assert result["nae_rate"] == pytest.approx(golden["nae_rate"], abs=1e-12)
    assert _confusion(result["confusion"]) == golden["confusion_human_x_pred"]


@pytest.mark.parametrize(("evaluator", "threshold"), [("sts", 0.6), ("chrf", 30.0)])
def test_the_references_curve_starts_and_ends_at_the_independent_figures(
    released, evaluator, threshold
):
    dataset, outputs = released
    built = create("evaluator", task="cqs", name=evaluator, threshold=threshold)
    rows = references_curve(dataset, outputs, built, batch=5, draws=3, seed=0)
    assert [r["extra_references"] for r in rows] == [0, 5, 10, 15, 20, 25, 30, 35, 40, 42]
    start = GOLDEN["evaluation"]["A_references_only"][evaluator][f"{threshold:g}"]
    end = GOLDEN["evaluation"]["B_all_extra_references_excluding_own_block"][evaluator][
        f"{threshold:g}"
    ]
    for row, golden in ((rows[0], start), (rows[-1], end)):
        assert row["kappa_nae_kept"] == pytest.approx(golden["kappa_nae_kept"], abs=1e-9)
        assert row["nae_rate"] == pytest.approx(golden["nae_rate"], abs=1e-12)
        assert row["kappa_nae_kept_sd"] == 0.0  # every draw holds the same references
    assert rows[5]["kappa_nae_kept_sd"] > 0  # the middle depends on which were drawn
    assert rows[-1]["nae_rate"] < rows[0]["nae_rate"]  # more references, fewer NAE


# --- the curve by hand -------------------------------------------------------------


class _Table:
    """A similarity 'evaluator' over hand-written numbers (the curve reads only these)."""

    def __init__(self, sims: dict[tuple[str, str], float], threshold: float) -> None:
        self.sims, self.threshold = sims, threshold
        self.matcher = self
        self.spec = type("S", (), {"name": "hand"})()

    def similarities(self, questions, candidates):
        return np.array([[self.sims.get((q, c), 0.0) for c in candidates] for q in questions])


def _hand_case():
    refs = (ReferenceQuestion(id="r", cq="R", label="Useful"),)
    dataset = CQDataset(
        interventions={"I": Intervention(intervention_id="I", intervention="text", cqs=refs)}
    )
    texts = ["a1", "a2", "a3", "b1", "b2", "b3"]
    labels = ["Invalid", "Useful", "Useful", "Invalid", "Unhelpful", "Unhelpful"]
    outputs = LabelledOutputs(
        outputs=[
            LabelledOutput(
                intervention_id="I", position=i, id=str(i % 3), cq=t, label=lab, block=i // 3
            )
            for i, (t, lab) in enumerate(zip(texts, labels, strict=True))
        ],
        source="hand.json",
    )
    # a1 matches b1 best (0.9), then the reference (0.7); a2 matches nothing above 0.5;
    # b2 matches a2 (0.8) and its own block's b3 (0.95, which must never be used)
    sims = {
        ("a1", "R"): 0.7,
        ("a1", "b1"): 0.9,
        ("b2", "a2"): 0.8,
        ("b2", "b3"): 0.95,
        ("a3", "R"): 0.6,
    }
    return dataset, outputs, _Table(sims, 0.5)


def test_curve_by_hand_with_every_other_block_added():
    dataset, outputs, table = _hand_case()
    rows = references_curve(dataset, outputs, table, batch=3, draws=2, seed=1)
    assert [r["extra_references"] for r in rows] == [0, 3]
    # k = 0: a1 → Useful (R, 0.7), a3 → Useful (R, 0.6), the rest NAE
    # k = 3 (all of the other block): a1 → b1's Invalid (0.9 > 0.7), b2 → a2's Useful
    # (its own block's b3 is never a candidate), a3 → Useful, the rest NAE
    human = ["Invalid", "Useful", "Useful", "Invalid", "Unhelpful", "Unhelpful"]
    from sklearn.metrics import cohen_kappa_score

    at_0 = ["Useful", "not_able_to_evaluate", "Useful"] + ["not_able_to_evaluate"] * 3
    at_3 = [
        "Invalid",
        "not_able_to_evaluate",
        "Useful",
        "not_able_to_evaluate",
        "Useful",
        "not_able_to_evaluate",
    ]
    assert rows[0]["nae_rate"] == pytest.approx(4 / 6)
    assert rows[1]["nae_rate"] == pytest.approx(3 / 6)
    assert rows[0]["kappa_nae_kept"] == pytest.approx(cohen_kappa_score(human, at_0))
    assert rows[1]["kappa_nae_kept"] == pytest.approx(cohen_kappa_score(human, at_3))


def test_the_curve_is_the_same_for_the_same_seed_and_needs_a_similarity(released):
    dataset, outputs = released
    built = create("evaluator", task="cqs", name="chrf", threshold=30.0)
    small = LabelledOutputs(
        outputs=[o for o in outputs.outputs if o.intervention_id == "REBacon_165"], source="x"
    )
    one = references_curve(dataset, small, built, batch=10, draws=2, seed=7)
    again = references_curve(dataset, small, built, batch=10, draws=2, seed=7)
    assert one == again
    from maieutic.errors import DataError

    with pytest.raises(DataError, match="needs sts or chrf"):
        references_curve(dataset, small, create("evaluator", task="cqs", name="llm-label"))


# --- the command ------------------------------------------------------------------


def test_meta_eval_outputs_command_writes_the_figures_with_their_signature(cli, tmp_path, released):
    out, plot = tmp_path / "m.json", tmp_path / "curve.svg"
    result = cli(
        "meta-eval",
        "cqs",
        "--data",
        TEST_DEV,
        "--outputs",
        EXTENDED,
        "--evaluator",
        "chrf",
        "--curve",
        "--batch",
        "20",
        "--draws",
        "2",
        "--plot",
        plot,
        "--out",
        out,
    )
    assert result.code == 0, result.err
    assert "chrf (system outputs vs people): n=719 kappa(NAE kept)=0.339" in result.out
    assert "references curve" in result.out
    data = json.loads(out.read_text())
    assert data["on"] == "outputs" and data["outputs"]["n"] == 719
    assert [r["extra_references"] for r in data["curve"]["rows"]] == [0, 20, 40, 42]
    assert "outputs:" in data["signature_string"] and "curve:batch20x2" in data["signature_string"]
    assert data["items"][0]["human"] in ("Useful", "Unhelpful", "Invalid")
    assert plot.read_text().startswith("<?xml")
    page = tmp_path / "r.html"
    assert cli("report", out, "--out", page).code == 0
    assert "References curve" in page.read_text()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e["CLINTON_27"]["cqs"][40].pop("label"), "no 'label': agreement with people"),
        (lambda e: e["CLINTON_27"]["cqs"][40].update(label="Great"), "unknown label 'Great'"),
        (
            lambda e: e.update(NOT_THERE=dict(e["CLINTON_27"], intervention_id="NOT_THERE")),
            "'NOT_THERE': intervention not in the references",
        ),
        (
            lambda e: e["CLINTON_27"].update(intervention="Another text."),
            "written for another text",
        ),
        (lambda e: e["CLINTON_27"].update(cqs=7), "expected an array of labelled"),
    ],
)
def test_bad_labelled_outputs_are_one_line_exit_2_nothing_written(
    cli, tmp_path, released, change, message
):
    edited = json.loads(EXTENDED.read_text(encoding="utf-8"))
    change(edited)
    bad = write_json(tmp_path / "bad.json", edited)
    out = tmp_path / "m.json"
    result = cli("meta-eval", "cqs", "--data", TEST_DEV, "--outputs", bad, "--out", out)
    assert result.code == 2, result.err
    errors = [line for line in result.err.splitlines() if line.startswith("maieutic: error")]
    assert len(errors) == 1 and message in errors[0] and "bad.json" in errors[0]
    assert "Traceback" not in result.err and not out.exists()


def test_curve_options_are_checked_before_any_work(cli, tmp_path):
    data, _ = _tiny(tmp_path)
    no_outputs = cli("meta-eval", "cqs", "--data", data, "--curve")
    assert no_outputs.code == 2 and "--curve adds labelled system outputs" in no_outputs.err
    judge = cli(
        "meta-eval", "cqs", "--data", data, "--outputs", data, "--curve", "--evaluator", "llm-label"
    )
    assert judge.code == 2 and "--curve needs an evaluator with a threshold" in judge.err


# --- dataset statistics and breakdowns (Tables 1, 2) -----------------------------


def test_dataset_statistics_match_the_independent_computation(cli, tmp_path):
    if not VALIDATION.exists():
        pytest.skip(f"shared data not found at {VALIDATION}")
    out = tmp_path / "stats.json"
    result = cli("cqs", "stats", VALIDATION, TEST_DEV, "--out", out)
    assert result.code == 0, result.err
    files = {f["name"]: f for f in json.loads(out.read_text())["files"]}
    for name in ("validation-dev", "test-dev"):
        ours = files[f"{name}.json"]["statistics"]
        golden = GOLDEN["dataset_stats"][name]
        for group, theirs in [("all", golden["all"]), *golden["by_dataset"].items()]:
            mine = ours["all"] if group == "all" else ours["by_dataset"][group]
            assert mine["n_interventions"] == theirs["n_interventions"]
            assert mine["n_references"] == theirs["n_references"]
            assert mine["mean_intervention_chars"] == pytest.approx(
                theirs["mean_intervention_chars"]
            )
            assert mine["mean_schemes"] == pytest.approx(theirs["mean_n_schemes"])
            for label in ("Useful", "Unhelpful", "Invalid"):
                assert mine["label_shares"][label] == pytest.approx(theirs[f"share_{label}"])
        assert "task:cqs-stats" in files[f"{name}.json"]["signature_string"]
    assert "66.45%" in result.out and "40.52%" in result.out


def test_scores_break_down_by_source_and_scheme_by_hand(cli, tmp_path):
    ref = [
        {"id": "u", "cq": "Does the cause really lead to the effect?", "label": "Useful"},
        {"id": "i", "cq": "What is the weather like on Mars today?", "label": "Invalid"},
    ]
    data = {
        "A": {
            "intervention_id": "A",
            "intervention": "X.",
            "dataset": "US2016",
            "schemes": ["Example", "Sign", "Example"],
            "cqs": ref,
        },
        "B": {
            "intervention_id": "B",
            "intervention": "Y.",
            "dataset": "rrd",
            "schemes": ["Sign"],
            "cqs": ref,
        },
        "C": {
            "intervention_id": "C",
            "intervention": "Z.",
            "dataset": "US2016",
            "schemes": [],
            "cqs": ref,
        },
    }
    useful, invalid = ref[0]["cq"], ref[1]["cq"]
    sub = {
        "A": {
            "intervention_id": "A",
            "cqs": [{"id": i, "cq": q} for i, q in enumerate([useful] * 3)],
        },
        "B": {
            "intervention_id": "B",
            "cqs": [{"id": 0, "cq": useful}, {"id": 1, "cq": invalid}, {"id": 2, "cq": invalid}],
        },
        "C": {"intervention_id": "C", "cqs": "Missing CQs"},
    }
    out = tmp_path / "r.json"
    result = cli(
        "evaluate",
        "cqs",
        "--data",
        write_json(tmp_path / "d.json", data),
        write_json(tmp_path / "s.json", sub),
        "--out",
        out,
    )
    assert result.code == 0, result.err
    got = json.loads(out.read_text())["results"][0]["summary"]["breakdown"]
    # A scores 3/3, B 1/3, C 0 (Missing CQs: three missing_cqs labels)
    assert got["by_dataset"]["US2016"]["score"] == pytest.approx((1 + 0) / 2)
    assert got["by_dataset"]["US2016"]["useful_rate"] == pytest.approx(3 / 6)
    assert got["by_dataset"]["rrd"]["score"] == pytest.approx(1 / 3)
    assert got["by_scheme"]["Example"] == {
        "n_interventions": 1,
        "n_scored_interventions": 1,
        "score": 1.0,
        "useful_rate": 1.0,
        "nae_rate": 0.0,
    }
    assert got["by_scheme"]["Sign"]["score"] == pytest.approx((1 + 1 / 3) / 2)
    assert got["by_scheme"][""]["n_interventions"] == 1
    page = tmp_path / "r.html"
    assert cli("report", out, "--out", page).code == 0
    assert "Scores by argumentation scheme" in page.read_text()


# --- the paper preset ---------------------------------------------------------------


def _hf_cache(monkeypatch, folder: Path) -> None:
    """The Hugging Face cache used by this process (read once at import, so patched)."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(folder))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_the_paper_preset_refuses_without_its_model_and_never_substitutes(
    cli, tmp_path, monkeypatch
):
    _hf_cache(monkeypatch, tmp_path / "hf" / "hub")
    data, sub = _tiny(tmp_path, "Why?", "Why?")
    out = tmp_path / "r.json"
    result = cli("evaluate", "cqs", "--data", data, sub, "--preset", "paper", "--out", out)
    assert result.code == 2
    assert "--preset paper needs the embedding model 'stsb-mpnet-base-v2'" in result.err
    assert "huggingface-cli download sentence-transformers/stsb-mpnet-base-v2" in result.err
    assert not out.exists()
    clash = cli("evaluate", "cqs", "--data", data, sub, "--preset", "paper", "--threshold", "0.6")
    assert clash.code == 2 and "--preset paper sets --threshold itself" in clash.err


def test_the_paper_preset_uses_the_model_from_the_local_cache(cli, tmp_path, monkeypatch):
    """A copy in the Hugging Face cache is found with no network (here the embedded
    model's files stand in for it, so the run is real but the number is not the paper's)."""
    import shutil

    from maieutic.embed.encoder import embedded_model_path

    hub = tmp_path / "hf" / "hub" / "models--sentence-transformers--stsb-mpnet-base-v2"
    snapshot = hub / "snapshots" / "0123456789abcdef0123456789abcdef01234567"
    shutil.copytree(embedded_model_path(), snapshot)
    (hub / "refs").mkdir()
    (hub / "refs" / "main").write_text(snapshot.name)
    _hf_cache(monkeypatch, tmp_path / "hf" / "hub")
    data, sub = _tiny(tmp_path, "Why did prices rise?", "Why did prices go up?")
    out = tmp_path / "r.json"
    result = cli("evaluate", "cqs", "--data", data, sub, "--preset", "paper", "--out", out)
    assert result.code == 0, result.err
    run = json.loads(out.read_text())["results"][0]
    assert run["signature"]["model"] == "stsb-mpnet-base-v2"
    assert run["signature"]["threshold"] == 0.65
    assert run["evaluator"]["args"]["embedding_model"] == "stsb-mpnet-base-v2"


def test_golden_file_holds_numbers_only():
    """The fixture holds figures from the independent computation, never its code."""
    text = (FIXTURES / "cqs" / "paper_golden.json").read_text(encoding="utf-8")
    assert "import " not in text and "def " not in text
    assert Path(FIXTURES / "cqs" / "paper_golden.json").stat().st_size < 20_000


def test_compare_with_people_as_a_rater_gives_the_same_kappa(cli, tmp_path, released):
    """Figure 3's heatmap: people join the evaluators; κ(people, sts) is the golden
    manual_labeling figure, and each system's score by people is Useful/3 averaged."""
    out = tmp_path / "c.json"
    result = cli(
        "meta-eval",
        "cqs-compare",
        "--data",
        TEST_DEV,
        "--outputs",
        EXTENDED,
        "--evaluator",
        "sts",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    data = json.loads(out.read_text())
    assert data["evaluators"] == ["people", "sts"]
    golden = GOLDEN["evaluation"]["A_references_only"]["sts"]["0.6"]["kappa_nae_kept"]
    assert data["kappa"][0][1] == pytest.approx(golden, abs=1e-9)
    assert len(data["submissions"]) == len(data["overall"]["people"]) == 15
    _, outputs = released
    first = [o for o in outputs.outputs if o.block == 0]
    per_intervention: dict[str, int] = {}
    for o in first:
        per_intervention[o.intervention_id] = per_intervention.get(o.intervention_id, 0) + (
            o.label == "Useful"
        )
    by_hand = sum(n / 3 for n in per_intervention.values()) / len(per_intervention)
    assert data["overall"]["people"][0] == pytest.approx(by_hand)
    assert data["signatures"]["people"].startswith("task:cqs-people|outputs:")
    both = cli(
        "meta-eval",
        "cqs-compare",
        "--data",
        TEST_DEV,
        "--outputs",
        EXTENDED,
        "--evaluator",
        "sts",
        str(tmp_path / "sub.json"),
    )
    assert both.code == 2 and "give SUBMISSIONS or --outputs" in both.err


# --- what a review found -------------------------------------------------------------


def test_systems_are_cut_where_their_ids_count_up():
    from maieutic.tasks.cqs.labelled_outputs import blocks_of

    # radamchak_175 as released: the 11th system (ids 0, 1 after three string ids) wrote 2
    ids = [1, 2, 0, *[0, 1, 2] * 2, 1, 3, 10, *[0, 1, 2] * 5, "a", "b", "c", 0, 1, *[0, 1, 2] * 4]
    blocks, short = blocks_of(ids)
    assert short == [30]
    assert blocks[27:35] == [9, 9, 9, 10, 10, 11, 11, 11]
    assert max(blocks) == 14
    # ids in any order inside a system of 3 are still one system
    assert blocks_of([2, 4, 1, 1, 0, 2]) == ([0, 0, 0, 1, 1, 1], [])


def test_the_released_short_system_is_flagged_where_it_starts(released):
    _, outputs = released
    [flag] = [f for f in outputs.flags if f.code == "uneven-blocks"]
    assert "radamchak_175" in flag.at and "cqs[48]" in flag.message  # 18 references + 30
    short = [o for o in outputs.outputs if o.intervention_id == "radamchak_175" and o.block == 10]
    assert [o.position for o in short] == [30, 31]
    mapped = [o for o in outputs.outputs if o.released_label]
    assert [(o.label, o.released_label) for o in mapped] == [("Invalid", "Wrong reasoning")]


def _prefixed(tmp_path, change):
    refs = [{"id": f"r{i}", "cq": f"Reference question {i}?", "label": "Useful"} for i in range(3)]
    outputs = [{"id": i, "cq": f"Generated question {i}?", "label": "Invalid"} for i in range(3)]
    record = {"intervention_id": "I", "intervention": "X.", "cqs": refs}
    data = write_json(tmp_path / "d.json", {"I": record})
    labelled = {"I": {**record, "cqs": change(refs, outputs)}}
    return data, write_json(tmp_path / "o.json", labelled)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda refs, outs: refs, "no generated questions: every question repeats the references"),
        (lambda refs, outs: [refs[0], refs[2], refs[1], *outs], "question 1 is not reference 1"),
        (lambda refs, outs: [refs[0], refs[1], *outs], "question 2 is not reference 2"),
    ],
)
def test_references_are_never_read_as_outputs(cli, tmp_path, change, message):
    data, labelled = _prefixed(tmp_path, change)
    result = cli("meta-eval", "cqs", "--data", data, "--outputs", labelled)
    assert result.code == 2, result.out
    assert message in result.err and "o.json" in result.err


def test_an_output_that_repeats_a_reference_is_flagged(tmp_path):
    data, labelled = _prefixed(tmp_path, lambda refs, outs: [*refs, *outs, dict(refs[1], id=3)])
    outputs = load_labelled_outputs(labelled, load_cq_dataset(data))
    assert len(outputs.outputs) == 4
    [flag] = [f for f in outputs.flags if f.code == "output-is-a-reference"]
    assert flag.at == "'I'.cqs[6]"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["cqs"][3].update(reason=["x"]), "'I'.cqs[3].reason: expected a string"),
        (lambda r: r.update(intervention_id="J"), "'I'.intervention_id: is 'J', differs"),
        (lambda r: r["cqs"][3].update(label=["Useful"]), "unknown label ['Useful']"),
    ],
)
def test_odd_fields_in_labelled_outputs_are_one_line(cli, tmp_path, change, message):
    data, labelled = _prefixed(tmp_path, lambda refs, outs: [*refs, *outs])
    content = json.loads(labelled.read_text())
    change(content["I"])
    write_json(labelled, content)
    result = cli("meta-eval", "cqs", "--data", data, "--outputs", labelled)
    assert result.code == 2 and message in result.err, result.err
    assert "Traceback" not in result.err


def test_strict_refuses_a_flag_in_the_extra_references(cli, tmp_path):
    data, _ = _tiny(tmp_path)
    three = [{"id": i, "cq": q} for i, q in enumerate(["Since when?", "Who says?", "How much?"])]
    sub = write_json(tmp_path / "three.json", {"I": {"intervention_id": "I", "cqs": three}})
    extra = write_json(
        tmp_path / "lab.json",
        {
            "I": {
                "intervention_id": "I",
                "cqs": [{"id": 0, "cq": "How?", "label": "Wrong reasoning"}],
            }
        },
    )
    ok = cli(
        "evaluate",
        "cqs",
        "--data",
        data,
        sub,
        "--extra-references",
        extra,
        "--out",
        tmp_path / "r.json",
    )
    assert ok.code == 0 and "lab.json" in ok.err and "read as Invalid" in ok.err
    strict = cli(
        "evaluate",
        "cqs",
        "--data",
        data,
        sub,
        "--extra-references",
        extra,
        "--strict",
        "--out",
        tmp_path / "strict.json",
    )
    assert strict.code == 2 and "--strict refuses" in strict.err and "lab.json" in strict.err
    assert not (tmp_path / "strict.json").exists()


def test_the_official_layout_follows_the_unscored_rule(tmp_path):
    from maieutic.llm.backends.scripted import ScriptedBackend
    from maieutic.llm.client import LLMClient
    from maieutic.tasks.cqs.data import Submission, SubmissionEntry, SubmittedQuestion
    from maieutic.tasks.cqs.evaluate import CQEvaluator, official_layout
    from maieutic.tasks.cqs.judges import JudgeMatcher

    refs = (ReferenceQuestion(id="a", cq="Why?", label="Useful"),)
    dataset = CQDataset(
        interventions={
            "I": Intervention(intervention_id="I", intervention="We must act.", cqs=refs)
        }
    )
    entry = SubmissionEntry("I", (SubmittedQuestion("0", "Is it cheap?"),))
    submission = Submission(entries={"I": entry}, source="s.json")
    for rule, label in (("as-nae", "not_able_to_evaluate"), ("drop-and-rescale", "unscored")):
        judge = JudgeMatcher("llm-label", LLMClient(ScriptedBackend(default="It depends.")))
        [result] = CQEvaluator(judge, None, unscored=rule).evaluate(dataset, [submission])
        [question] = official_layout(result)["I"]["cqs"]
        assert question["label"] == label, rule
        assert question.get("unscored") is (True if rule == "as-nae" else None)
        assert result.items[0].questions[0].label == "unscored"  # the results keep the truth
