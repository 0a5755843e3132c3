"""What a task hands the web app: the Leaderboard page it offers, registered with
``LEADERBOARDS.add(name, LeaderboardPage(...))`` when the task's package is imported.

The app names no task: it serves the page of the first registered task that offers
one. This module imports nothing of the app (no FastAPI), so a task declares its page
at no cost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from maieutic.registry import HookTable


@dataclass(frozen=True)
class LeaderboardPage:
    """A task's Leaderboard page: upload labelled data and submissions, score them."""

    heading: str
    """The page's heading."""
    evaluators: dict[str, str]
    """The evaluators offered (those that need no language model), name → what the
    form shows; the first is the default."""
    describe: Callable[[Any], str]
    """The labelled data in a few words, for the result's heading ("3 interventions")."""
    _: KW_ONLY
    check_ids: Callable[[Any, Any, bool], Any]
    """``(reference, submission, skip_unknown)``: refuses (``DataError``) a submission
    with ids absent from the reference unless ``skip_unknown``, before any model work."""


LEADERBOARDS: HookTable[LeaderboardPage] = HookTable("web")
"""The Leaderboard pages the tasks offer, by task name."""
