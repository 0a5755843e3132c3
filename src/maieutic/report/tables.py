"""Rich tables for evaluation results of any task: a summary for one submission, a
leaderboard for several, mean ± std over repeated runs. Every row shows the
signature of the number in it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.runs import group_runs, summarize_runs
from maieutic.tasks import Column, Task


def fmt(value: Any, pattern: str = "{:.4f}") -> str:
    """A value in ``pattern``, or a dash when there is none."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return pattern.format(value)


def _flat(prefix: str, value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [row for k, v in value.items() for row in _flat(f"{prefix}.{k}" if prefix else k, v)]
    return [(prefix, value)]


def summary_table(task: Task, result: EvalResult) -> Table:
    """One submission: its score, the task's columns, then every summary figure."""
    table = Table(
        title=f"{task.name} · {result.submission}", show_header=False, title_justify="left"
    )
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right", overflow="fold")
    table.add_row("score", fmt(result.score))
    for column in task.columns:
        table.add_row(column.header, fmt(column.value(result), column.fmt))
    view = task.summary_view(result) if task.summary_view else result.summary
    for key, value in _flat("", view):
        if key.startswith("diversity.") and ".per_question." in key:
            continue  # the per-question variant stays in the results file
        table.add_row(key, fmt(value, "{:.4g}" if isinstance(value, float) else "{}"))
    table.add_row("signature", str(result.signature))
    return table


def leaderboard_table(task: Task, results: Sequence[EvalResult]) -> Table:
    """Several submissions ranked by score, each row with its own signature."""
    table = Table(title=f"{task.name} leaderboard", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("submission", no_wrap=True)
    table.add_column("score", justify="right")
    for column in task.columns:
        table.add_column(column.header, justify="right")
    table.add_column("signature", overflow="fold")
    ranked = sorted(results, key=lambda r: -(r.score if r.score is not None else -1))
    for rank, r in enumerate(ranked, start=1):
        cells = [fmt(c.value(r), c.fmt) for c in task.columns]
        table.add_row(str(rank), r.submission, fmt(r.score), *cells, str(r.signature))
    return table


def runs_table(task: Task, results: Sequence[EvalResult]) -> Table | None:
    """Mean ± std over repeated runs (submissions named NAME-run1, NAME-run2, …)."""
    groups = group_runs(results)
    if not groups:
        return None
    table = Table(title="mean ± std over runs", title_justify="left")
    figures = ("score", *task.run_figures)
    for name in ("system", "runs", *figures, "signature"):
        table.add_column(name, justify="left" if name in ("system", "signature") else "right")
    for name, runs in sorted(groups.items()):
        s = summarize_runs(runs, task.run_figures)
        cells = [f"{s[f]['mean']:.4f} ± {s[f]['std']:.4f}" if f in s else "—" for f in figures]
        signatures = {str(r.signature) for r in runs}
        table.add_row(name, str(len(runs)), *cells, " / ".join(sorted(signatures)))
    return table


def legend(task: Task) -> list[str]:
    """One line per leaderboard column saying what it measures."""
    lines = [f"score: {task.score_description or 'the task headline figure'}"]
    lines += [f"{c.header}: {c.description}" for c in task.columns if c.description]
    return lines


def print_results(
    task: Task, results: Sequence[EvalResult], console: Console, *, explain: bool = False
) -> None:
    """A summary (one submission) or a leaderboard (several) and repeated-run table."""
    if len(results) == 1:
        console.print(summary_table(task, results[0]))
    elif results:
        console.print(leaderboard_table(task, results))
        if (table := runs_table(task, results)) is not None:
            console.print(table)
    if explain:
        for line in legend(task):
            console.print(line, highlight=False)


__all__ = ["Column", "fmt", "leaderboard_table", "print_results", "runs_table", "summary_table"]
