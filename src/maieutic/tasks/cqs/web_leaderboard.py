"""The critical-questions page of the web app's Leaderboard: a labelled dataset and
submissions, scored by the evaluators that need no language model (the reference
evaluators and the shipped usefulness judge)."""

from __future__ import annotations

from typing import Any

from maieutic.tasks.cqs.data import CQDataset, Submission
from maieutic.tasks.cqs.evaluate import check_ids
from maieutic.web.hooks import LeaderboardPage


def _check_ids(dataset: CQDataset, submission: Submission, skip_unknown: bool, /) -> None:
    # the page's check_ids hook is called by position (web/leaderboard.py)
    check_ids(dataset, submission, skip_unknown=skip_unknown)


def _describe(dataset: Any) -> str:
    return f"{len(dataset.interventions)} interventions"


LEADERBOARD = LeaderboardPage(
    heading="Critical-questions leaderboard",
    evaluators={
        # short enough to show whole in a phone's drop-down (a test measures it at 390 px)
        "sts": "sts — reference similarity (default)",
        "chrf": "chrf — character overlap (no model)",
        "usefulness": "usefulness — judge, no references",
    },
    describe=_describe,
    check_ids=_check_ids,
)
