"""The usefulness judge: learned from references and people's labels of system outputs
(folds that deal the texts with outputs evenly, outputs weighted, the threshold at the
outputs' rate on out-of-fold scores), shipped as ``usefulness``, and used where a
choice is made: as an evaluator, as the NAE fallback beside a reference evaluator, as
a selector, and in the claims generator's final choice."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from maieutic.embed.encoder import Encoder
from maieutic.scorers.examples import Examples
from maieutic.scorers.figures import top_k_rate
from maieutic.scorers.grouped_cv import grouped_folds
from maieutic.scorers.model import load_scorer
from maieutic.scorers.train import cross_validate, system_weights, train
from maieutic.tasks.cqs.data import CQDataset, Intervention, ReferenceQuestion, load_cq_dataset
from maieutic.tasks.cqs.evaluate import CQEvaluator
from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs
from maieutic.tasks.cqs.matchers import ChrfMatcher, Match
from maieutic.tasks.cqs.meta_eval import useful_vs_rest
from maieutic.tasks.cqs.scoring import NAE, NAE_FALLBACK
from maieutic.tasks.cqs.usefulness import DIRECTORY
from tests.conftest import SHARED_DATA
from tests.weights import assert_same_build

CQS = SHARED_DATA / "cqs"


def _needs_shared() -> None:
    if not (CQS / "extended_test-dev.json").exists():
        pytest.skip(f"shared data not found at {CQS}")


# --- folds, figures ---------------------------------------------------------------


def test_strata_deal_each_stratum_across_the_folds_and_change_nothing_without():
    groups = [f"g{i:02d}" for i in range(20) for _ in range(2)]
    strata = {f"g{i:02d}": "outputs" for i in (3, 7, 11, 15, 19)}
    folds = grouped_folds(groups, 5, seed=0, strata=strata)
    for _, test in folds:  # one text with outputs in each fold, four without
        tested = {groups[i] for i in test}
        assert len(tested & set(strata)) == 1 and len(tested) == 4
    # without strata: the seeded shuffle dealt round robin, as before
    distinct = sorted(set(groups))
    order = np.random.default_rng(0).permutation(len(distinct))
    fold_of = {distinct[g]: i % 5 for i, g in enumerate(order)}
    for f, (_, test) in enumerate(grouped_folds(groups, 5, seed=0)):
        assert {groups[i] for i in test} == {g for g, k in fold_of.items() if k == f}


def test_the_top_k_rate_is_the_positive_share_of_each_texts_first_k():
    truth = np.array([1, 0, 1, 0, 1, 1, 1])
    scores = np.array([0.9, 0.8, 0.1, 0.7, 0.5, 0.4, 0.3])
    groups = ["a", "a", "a", "a", "b", "b", "b"]
    # a: its first three are rows 0, 1, 3 (one positive); b: all three positive
    assert top_k_rate(truth, scores=scores, groups=groups, k=3)["value"] == pytest.approx(4 / 6)
    assert top_k_rate(truth, scores=scores, groups=groups, k=1)["value"] == pytest.approx(1.0)


def test_useful_vs_rest_kappa_in_both_settings_matches_scikit_learn():
    human = ["Useful", "Useful", "Invalid", "Unhelpful", "Useful", "Invalid", "Unhelpful"]
    predicted = ["Useful", NAE, "Useful", "Unhelpful", "Invalid", NAE, "Unhelpful"]
    got = useful_vs_rest(human, predicted=predicted)
    useful = [h == "Useful" for h in human]
    said = [p == "Useful" for p in predicted]
    assert got["kappa_useful_nae_kept"] == pytest.approx(cohen_kappa_score(useful, said))
    kept = [i for i, p in enumerate(predicted) if p != NAE]
    assert got["kappa_useful_nae_dropped"] == pytest.approx(
        cohen_kappa_score([useful[i] for i in kept], [said[i] for i in kept])
    )
    assert got["kappa_useful_nae_kept"] != got["kappa_useful_nae_dropped"]


# --- training with system outputs -------------------------------------------------


def _toy(seed: int = 0) -> tuple[Examples, np.ndarray]:
    """40 texts; 8 of them with 6 system outputs each. A signal in feature 0."""
    rng = np.random.default_rng(seed)
    examples = Examples(positive="Useful")
    rows = []
    for g in range(40):
        kinds = [""] * 5 + ([f"system{s:02d}" for s in range(6)] if g % 5 == 0 else [])
        for n, system in enumerate(kinds):
            useful = rng.random() < (0.7 if not system else 0.4)
            label = "Useful" if useful else ("Invalid" if n % 2 else "Unhelpful")
            examples.add(f"text {g}", question=f"q {g} {n}", label=label, ordinal=float(useful),
                         group=f"t{g}", system=system)  # fmt: skip
            rows.append([float(useful) + rng.normal(0, 1.0), rng.normal()])
    return examples, np.array(rows)


def test_a_judge_learned_with_outputs_sets_its_threshold_by_them():
    examples, features = _toy()
    trained = train(
        examples, features, task="cqs", data_bytes=b"x", data_name="toy",
        encoder_identity="fake", c=1.0, features_version="pair-v2",
        recipe={"system_weight": 2.0, "binary": True},
    )  # fmt: skip
    manifest = trained.scorer.manifest
    assert manifest["classes"] == ["Useful", "other"]
    assert manifest["model"]["system_weight"] == 2.0 and manifest["model"]["binary"] is True
    assert "system outputs" in manifest["threshold_rule"]
    outputs = trained.report["system_outputs"]
    assert outputs["n"] == 48 and outputs["n_groups"] == 8
    assert 0 <= outputs["top3_positive_rate"]["value"] <= 1
    # the threshold accepts the outputs' Useful rate on their out-of-fold scores (not
    # the rate of every pair, which is higher here)
    binary = examples.binary()
    oof = cross_validate(binary, features, 1.0, seed=0, weights=system_weights(binary, 2.0))
    outputs_rows = binary.from_systems
    scores, truth = oof["oof_scores"], binary.target
    assert trained.scorer.threshold == pytest.approx(
        np.quantile(scores[outputs_rows], 1 - truth[outputs_rows].mean())
    )
    assert trained.scorer.threshold != pytest.approx(np.quantile(scores, 1 - truth.mean()))
    accepted = (scores[outputs_rows] >= trained.scorer.threshold).mean()
    assert accepted == pytest.approx(truth[outputs_rows].mean(), abs=1 / 48)


def test_output_weights_change_the_model_and_equal_weights_change_nothing():
    examples, features = _toy()
    common = dict(task="cqs", data_bytes=b"x", data_name="toy", encoder_identity="fake",
                  c=1.0, features_version="pair-v2")  # fmt: skip
    one = train(examples, features, recipe={"system_weight": 1.0}, **common).scorer
    none = train(examples, features, **common).scorer
    four = train(examples, features, recipe={"system_weight": 4.0}, **common).scorer
    np.testing.assert_allclose(one.model.coef, none.model.coef)
    assert not np.allclose(four.model.coef, none.model.coef)


# --- the NAE fallback -------------------------------------------------------------


class ScriptedJudge:
    """Labels every question Useful with P = 0.9 and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.warnings: list[str] = []

    def match(self, intervention, questions):
        self.asked += list(questions)
        return [
            Match(reference_index=None, similarity=0.9, label="Useful", note="P(Useful) = 0.900")
            for _ in questions
        ]

    def signature_fields(self):
        return {"model": "fake", "scorer": "abc123", "scorer_threshold": 0.5}


