"""The core recognises maieutic's own files; a task recognises its formats through
``maieutic.data.kinds.add_classifier`` (the critical-questions task: its dataset, and a
submission given where the dataset belongs)."""

from __future__ import annotations

import maieutic.tasks.cqs  # noqa: F401  (registers its classifier)
from maieutic.data import kinds

DATASET = {"A": {"intervention_id": "A", "intervention": "We must act.",
                 "cqs": [{"id": "1", "cq": "Why?", "label": "Useful"}]}}  # fmt: skip
SUBMISSION = {"A": {"intervention_id": "A", "cqs": [{"id": "1", "cq": "Why?"}]}}


def test_maieutic_files_are_recognised_by_the_core():
    assert kinds.json_kind({"format": "maieutic.results/1"}) == kinds.RESULTS
    assert kinds.json_kind({"format": "maieutic.generation/1"}) == kinds.GENERATION_RECORD
    assert kinds.json_kind([1, 2]) == kinds.OTHER


def test_a_task_recognises_its_own_formats():
    assert kinds.json_kind(DATASET) == kinds.LABELLED_DATASET
    assert kinds.json_kind(SUBMISSION) == kinds.UNLABELLED_RECORDS
    assert kinds.json_kind({"x": {"y": 1}}) == kinds.OTHER
    message = kinds.mixup_message(kinds.json_kind(SUBMISSION), expected="a labelled dataset")
    assert message and "swapped" in message


def test_a_classifier_is_added_once():
    before = list(kinds._CLASSIFIERS)
    kinds.add_classifier(before[0])
    assert before == kinds._CLASSIFIERS
