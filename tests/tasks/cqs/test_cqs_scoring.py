"""Hand-worked labels and scores: threshold equality, NAE, Missing CQs, count flags."""

from __future__ import annotations

import pytest

from maieutic.errors import DataError
from maieutic.tasks.cqs.data import (
    CQDataset,
    Intervention,
    ReferenceQuestion,
    Submission,
    SubmissionEntry,
    SubmittedQuestion,
)
from maieutic.tasks.cqs.evaluate import CQEvaluator, official_layout
from maieutic.tasks.cqs.matchers import Match
from maieutic.tasks.cqs.scoring import MISSING, NAE, label_for


class TableMatcher:
    """A matcher whose answers are written in the test: question text -> (ref index, sim)."""

    name = "table"

    def __init__(self, table: dict[str, tuple[int, float]]) -> None:
        self.table = table
        self.prepared: list[str] = []

    def prepare(self, items):
        self.prepared.extend(q for _, questions in items for q in questions)

    def match(self, intervention, questions):
        return [
            Match(reference_index=index, similarity=similarity)
            for index, similarity in (self.table[q] for q in questions)
        ]

    def signature_fields(self):
        return {"model": "table", "backend": None}


REFS = (
    ReferenceQuestion(id="r0", cq="useful ref", label="Useful"),
    ReferenceQuestion(id="r1", cq="unhelpful ref", label="Unhelpful"),
    ReferenceQuestion(id="r2", cq="invalid ref", label="Invalid"),
)
DATASET = CQDataset(
    interventions={
        "I1": Intervention(intervention_id="I1", intervention="text one", cqs=REFS),
        "I2": Intervention(intervention_id="I2", intervention="text two", cqs=REFS),
        "I3": Intervention(intervention_id="I3", intervention="text three", cqs=REFS),
    },
    source="refs.json",
)


def _entry(iid: str, *texts: str) -> SubmissionEntry:
    return SubmissionEntry(iid, tuple(SubmittedQuestion(str(i), t) for i, t in enumerate(texts)))


def evaluate_submissions(dataset, submissions, matcher, threshold=0.6, **kwargs):
    return CQEvaluator(matcher, threshold).evaluate(dataset, submissions, **kwargs)


def test_label_rule_is_strictly_greater_than_threshold():
    assert label_for(0.6, "Useful", 0.6) == NAE
    assert label_for(0.6000001, "Useful", 0.6) == "Useful"
    assert label_for(0.99, None, 0.6) == NAE


def test_hand_worked_run():
    # I1: sims 0.9 (Useful), 0.6 exactly (NAE: not strictly above), 0.7 (Invalid) -> 1/3
    # I2: Missing CQs -> 0, three missing_cqs labels
    # I3: four questions, all Useful -> 4/3 (uncapped, as the benchmark script), flagged
    matcher = TableMatcher(
        {
            "q-a": (0, 0.9),
            "q-b": (0, 0.6),
            "q-c": (2, 0.7),
            "u1": (0, 0.8),
            "u2": (0, 0.81),
            "u3": (0, 0.82),
            "u4": (0, 0.83),
        }
    )
    submission = Submission(
        entries={
            "I1": _entry("I1", "q-a", "q-b", "q-c"),
            "I2": SubmissionEntry("I2", None),
            "I3": _entry("I3", "u1", "u2", "u3", "u4"),
        },
        source="sub.json",
        name="sub",
    )
    [result] = evaluate_submissions(DATASET, [submission], matcher)
    by_id = {r.intervention_id: r for r in result.items}
    assert [q.label for q in by_id["I1"].questions] == ["Useful", NAE, "Invalid"]
    assert by_id["I1"].questions[2].best_reference_id == "r2"
    assert by_id["I1"].score == pytest.approx(1 / 3)
    assert by_id["I2"].labels == [MISSING] * 3
    assert by_id["I3"].score == pytest.approx(4 / 3)
    s = result.summary
    assert s["overall"] == pytest.approx((1 / 3 + 0 + 4 / 3) / 3)
    assert s["labels"] == {
        "Useful": 5,
        "Unhelpful": 0,
        "Invalid": 1,
        NAE: 1,
        MISSING: 3,
        "unscored": 0,
    }
    assert s["n_questions"] == 7
    # over all 10 labels, the 3 missing_cqs included, as the benchmark script's table
    assert s["nae_rate"] == pytest.approx(1 / 10)
    assert s["useful_rate"] == pytest.approx(5 / 10)
    assert s["intervention_scores"] == {"0": 1, "1/3": 1, "4/3": 1}
    assert s["n_missing_cqs"] == 1
    assert result.signature.threshold == 0.6
    assert result.score == pytest.approx(s["overall"])
    official = official_layout(result)
    assert official["I2"]["cqs"] == "Missing CQs"
    assert official["I1"]["cqs"][1] == {
        "id": "1",
        "cq": "q-b",
        "label": NAE,
        "best_reference_id": "r0",
        "similarity": 0.6,
        # the well-formedness flag rides beside the label ("q-b" is no question)
        "well_formed": False,
        "form_flaws": [
            "casing: does not start with a capital",
            "punctuation: does not end with a question mark",
        ],
    }
    assert official["I1"]["score"] == pytest.approx(1 / 3)


def test_threshold_override_changes_labels():
    matcher = TableMatcher({"q": (0, 0.62)})
    sub = Submission(entries={"I1": _entry("I1", "q")}, source="s.json")
    [low] = evaluate_submissions(DATASET, [sub], matcher, threshold=0.6)
    [high] = evaluate_submissions(DATASET, [sub], matcher, threshold=0.65)
    assert low.items[0].questions[0].label == "Useful"
    assert high.items[0].questions[0].label == NAE
    assert str(high.signature).count("thr:0.65") == 1


def test_duplicates_are_scored_as_the_script_does():
    matcher = TableMatcher({"Same?": (0, 0.9), "same? ": (0, 0.9), "other": (1, 0.9)})
    sub = Submission(entries={"I1": _entry("I1", "Same?", "same? ", "other")}, source="s.json")
    [result] = evaluate_submissions(DATASET, [sub], matcher)
    assert result.items[0].score == pytest.approx(2 / 3)


def test_unknown_ids_error_by_default_and_skip_on_request():
    matcher = TableMatcher({"q": (0, 0.9)})
    sub = Submission(
        entries={"I1": _entry("I1", "q"), "NOPE": _entry("NOPE", "q")}, source="s.json"
    )
    with pytest.raises(DataError, match="'NOPE': intervention id not in the reference data"):
        evaluate_submissions(DATASET, [sub], matcher)
    assert matcher.prepared == []  # checked before any matching work
    [result] = evaluate_submissions(DATASET, [sub], matcher, skip_unknown=True)
    assert result.summary["n_interventions"] == 1
    assert result.summary["n_unknown_skipped"] == 1
    assert result.summary["n_not_submitted"] == 2
    assert any("not in the references" in w for w in result.warnings)