def _one_text() -> CQDataset:
    refs = (
        ReferenceQuestion(
            id="r1", cq="Is there evidence that taxes will fall next year?", label="Useful"
        ),
        ReferenceQuestion(id="r2", cq="What does the speaker mean by growth?", label="Unhelpful"),
    )
    item = Intervention(
        intervention_id="A",
        intervention="Taxes will fall next year, so growth will follow.",
        cqs=refs,
    )
    return CQDataset(interventions={"A": item}, source="toy")


def _submission(tmp_path: Path) -> Path:
    path = tmp_path / "sub.json"
    path.write_text(json.dumps({"A": {"intervention_id": "A", "cqs": [
        {"id": 0, "cq": "Is there evidence that taxes will fall next year?"},
        {"id": 1, "cq": "Would a rival economist read the budget figures another way?"},
        {"id": 2, "cq": "What does the speaker mean by growth?"},
    ]}}))  # fmt: skip
    return path


def test_the_fallback_labels_only_what_no_reference_matched(tmp_path):
    from maieutic.tasks.cqs.data import load_submission

    judge = ScriptedJudge()
    dataset = _one_text()
    submission = load_submission(_submission(tmp_path))
    plain = CQEvaluator(ChrfMatcher(), 30.0)
    with_judge = CQEvaluator(ChrfMatcher(), 30.0, nae_fallback=judge)
    for evaluator in (plain, with_judge):
        evaluator.prepare(dataset, [submission], skip_unknown=False)
    before = plain.evaluate_one(dataset, submission)
    after = with_judge.evaluate_one(dataset, submission)
    assert [q.label for q in before.items[0].questions] == ["Useful", NAE, "Unhelpful"]
    assert [q.label for q in after.items[0].questions] == ["Useful", "Useful", "Unhelpful"]
    assert judge.asked == ["Would a rival economist read the budget figures another way?"]
    assert [q.labelled_by for q in after.items[0].questions] == [None, NAE_FALLBACK, None]
    assert after.score == pytest.approx(2 / 3) and before.score == pytest.approx(1 / 3)
    fallback = after.summary["nae_fallback"]
    assert fallback["n_questions"] == 1 and fallback["labels"] == {"Useful": 1}
    assert fallback["overall_by_references"] == pytest.approx(before.score)
    assert "nae_fallback" not in before.summary
    assert after.signature.extra["nae_fallback"] == "scorer:abc123@0.5000"
    assert "nae_fallback" not in before.signature.extra


