"""Repeated FOCUS generations, one seed each, scored as the paper's Table 23 reports
its models: micro and macro precision, recall and F1 as mean ± standard deviation over
the runs (the paper: three runs, seeds 42, 43, 44).

Run *i* (from 0) uses seed S + i, S being ``--seed``, so ``--seed 42 --runs 3`` gives
the paper's seeds. A generator that takes no seed (the model-free ones) gives the same
output every run; that is said, not hidden behind a standard deviation of 0.

The standard deviation is the sample one (n − 1 in the denominator; the paper does not
say which it used). Scores are those of ``evaluate focus`` with the None class, in both
of its modes (see ``classification``).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.table import Table

from maieutic.signature import Signature
from maieutic.tasks.focus.classification import MODES, classification_scores
from maieutic.tasks.focus.type_labels import FocusSet

COLUMNS = (
    ("micro", "precision"),
    ("macro", "precision"),
    ("micro", "recall"),
    ("macro", "recall"),
    ("micro", "f1"),
    ("macro", "f1"),
)
"""Table 23's columns, in its order."""


def run_path(out: str | Path, index: int) -> Path:
    """The file run ``index`` (from 0) is written to: ``OUT-run1.jsonl`` …"""
    path = Path(out)
    return path.with_name(f"{path.stem}-run{index + 1}{path.suffix}")


def has_gold_types(dataset: FocusSet) -> bool:
    """Whether the arguments carry gold types to score against (any argument labelled)."""
    return any(item.labels for item in dataset.items.values())


def run_scores(gold: FocusSet, *, predictions: FocusSet) -> dict[str, dict[str, float]]:
    """One run's micro/macro P/R/F1 (with the None class) per mode, keyed
    ``"micro_precision"`` …"""
    pairs = [(item, predictions.items[key]) for key, item in gold.items.items()]
    out = {}
    for mode in MODES:
        scores = classification_scores(pairs, mode)["with_none"]
        out[mode] = {f"{avg}_{metric}": scores[avg][metric] for avg, metric in COLUMNS}
    return out


def mean_sd(values: Sequence[float]) -> dict[str, float | None]:
    """Mean and sample standard deviation (None for a single value)."""
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.stdev(values) if len(values) > 1 else None,
    }


def summarise(per_run: Sequence[dict[str, dict[str, float]]]) -> dict[str, dict[str, Any]]:
    """Per mode and score: mean ± sd over the runs."""
    return {
        mode: {key: mean_sd([run[mode][key] for run in per_run]) for key in per_run[0][mode]}
        for mode in per_run[0]
    }


def runs_signature(signature: Signature, seeds: Sequence[int] | None, n_runs: int) -> Signature:
    """The generation's signature with the runs and their seeds (none: no seed taken)."""
    seeds_text = f"{seeds[0]}..{seeds[-1]}" if seeds else "none"
    extra = {**signature.extra, "runs": n_runs, "seeds": seeds_text, "scores": "with-none"}
    return replace(signature, seed=None, extra=extra)


def runs_table(summary: dict[str, dict[str, Any]], n_runs: int) -> Table:
    """Table 23's layout: one row per mode, mean ± sd per column."""
    table = Table(
        title=f"focus · {n_runs} runs, mean ± sd (Table 23 columns)", title_justify="left"
    )
    table.add_column("mode")
    for avg, metric in COLUMNS:
        name = {"precision": "P", "recall": "R", "f1": "F1"}[metric]
        table.add_column(f"{avg.capitalize()} {name}", justify="right")
    for mode, scores in summary.items():
        cells = []
        for avg, metric in COLUMNS:
            found = scores[f"{avg}_{metric}"]
            sd = "–" if found["sd"] is None else f"{found['sd']:.4f}"
            cells.append(f"{found['mean']:.4f} ± {sd}")
        table.add_row(mode, *cells)
    return table
