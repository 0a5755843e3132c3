"""Agreement between automatic and human pairwise preferences: does an automatic metric
prefer the question set the human majority prefers, and how often does a random
annotator side with the automatic choice? (The analysis of a question-set paper's
human study; the task that uses it cites the sections.)

Tie rules, stated once here and printed by the commands that use them:

- human votes tied: the tie-breaker annotator's vote decides when the item has one (as
  the paper that defines this analysis resolves ties); without one the item is skipped
  and counted in ``n_tied_skipped``. The tie-breaker's vote only settles the majority:
  P(annotator agrees) is taken over the item's own annotators;
- a metric scoring both sets equally prefers neither: it does not agree (the analysis
  counts how often a metric gives the human-preferred set a *higher* score), and the
  tie is counted in ``metric_ties``;
- the aggregate tied (sums within 1e-9 of each other, so that float rounding never
  decides; for ``vote``, as many metrics for each set): no pipeline choice, counted as
  not agreeing and in ``aggregate.ties``, and left out of both conditional
  probabilities (there is no choice for an annotator to agree with).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.stats._errors import UndefinedStatistic

AGGREGATES = ("sum", "vote")
"""How the metrics make one pipeline choice: ``sum`` — the set with the higher sum
(equivalently, mean) of the metric scores; ``vote`` — the set more metrics prefer."""

SUM_TIE_TOLERANCE = 1e-9
"""Sums closer than this are a tie (metric scores lie in [0, 1])."""


@dataclass(frozen=True)
class PreferenceItem:
    """One comparison of two question sets, "A" and "B".

    ``scores`` maps a metric name to its (score of A, score of B); ``votes`` are the
    individual human choices, each "A" or "B"; ``tie_breaker`` is the choice of the
    annotator asked only when the votes tie.
    """

    scores: Mapping[str, tuple[float, float]]
    votes: Sequence[str]
    tie_breaker: str | None = None


def _choice(a: float, b: float) -> str | None:
    return "A" if a > b else "B" if b > a else None


def _majority(votes: Sequence[str]) -> str | None:
    n_a = sum(v == "A" for v in votes)
    n_b = len(votes) - n_a
    return "A" if n_a > n_b else "B" if n_b > n_a else None


def human_choice(item: PreferenceItem) -> tuple[str | None, bool]:
    """The human-preferred set and whether the tie-breaker decided it (None: the votes
    tie and there is no tie-breaker)."""
    majority = _majority(item.votes)
    if majority is not None:
        return majority, False
    return item.tie_breaker, item.tie_breaker is not None


def pipeline_choice(scores: Mapping[str, tuple[float, float]], aggregate: str) -> str | None:
    """The set the metrics prefer together (None on a tie); see ``AGGREGATES``."""
    if aggregate == "sum":
        total_a = math.fsum(s[0] for s in scores.values())
        total_b = math.fsum(s[1] for s in scores.values())
        if math.isclose(total_a, total_b, rel_tol=0.0, abs_tol=SUM_TIE_TOLERANCE):
            return None
        return _choice(total_a, total_b)
    return _majority([c for c in (_choice(*s) for s in scores.values()) if c])


def _per_metric(usable: list[tuple[PreferenceItem, str]]) -> tuple[dict, dict]:
    """Each metric's agreement with the human choice, and how often it tied."""
    per_metric, ties = {}, {}
    for name in sorted({name for item, _ in usable for name in item.scores}):
        chosen = [(_choice(*item.scores[name]), m) for item, m in usable if name in item.scores]
        hits = sum(c == m for c, m in chosen)
        per_metric[name] = {"agree": hits, "n": len(chosen), "proportion": hits / len(chosen)}
        ties[name] = sum(c is None for c, _ in chosen)
    return per_metric, ties


def preference_agreement(items: Sequence[PreferenceItem], aggregate: str = "vote") -> dict:
    """Sign agreement of each metric and of the aggregate with the human majority, and
    P(random annotator agrees with the automatic choice | it matches / misses the
    majority). ``aggregate`` is one of ``AGGREGATES``; ties follow the module's rules."""
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {', '.join(AGGREGATES)}")
    decided = [(item, *human_choice(item)) for item in items]
    tied = sum(m is None for _, m, _ in decided)
    usable = [(item, m) for item, m, _ in decided if m is not None]
    if not usable:
        raise UndefinedStatistic("no item has a human majority")
    per_metric, metric_ties = _per_metric(usable)
    agree_rates, disagree_rates, hits, aggregate_ties = [], [], 0, 0
    for item, majority in usable:
        auto = pipeline_choice(item.scores, aggregate)
        if auto is None:
            aggregate_ties += 1
            continue
        share = sum(v == auto for v in item.votes) / len(item.votes)
        if auto == majority:
            hits += 1
            agree_rates.append(share)
        else:
            disagree_rates.append(share)
    return {
        "n_items": len(usable),
        "n_tied_skipped": tied,
        "n_tie_broken": sum(broken for _, m, broken in decided if m is not None),
        "aggregate_rule": aggregate,
        "per_metric": per_metric,
        "metric_ties": metric_ties,
        "aggregate": {
            "agree": hits,
            "n": len(usable),
            "proportion": hits / len(usable),
            "ties": aggregate_ties,
        },
        "p_annotator_agrees_given_agree": float(np.mean(agree_rates)) if agree_rates else None,
        "p_annotator_agrees_given_disagree": (
            float(np.mean(disagree_rates)) if disagree_rates else None
        ),
    }