# --- the shipped judge --------------------------------------------------------------


def test_the_shipped_judge_says_how_it_was_made_and_is_small():
    judge = load_scorer(DIRECTORY)
    manifest = judge.manifest
    assert manifest["task"] == "cqs" and manifest["classes"] == ["Useful", "other"]
    assert manifest["recipe"]["command"].startswith("maieutic train cqs --data ")
    training = manifest["training"]
    assert [f["name"] for f in training["files"]] == ["validation-dev.json", "test-dev.json"]
    assert training["outputs"] == "extended_test-dev.json" and len(training["outputs_sha256"]) == 64
    assert manifest["cv"]["system_outputs"]["n"] == 719
    assert (DIRECTORY / "model.npz").stat().st_size < 1_000_000


PROBABILITY_TOLERANCE = 1e-5
"""How far the rebuilt judge's probabilities may be from the shipped one's."""


def _judged_outputs(judges) -> list[np.ndarray]:
    """Each judge's probability for every labelled system output of the test-dev file."""
    dataset = load_cq_dataset(CQS / "test-dev.json")
    outputs = load_labelled_outputs(CQS / "extended_test-dev.json", dataset).outputs
    texts = [dataset.interventions[o.intervention_id] for o in outputs]
    contexts, questions = [t.intervention for t in texts], [o.cq for o in outputs]
    schemes = [t.schemes[0] if t.schemes else "" for t in texts]
    encoder = Encoder()
    return [judge.score(encoder, contexts, questions, schemes=schemes) for judge in judges]


