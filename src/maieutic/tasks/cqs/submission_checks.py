"""Checks on a submission against the dataset it is scored on."""

from __future__ import annotations

from maieutic.errors import DataError
from maieutic.tasks.cqs.data import CQDataset, Submission


def check_not_references(submission: Submission, dataset: CQDataset) -> None:
    """Refuse a "submission" whose questions are the dataset's own reference questions:
    the labelled dataset given in place of a submission (scoring it says nothing)."""
    compared = [
        (entry.cqs, dataset.interventions[key].cqs)
        for key, entry in submission.entries.items()
        if entry.cqs and key in dataset.interventions
    ]
    if compared and all(
        [q.cq.strip() for q in mine] == [r.cq for r in refs] for mine, refs in compared
    ):
        raise DataError(
            "its questions are the reference questions of --data: this is the labelled "
            "dataset, not a submission — were --data and the submission swapped?",
            where=submission.source,
        )
