"""maieutic labels submissions exactly as the benchmark's own evaluation script does.

The label files under ``tests/fixtures/cqs/reference_labels/`` were written by the
benchmark's ``evaluation.py`` itself (see ``tests/fixtures/cqs/README.md``), run on
the submissions under ``tests/fixtures/cqs/submissions/`` — every shape participants
sent: shared ids, empty questions, empty question lists, padding, identical
questions, exact similarity ties, Missing CQs, 2 or 4 questions, missing ids, unknown
intervention ids — against the development references.
"""

from __future__ import annotations

import json

import pytest

from maieutic.registry import create
from maieutic.tasks.cqs.data import load_cq_dataset, load_submission
from tests.conftest import FIXTURES

FIXTURES = FIXTURES / "cqs"
SUMMARY = json.loads((FIXTURES / "reference_labels" / "summary.json").read_text())
NAMES = sorted(p.stem for p in (FIXTURES / "submissions").glob("*.json"))
RUNS = {"similarity_0.6": ("sts", 0.6), "similarity_0.65": ("sts", 0.65), "chrf_30": ("chrf", 30.0)}

# the released data's vectors are encoded once per worker (conftest.shared_home)
pytestmark = [pytest.mark.usefixtures("shared_home"), pytest.mark.xdist_group("cqs-released")]


@pytest.fixture(scope="module")
def dev(request):
    from tests.conftest import CQS_DEV

    if not CQS_DEV.exists():
        pytest.skip(f"shared data not found at {CQS_DEV}")
    return load_cq_dataset(CQS_DEV)


@pytest.fixture(scope="module")
def evaluators():
    built = {}

    def get(name: str, threshold: float):
        if (name, threshold) not in built:
            built[name, threshold] = create("evaluator", task="cqs", name=name, threshold=threshold)
        return built[name, threshold]

    return get


def _reference(run: str, name: str) -> dict:
    return json.loads((FIXTURES / "reference_labels" / f"{run}_{name}.json").read_text())


def _labels_by_intervention(reference: dict, scored: set[str]) -> dict[str, object]:
    return {
        key: entry["cqs"] if entry["cqs"] == "Missing CQs" else [q["label"] for q in entry["cqs"]]
        for key, entry in reference.items()
        if key in scored
    }


@pytest.mark.slow
@pytest.mark.parametrize("run", sorted(RUNS))
@pytest.mark.parametrize("name", NAMES)
def test_labels_and_score_equal_the_benchmark_scripts(dev, evaluators, run, name):
    evaluator_name, threshold = RUNS[run]
    submission = load_submission(FIXTURES / "submissions" / f"{name}.json")
    [result] = evaluators(evaluator_name, threshold).evaluate(dev, [submission], skip_unknown=True)
    ours = {
        r["intervention_id"]: r["cqs"]
        if r["cqs"] == "Missing CQs"
        else [q["label"] for q in r["cqs"]]
        for r in result.records()
    }
    assert ours == _labels_by_intervention(_reference(run, name), set(dev.interventions))
    golden = SUMMARY[f"{run}_{name}"]
    assert result.score == pytest.approx(golden["overall"], abs=1e-12)
    counted = {k: v for k, v in result.summary["labels"].items() if v}
    assert counted == golden["labels"]
    # the script's results table: Useful over all labels
    assert result.summary["useful_rate"] == pytest.approx(
        golden["labels"].get("Useful", 0) / sum(golden["labels"].values())
    )
    # the distribution of intervention scores, as the script prints it
    scores = {}
    for item in result.items:
        scores[item.score] = scores.get(item.score, 0) + 1
    expected = {float(k): v for k, v in golden["punctuations"].items()}
    assert sorted(scores.values()) == sorted(expected.values())
    assert sorted(scores) == pytest.approx(sorted(expected))


def test_every_fixture_shape_has_reference_labels():
    for run in RUNS:
        for name in NAMES:
            assert (FIXTURES / "reference_labels" / f"{run}_{name}.json").exists()
    # the shapes the real submissions came in are all there
    assert {"same_ids", "empty_question", "empty_cqs", "padded", "identical_three", "tie"} <= set(
        NAMES
    )


def test_the_tie_fixture_really_ties_and_the_first_reference_wins(dev):
    reference = _reference("similarity_0.6", "tie")
    ties = 0
    for key, entry in reference.items():
        refs = dev.interventions[key].cqs
        for q in entry["cqs"]:
            labels = [r.label for r in refs if r.cq == q["cq"]]
            assert len(labels) > 1  # the same text appears more than once
            ties += len(set(labels)) > 1
            assert q["label"] == labels[0]  # the first one wins, as np.argmax does
    assert ties >= 3