@pytest.mark.slow
def test_the_recorded_command_rebuilds_the_shipped_judge(cli, tmp_path, monkeypatch):
    _needs_shared()
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    out = tmp_path / "judge"
    result = cli("train", "cqs", "--data", CQS / "validation-dev.json", "--data",
                 CQS / "test-dev.json", "--outputs", CQS / "extended_test-dev.json",
                 "--out-dir", out)  # fmt: skip
    assert result.code == 0, result.err
    assert "systems' outputs: ROC AUC" in result.out
    rebuilt, shipped = load_scorer(out), load_scorer(DIRECTORY)
    assert_same_build(rebuilt, shipped)
    # the two decide alike: every labelled system output gets the same label
    ours, theirs = _judged_outputs([rebuilt, shipped])
    assert len(ours) == 719
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=PROBABILITY_TOLERANCE)
    assert ((ours >= rebuilt.threshold) == (theirs >= shipped.threshold)).all()


@pytest.mark.usefixtures("shared_home")
@pytest.mark.xdist_group("cqs-released")
@pytest.mark.slow
def test_meta_eval_reports_useful_vs_rest_and_the_fallback(cli, tmp_path):
    _needs_shared()
    common = ["meta-eval", "cqs", "--data", CQS / "test-dev.json",
              "--outputs", CQS / "extended_test-dev.json"]  # fmt: skip
    sts = cli(*common, "--out", tmp_path / "sts.json")
    assert sts.code == 0, sts.err
    record = json.loads((tmp_path / "sts.json").read_text())
    items = record["items"]
    human = [i["human"] == "Useful" for i in items]
    said = [i["predicted"] == "Useful" for i in items]
    kappa = cohen_kappa_score(human, said)  # an independent computation
    assert record["report"]["kappa_useful_nae_kept"] == pytest.approx(kappa)
    assert kappa == pytest.approx(0.466, abs=0.001)  # hand-worked from the confusion table
    assert f"Useful vs rest: kappa(NAE kept)={kappa:.3f}" in sts.out
    fallback = cli(*common, "--nae-fallback", "usefulness", "--out", tmp_path / "fb.json")
    assert fallback.code == 0, fallback.err
    assert "were in the scorer's training data" in fallback.err  # in-sample, and said
    judged = json.loads((tmp_path / "fb.json").read_text())
    assert judged["report"]["nae_rate"] == 0
    assert "nae_fallback:scorer:" in judged["signature_string"]
    # the questions a reference matched keep their label
    for a, b in zip(items, judged["items"], strict=True):
        if a["predicted"] != NAE:
            assert a["predicted"] == b["predicted"]


