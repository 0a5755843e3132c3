"""Agreement between automatic and human pairwise preferences: does an automatic metric
prefer the question set the human majority prefers, and how often does a random
annotator side with the automatic choice? (The analysis of a question-set paper's
human study; the task that uses it cites the sections.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.stats._errors import UndefinedStatistic


@dataclass(frozen=True)
class PreferenceItem:
    """One comparison of two question sets, "A" and "B".

    ``scores`` maps a metric name to its (score of A, score of B); ``votes`` are the
    individual human choices, each "A" or "B".
    """

    scores: Mapping[str, tuple[float, float]]
    votes: Sequence[str]


def _choice(a: float, b: float) -> str | None:
    return "A" if a > b else "B" if b > a else None


def _majority(votes: Sequence[str]) -> str | None:
    n_a = sum(v == "A" for v in votes)
    n_b = len(votes) - n_a
    return "A" if n_a > n_b else "B" if n_b > n_a else None


def preference_agreement(items: Sequence[PreferenceItem], aggregate: str = "vote") -> dict:
    """Sign agreement of each metric and of the aggregate with the human majority, and
    P(random annotator agrees with the automatic choice | it matches / misses the majority).

    The aggregate choice is the majority of the per-metric choices (``"vote"``) or the
    comparison of summed scores (``"sum"``). Items whose human vote is tied are
    skipped (and counted); a metric tie counts as disagreement.
    """
    if aggregate not in ("vote", "sum"):
        raise ValueError("aggregate must be 'vote' or 'sum'")
    usable = [(item, _majority(item.votes)) for item in items]
    tied = sum(m is None for _, m in usable)
    usable = [(item, m) for item, m in usable if m is not None]
    if not usable:
        raise UndefinedStatistic("no item has a human majority")
    metrics = sorted({name for item, _ in usable for name in item.scores})
    per_metric = {}
    for name in metrics:
        hits = sum(_choice(*item.scores[name]) == m for item, m in usable if name in item.scores)
        n = sum(name in item.scores for item, _ in usable)
        per_metric[name] = {"agree": hits, "n": n, "proportion": hits / n}
    agree_rates, disagree_rates, hits = [], [], 0
    for item, majority in usable:
        if aggregate == "sum":
            auto = _choice(
                sum(s[0] for s in item.scores.values()), sum(s[1] for s in item.scores.values())
            )
        else:
            auto = _majority([c for c in (_choice(*s) for s in item.scores.values()) if c])
        share = sum(v == auto for v in item.votes) / len(item.votes) if auto else 0.0
        if auto == majority:
            hits += 1
            agree_rates.append(share)
        else:
            disagree_rates.append(share)
    return {
        "n_items": len(usable),
        "n_tied_skipped": tied,
        "per_metric": per_metric,
        "aggregate": {"agree": hits, "n": len(usable), "proportion": hits / len(usable)},
        "p_annotator_agrees_given_agree": float(np.mean(agree_rates)) if agree_rates else None,
        "p_annotator_agrees_given_disagree": (
            float(np.mean(disagree_rates)) if disagree_rates else None
        ),
    }
