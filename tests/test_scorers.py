"""Learned scorers: grouped folds never leak a text, out-of-fold thresholds come from
the training side, the saved model reproduces scikit-learn's probabilities and its
manifest and signature round-trip, training is deterministic, the figures match
scikit-learn, and (slow) a scorer trained with the real encoder on a tiny labelled
fixture tells an obviously useful question from an obviously useless one."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, roc_auc_score

from maieutic.errors import DataError
from maieutic.scorers.examples import Examples
from maieutic.scorers.grouped_cv import grouped_folds, out_of_fold
from maieutic.scorers.model import load_scorer
from maieutic.scorers.train import base_rate_threshold, fit_linear, train
from tests.weights import WEIGHT_TOLERANCE, assert_same_build, weight_gap


def test_grouped_folds_never_leak_a_group():
    groups = [f"g{i % 13}" for i in range(200)]
    folds = grouped_folds(groups, 5, seed=3)
    tested = []
    for train_idx, test_idx in folds:
        assert not {groups[i] for i in train_idx} & {groups[i] for i in test_idx}
        assert len(train_idx) + len(test_idx) == len(groups)
        tested += [groups[i] for i in test_idx]
    assert sorted(tested) == sorted(groups)  # every item tested exactly once
    again = grouped_folds(groups, 5, seed=3)
    assert all((a[1] == b[1]).all() for a, b in zip(folds, again, strict=True))
    assert any(
        (a[1] != b[1]).any() for a, b in zip(folds, grouped_folds(groups, 5, seed=4), strict=False)
    )
    with pytest.raises(ValueError, match="3 groups cannot make 5 folds"):
        grouped_folds(["a", "b", "c"], 5, seed=0)


def test_thresholds_are_chosen_on_the_training_side():
    seen = []

    def fit(x, y):
        seen.append(len(y))
        return lambda q: q[:, 0]

    x = np.arange(20, dtype=float).reshape(-1, 1)
    y = x[:, 0] >= 10
    oof = out_of_fold(
        x,
        target=y,
        groups=[str(i // 2) for i in range(20)],
        fit=fit,
        choose_threshold=base_rate_threshold,
        k=5,
        seed=0,
    )
    assert seen == [16] * 5  # each fit saw four fifths of the groups
    assert np.array_equal(oof.scores, x[:, 0])
    scores = np.array([0.1, 0.2, 0.3, 0.9])
    threshold = base_rate_threshold(scores, target=np.array([0, 0, 0, 1]))
    assert list(scores >= threshold) == [False, False, False, True]  # the positive rate


def _examples(n_groups=10, per_group=12, seed=0):
    rng = np.random.default_rng(seed)
    ex = Examples(positive="Useful")
    rows = []
    for g in range(n_groups):
        for i in range(per_group):
            label = ("Useful", "Unhelpful", "Invalid")[i % 3]
            signal = {"Useful": 1.5, "Unhelpful": 0.0, "Invalid": -1.5}[label]
            rows.append(rng.normal(size=6) + signal * np.array([1, 1, 0, 0, 0, 0]))
            ex.contexts.append(f"context {g}")
            ex.questions.append(f"question {g}-{i}")
            ex.schemes.append("")
            ex.groups.append(f"g{g}")
            ex.labels.append(label)
            ex.ordinal.append({"Useful": 2.0, "Unhelpful": 1.0, "Invalid": 0.0}[label])
            ex.systems.append("")
    return ex, np.array(rows)


def _train(ex, x, seed=0):
    return train(
        ex, x, task="cqs", data_bytes=b"data", data_name="d.json", encoder_identity="enc",
        c=1.0, seed=seed,
    )  # fmt: skip


def test_a_changed_training_option_is_outside_the_rebuild_tolerance():
    # the tolerance of a rebuild is loose enough for rounding, not for another recipe:
    # the same examples learned with C 1% apart differ by more than it allows
    ex, x = _examples()
    one, again = _train(ex, x).scorer, _train(ex, x).scorer
    other = train(
        ex, x, task="cqs", data_bytes=b"data", data_name="d.json", encoder_identity="enc",
        c=1.01, seed=0,
    ).scorer  # fmt: skip
    assert_same_build(again, one)
    for name in ("coef", "intercept"):
        ours, theirs = getattr(other.model, name), getattr(one.model, name)
        assert weight_gap(ours, theirs) > WEIGHT_TOLERANCE, name
    with pytest.raises(AssertionError, match="model"):  # C is part of the recipe
        assert_same_build(other, one)


def test_saved_model_round_trip_and_signature(tmp_path):
    ex, x = _examples()
    trained = _train(ex, x)
    pipeline = fit_linear(x, ex.labels, 1.0, seed=0)
    useful = list(pipeline.classes_).index("Useful")
    assert np.allclose(trained.scorer.probability(x), pipeline.predict_proba(x)[:, useful])
    trained.scorer.save(tmp_path / "s")
    loaded = load_scorer(tmp_path / "s")
    assert np.allclose(loaded.probability(x), trained.scorer.probability(x))
    assert loaded.signature_fields() == trained.scorer.signature_fields()
    assert loaded.manifest["training"]["data_sha256"].startswith("3a6eb0790f39")  # sha256(b"data")
    assert loaded.seen(["context 3", "other text"]) == 1
    assert loaded.manifest["cv"]["auc"]["value"] > 0.8  # the signal is learnable
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    manifest["features"]["version"] = "pair-v0"
    (tmp_path / "s" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match="train the scorer again"):
        load_scorer(tmp_path / "s")
    manifest["format"] = "other/1"
    (tmp_path / "s" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match="format 'other/1'"):
        load_scorer(tmp_path / "s")
    with pytest.raises(DataError, match="not a scorer directory"):
        load_scorer(tmp_path)


def test_training_is_deterministic_and_figures_match_sklearn():
    ex, x = _examples()
    first, second = _train(ex, x, seed=5), _train(ex, x, seed=5)
    assert first.report == second.report
    assert first.scorer.identity() == second.scorer.identity()
    # recompute the out-of-fold figures independently with scikit-learn
    y = ex.target
    scores, decided = np.zeros(len(y)), np.zeros(len(y), dtype=bool)
    for train_idx, test_idx in grouped_folds(ex.groups, 5, seed=5):
        pipe = fit_linear(x[train_idx], [ex.labels[i] for i in train_idx], 1.0, seed=5)
        k = list(pipe.classes_).index("Useful")
        threshold = base_rate_threshold(pipe.predict_proba(x[train_idx])[:, k], target=y[train_idx])
        scores[test_idx] = pipe.predict_proba(x[test_idx])[:, k]
        decided[test_idx] = scores[test_idx] >= threshold
    assert first.report["auc"]["value"] == pytest.approx(roc_auc_score(y, scores))
    assert first.report["kappa"]["value"] == pytest.approx(cohen_kappa_score(y, decided))
    low, high = first.report["kappa"]["low"], first.report["kappa"]["high"]
    assert low <= first.report["kappa"]["value"] <= high


PAIRS = [
    (
        "We must ban cars downtown because pollution harms children.",
        "Is there evidence that car pollution downtown harms children?",
    ),
    (
        "Taxes should rise since schools lack money.",
        "Would higher taxes actually reach the schools that lack money?",
    ),
    (
        "The mayor lied before, so his plan is bad.",
        "Does a past lie make the mayor's plan itself bad?",
    ),
    (
        "Eating meat is wrong because animals suffer.",
        "Do animals raised for meat necessarily suffer?",
    ),
    (
        "We should build more housing because rents are high.",
        "Would more housing really bring rents down?",
    ),
    ("Video games cause violence, so ban them.", "What evidence links video games to violence?"),
]
TINY = {
    f"T{i}": {
        "intervention_id": f"T{i}",
        "intervention": text,
        "cqs": [
            {"id": "1", "cq": useful, "label": "Useful"},
            {"id": "2", "cq": "What is the capital of France?", "label": "Invalid"},
            {"id": "3", "cq": "What colour is the sky on a clear day?", "label": "Invalid"},
        ],
    }
    for i, (text, useful) in enumerate(PAIRS)
}


@pytest.mark.slow
def test_a_scorer_from_a_tiny_fixture_separates_useful_from_useless(cli, tmp_path):
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(TINY))
    out = tmp_path / "scorer"
    result = cli("train", "scorer", "--task", "cqs", "--data", data, "--out", out, "--c", "1")
    assert result.code == 0, result.err
    assert "grouped 5-fold cross-validation" in result.out
    from maieutic.embed.encoder import Encoder

    scorer = load_scorer(out)
    text = "Cities should plant more trees because summers are getting hotter."
    questions = [
        "Would planting more trees actually make city summers cooler?",
        "How many legs does a spider have?",
    ]
    p = scorer.score(Encoder(), [text, text], questions)
    assert p[0] > p[1]


def test_selection_respects_the_similarity_cap():
    from maieutic.tasks.cqs.selection import ranked_diverse_k

    e = np.eye(4)
    near = (e[0] + 0.1 * e[1]) / np.linalg.norm(e[0] + 0.1 * e[1])
    vectors = {"a": e[0], "a'": near, "b": e[1], "c": e[2], "d": e[3]}
    candidates = ["a", "a'", "b", "c", "d"]
    scores = [0.9, 0.8, 0.5, 0.4, 0.1]
    chosen = ranked_diverse_k(candidates, scores, vectors, k=3, max_similarity=0.85)
    assert chosen == ["a", "b", "c"]  # a' is a near-duplicate of a (cosine 0.995)
    for x in chosen:
        for y in chosen:
            assert x == y or float(vectors[x] @ vectors[y]) <= 0.85
    # when the cap leaves too few, the best remaining tops up: never fewer than k
    assert ranked_diverse_k(["a", "a'"], [0.9, 0.8], vectors, k=2, max_similarity=0.85) == [
        "a",
        "a'",
    ]


def test_scorer_option_values(cli, tmp_path):
    result = cli("evaluate", "cqs", "--data", "x.json", "y.json", "--evaluator", "scorer")
    assert result.code == 2 and "is not one of" in result.err and "scorer:DIR" in result.err
    from maieutic.samples import sample_path

    data, submission = (
        sample_path("cqs/sample_dataset.json"),
        sample_path("cqs/sample_submission.json"),
    )
    result = cli("evaluate", "cqs", "--data", data, submission, "--evaluator", f"scorer:{tmp_path}")
    assert result.code == 2 and "not a scorer directory" in result.err


@pytest.mark.slow
def test_scorer_evaluates_and_selects_end_to_end(cli, tmp_path):
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(TINY))
    scorer_dir = tmp_path / "scorer"
    assert cli("train", "scorer", "--task", "cqs", "--data", data, "--out", scorer_dir).code == 0
    out = tmp_path / "generated.json"
    generated = cli(
        "generate", "cqs", "--data", data, "--out", out, "--generator", "template",
        "--selector", f"scorer:{scorer_dir}",
    )  # fmt: skip
    assert generated.code == 0, generated.err
    submission = json.loads(out.read_text())
    assert all(len(item["cqs"]) == 3 for item in submission.values())
    results = tmp_path / "results.json"
    scored = cli(
        "evaluate", "cqs", "--data", data, out, "--evaluator", f"scorer:{scorer_dir}",
        "--out", results,
    )  # fmt: skip
    assert scored.code == 0, scored.err
    assert "were in the scorer's training data" in scored.err
    [result] = json.loads(results.read_text())["results"]
    manifest = load_scorer(scorer_dir).manifest
    assert result["signature"]["scorer_data"] == manifest["training"]["data_sha256"][:12]
    assert result["signature"]["scorer"] == load_scorer(scorer_dir).recipe_identity()
    assert result["signature"]["scorer_build"] == load_scorer(scorer_dir).identity()
    threshold = round(load_scorer(scorer_dir).threshold, 4)
    assert result["signature"]["scorer_threshold"] == threshold
    labels = {q["label"] for item in result["items"] for q in item["cqs"]}
    assert labels <= {"Useful", "Unhelpful"}
