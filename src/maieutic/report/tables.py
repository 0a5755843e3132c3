"""Rich tables for critical-question evaluation results."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from maieutic.tasks.cqs.evaluate import CQEvaluation
from maieutic.tasks.cqs.runs import group_runs, summarize_runs
from maieutic.tasks.cqs.scoring import ALL_LABELS


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 4) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def summary_table(result: CQEvaluation) -> Table:
    """One submission's figures, one per row."""
    s = result.summary
    table = Table(title=f"cqs · {result.submission}", show_header=False, title_justify="left")
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right")
    table.add_row("overall score", _num(s["overall"]))
    table.add_row("interventions evaluated", str(s["n_interventions"]))
    table.add_row("  of which Missing CQs", str(s["n_missing_cqs"]))
    table.add_row("  ids not in references (skipped)", str(s["n_unknown_skipped"]))
    table.add_row("reference interventions not submitted", str(s["n_not_submitted"]))
    table.add_row("questions", str(s["n_questions"]))
    for label in ALL_LABELS:
        table.add_row(f"  {label}", str(s["labels"][label]))
    table.add_row("Useful rate", _pct(s["useful_rate"]))
    table.add_row("NAE rate", _pct(s["nae_rate"]))
    scores = ", ".join(f"{k}: {v}" for k, v in s["intervention_scores"].items())
    table.add_row("intervention scores", scores or "—")
    table.add_row("interventions flagged", str(s["n_flagged"]))
    for subset in ("all", "useful"):
        div = s["diversity"][subset]
        table.add_row(
            f"diversity ({subset}): n-gram sum / CR-div",
            f"{_num(div['ngram']['sum'], 3)} / {_num(div['cr_div'], 3)}",
        )
    return table


def leaderboard_table(results: Sequence[CQEvaluation]) -> Table:
    """Several submissions ranked by overall score."""
    table = Table(title="cqs leaderboard", title_justify="left")
    for name, justify in [
        ("#", "right"),
        ("submission", "left"),
        ("overall", "right"),
        ("Useful", "right"),
        ("NAE", "right"),
        ("missing", "right"),
        ("flagged", "right"),
        ("CR-div", "right"),
    ]:
        # submission names stay on one line; the table grows instead
        table.add_column(name, justify=justify, no_wrap=name == "submission")  # type: ignore[arg-type]
    ranked = sorted(results, key=lambda r: -(r.overall if r.overall is not None else -1))
    for rank, r in enumerate(ranked, start=1):
        s = r.summary
        table.add_row(
            str(rank),
            r.submission,
            _num(r.overall),
            _pct(s["useful_rate"]),
            _pct(s["nae_rate"]),
            str(s["n_missing_cqs"]),
            str(s["n_flagged"]),
            _num(s["diversity"]["all"]["cr_div"], 3),
        )
    return table


def _mean_std(summary: dict, key: str, scale: float = 1.0, digits: int = 4) -> str:
    if key not in summary:
        return "—"
    mean, std = summary[key]["mean"], summary[key]["std"]
    return f"{scale * mean:.{digits}f} ± {scale * std:.{digits}f}"


def runs_table(results: Sequence[CQEvaluation]) -> Table | None:
    """Mean ± std over repeated runs (submissions named NAME-run1, NAME-run2, …)."""
    groups = group_runs(results)
    if not groups:
        return None
    table = Table(title="mean ± std over runs", title_justify="left")
    for name in ("system", "runs", "overall", "Useful", "NAE"):
        table.add_column(name, justify="left" if name == "system" else "right")
    for name, runs in sorted(groups.items()):
        s = summarize_runs(runs)
        table.add_row(
            name,
            str(len(runs)),
            _mean_std(s, "overall"),
            _mean_std(s, "useful_rate", 100, 1),
            _mean_std(s, "nae_rate", 100, 1),
        )
    return table


def print_results(results: Sequence[CQEvaluation], console: Console | None = None) -> None:
    """Print a summary (one submission) or a leaderboard (several), then the signature."""
    # piped output (files, CI logs) gets room for the full table instead of 80 columns
    console = console or Console(soft_wrap=True, width=None if sys.stdout.isatty() else 120)
    if len(results) == 1:
        console.print(summary_table(results[0]))
    else:
        console.print(leaderboard_table(results))
        if (table := runs_table(results)) is not None:
            console.print(table)
    if results:
        console.print(f"signature: {results[0].signature}", highlight=False)
