"""Preference between two question sets on one document ("AURA-QG", section 3 and
appendix C): per metric, by the majority of the four metrics, and by their mean.

Agreement of these preferences with human votes (``maieutic.stats.preference``,
``meta-eval aura-preferences``) follows the paper's sections 6.1 and 6.5."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from maieutic.evaluate.result import EvalResult
from maieutic.tasks.aura.evaluate import METRICS


def _choice(a: float, b: float) -> int:
    """1 when the first is higher, 2 when the second is, 0 on a tie."""
    return 1 if a > b else 2 if b > a else 0


def preference(first: EvalResult, *, second: EvalResult) -> dict[str, Any]:
    """Which set each metric prefers, the majority of the four (a 2–2 split or ties:
    no preference), and the set with the higher mean."""
    per_metric = {m: _choice(first.summary[m], second.summary[m]) for m in METRICS}
    wins = [sum(v == side for v in per_metric.values()) for side in (1, 2)]
    majority = _choice(wins[0], wins[1])
    mean = _choice(first.score or 0.0, second.score or 0.0)
    names = {0: None, 1: first.submission, 2: second.submission}
    return {
        "per_metric": per_metric,
        "majority": majority,
        "majority_name": names[majority],
        "mean": mean,
        "mean_name": names[mean],
    }


def compare_table(first: EvalResult, *, second: EvalResult, verdict: dict[str, Any]) -> Table:
    """The two sets side by side with the preferred one per row."""
    table = Table(title="aura · compare", title_justify="left")
    for header in ("metric", first.submission, second.submission, "preferred"):
        table.add_column(header, justify="left" if header == "metric" else "right")
    names = {0: "tie", 1: first.submission, 2: second.submission}
    for metric in METRICS:
        table.add_row(
            metric,
            f"{first.summary[metric]:.3f}",
            f"{second.summary[metric]:.3f}",
            names[verdict["per_metric"][metric]],
        )
    table.add_row("majority of metrics", "", "", names[verdict["majority"]])
    table.add_row("mean", f"{first.score:.3f}", f"{second.score:.3f}", names[verdict["mean"]])
    table.caption = str(first.signature)
    return table
