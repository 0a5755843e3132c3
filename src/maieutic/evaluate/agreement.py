"""Agreement of an evaluator's labels with human labels, for any task with categories.

An evaluator may abstain (critical questions: ``not_able_to_evaluate``) or leave an
item unscored (an LLM judge whose reply failed or could not be parsed). Items still
labelled unscored here are left out and counted (a caller that reads them as
abstentions, as the critical-questions task does by default, relabels them first);
abstentions are kept as their own
class in one kappa and dropped in the other, as "Benchmarking Critical Questions
Generation" (section 6.1) reports both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

from maieutic.stats import UndefinedStatistic, cohen_kappa

UNSCORED = "unscored"


def kappa_or_none(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa, or None where it is undefined (one category, nothing paired)."""
    try:
        return cohen_kappa(a, b)
    except UndefinedStatistic:
        return None


def agreement_report(
    human: Sequence[str],
    *,
    predicted: Sequence[str],
    labels: Sequence[str],
    abstain: str,
    unscored: str = UNSCORED,
) -> dict[str, Any]:
    """Kappa with abstentions kept and dropped, the abstention rate, the confusion
    matrix (rows: human ``labels``; columns: ``labels`` and ``abstain``) and counts."""
    pairs = list(zip(human, predicted, strict=True))
    kept = [(h, p) for h, p in pairs if p != unscored]
    dropped = [(h, p) for h, p in kept if p != abstain]
    counts = Counter(kept)

    def kappa(rows: list[tuple[str, str]]) -> float | None:
        return kappa_or_none([h for h, _ in rows], [p for _, p in rows]) if rows else None

    return {
        "n": len(kept),
        "n_unscored": len(pairs) - len(kept),
        "kappa_nae_kept": kappa(kept),
        "kappa_nae_dropped": kappa(dropped),
        "n_labelled": len(dropped),
        "nae_rate": 1 - len(dropped) / len(kept) if kept else None,
        "confusion": {h: {p: counts.get((h, p), 0) for p in (*labels, abstain)} for h in labels},
    }
