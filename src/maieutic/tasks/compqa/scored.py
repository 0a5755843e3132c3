"""The scored answers of one file and what made their scores: what every reader of
scored answers returns (``scored_files`` for answer and results JSON, ``human_scored``
for people's score files), kept below both so that neither imports the other for it."""

from __future__ import annotations

from dataclasses import dataclass, field

from maieutic.tasks.compqa.data import Answer


@dataclass(kw_only=True)
class ScoredFile:
    """The scored answers of one file and what made their scores."""

    answers: list[Answer]
    scored_by: list[str] = field(default_factory=list)
    """``OWN_SCORES``, each result's evaluator (``@model`` when it names one), or
    ``humans:…`` for people's score files."""
    notes: list[str] = field(default_factory=list)
    """Scores kept although above their criterion's maximum (people's files), to flag."""
    left_out: int = 0
    """People's rows left out as unscored or partly scored."""
