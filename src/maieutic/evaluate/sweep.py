"""Threshold sweeps: agreement with people at each threshold, and the one to choose.

Any evaluator that compares a score with a threshold can be swept: the caller gives
the human labels and a function that labels every item at a threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from maieutic.evaluate.agreement import agreement_report

SWEEP_FIGURES = ("kappa_nae_kept", "kappa_nae_dropped", "nae_rate", "n_labelled", "n_unscored")


def sweep_thresholds(
    human: Sequence[str],
    label_at: Callable[[float], Sequence[str]],
    thresholds: Sequence[float],
    *,
    labels: Sequence[str],
    abstain: str,
) -> list[dict[str, Any]]:
    """One row per threshold: kappas, abstention rate and counts."""
    rows = []
    for t in thresholds:
        report = agreement_report(human, predicted=label_at(t), labels=labels, abstain=abstain)
        rows.append({"threshold": round(float(t), 6), **{k: report[k] for k in SWEEP_FIGURES}})
    return rows


def balance(row: dict[str, Any]) -> float:
    """Agreement on the items an evaluator labels, weighted by the share it labels:
    κ(abstentions dropped) × (1 − abstention rate)."""
    kappa = row["kappa_nae_dropped"]
    return -np.inf if kappa is None else kappa * (1 - row["nae_rate"])


def choose_threshold(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The row with the best ``balance`` (appendix C of "Benchmarking Critical
    Questions Generation" weighs agreement against coverage); ties go to the lower
    threshold."""
    if not rows:
        raise ValueError("no thresholds were swept")
    best = max(rows, key=lambda r: (balance(r), -r["threshold"]))
    return {**best, "balance": balance(best)}