@pytest.mark.usefixtures("shared_home")
@pytest.mark.xdist_group("cqs-released")
@pytest.mark.slow
def test_the_judge_everywhere_a_choice_is_made(cli, tmp_path):
    _needs_shared()
    data = CQS / "test-dev.json"
    out = tmp_path / "claims.json"
    made = cli("generate", "cqs", "--data", data, "--out", out, "--selector", "usefulness")
    assert made.code == 0, made.err
    signature = json.loads(out.with_suffix(".meta.json").read_text())["signature"]
    assert signature["judge"] == load_scorer(DIRECTORY).recipe_identity()
    assert signature["judge_build"] == load_scorer(DIRECTORY).identity()
    results = tmp_path / "results.json"
    scored = cli("evaluate", "cqs", "--data", data, out, "--evaluator", "usefulness",
                 "--out", results)  # fmt: skip
    assert scored.code == 0, scored.err
    [result] = json.loads(results.read_text())["results"]
    recipe = load_scorer(DIRECTORY).recipe_identity()
    assert f"scorer:{recipe}" in result["signature_string"].split("|")
    from maieutic.tasks.cqs.selection import make_selector

    item = Intervention(
        intervention_id="A", intervention="Taxes will fall next year, so growth will follow."
    )
    candidates = ["Is there evidence that taxes will fall next year?",
                  "Is there any evidence that taxes will fall next year?",
                  "What is a tax?", "Could growth follow for other reasons?", "Hello?"]  # fmt: skip
    chosen = make_selector("usefulness")(item, candidates)
    assert len(chosen) == 3 and len(set(chosen)) == 3
    # the near-duplicate pair is never chosen together
    assert not {candidates[0], candidates[1]} <= set(chosen)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--nae-fallback", "scorer:/nowhere/judge"], "not a scorer directory"),
        (["--nae-fallback", "judge"], "is not one of usefulness or scorer:DIR"),
        (["--evaluator", "llm-label", "--nae-fallback", "usefulness"],
         "--nae-fallback does not apply to the evaluator 'llm-label'"),
    ],
)  # fmt: skip
def test_a_wrong_fallback_is_one_line(cli, tmp_path, args, message):
    dataset = tmp_path / "d.json"
    dataset.write_text(json.dumps({"A": {"intervention_id": "A", "intervention": "Taxes.",
        "cqs": [{"id": "r", "cq": "Why?", "label": "Useful"}]}}))  # fmt: skip
    result = cli("evaluate", "cqs", "--data", dataset, _submission(tmp_path), *args)
    assert result.code == 2 and "Traceback" not in result.err
    assert sum(message in line for line in result.err.splitlines()) == 1, result.err


def test_the_claims_generator_refuses_a_selector_it_cannot_use(cli, tmp_path):
    dataset = tmp_path / "d.json"
    dataset.write_text(json.dumps({"A": {"intervention_id": "A", "intervention": "Taxes.",
        "cqs": []}}))  # fmt: skip
    result = cli("generate", "cqs", "--data", dataset, "--out", tmp_path / "o.json",
                 "--selector", "dedup")  # fmt: skip
    assert result.code == 2 and "the claims generator takes first" in result.err


def test_a_judge_for_another_task_is_refused(cli, tmp_path):
    other = tmp_path / "aura-judge"
    judge = load_scorer(DIRECTORY)
    judge.manifest = {**judge.manifest, "task": "aura"}
    judge.save(other)
    dataset = tmp_path / "d.json"
    dataset.write_text(json.dumps({"A": {"intervention_id": "A", "intervention": "Taxes.",
        "cqs": [{"id": "r", "cq": "Why?", "label": "Useful"}]}}))  # fmt: skip
    result = cli("evaluate", "cqs", "--data", dataset, _submission(tmp_path),
                 "--nae-fallback", f"scorer:{other}")  # fmt: skip
    assert result.code == 2 and "a scorer for task 'aura'" in result.err


@pytest.mark.parametrize("mode", ["--sweep", "--curve"])
def test_a_sweep_or_curve_never_drops_the_fallback_silently(cli, tmp_path, mode):
    dataset = tmp_path / "d.json"
    dataset.write_text(json.dumps({"A": {"intervention_id": "A", "intervention": "Taxes.",
        "cqs": [{"id": "r", "cq": "Why?", "label": "Useful"}]}}))  # fmt: skip
    result = cli("meta-eval", "cqs", "--data", dataset, "--nae-fallback", "usefulness", mode)
    assert result.code == 2
    assert f"{mode} measures the references alone: drop --nae-fallback" in result.err


def test_the_official_layout_with_a_fallback_never_takes_the_plain_files_name():
    from types import SimpleNamespace

    from maieutic.tasks.cqs.cli.evaluate import official_name

    def result(extra):
        return SimpleNamespace(
            submission="sub", signature=SimpleNamespace(threshold=0.6, extra=extra)
        )

    fallback = result({"nae_fallback": "scorer:abc@0.5000"})
    assert official_name("sts", fallback) == "sts_0.6_nae-fallback_sub.json"
    assert official_name("sts", result({})) == "sts_0.6_sub.json"
