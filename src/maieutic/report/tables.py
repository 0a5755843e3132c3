"""Rich tables for evaluation results of any task: a short summary for one submission,
a leaderboard for several, mean ± std over repeated runs. Each table is followed by
the signature (once, or the part that differs per row), a legend line for every figure
shown, why a figure is missing where one is, and where the full results went."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from maieutic.core import Column, Task
from maieutic.evaluate.compare import TopMarks, top_marks
from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.runs import group_runs, summarize_runs

SAME = "≈"
"""Marks a result not significantly different from the top one."""
UNRANKED = "—"
"""The rank cell of a result without a score: it is listed, never numbered."""


def fmt(value: Any, pattern: str = "{:.4f}") -> str:
    """A value in ``pattern``, or a dash when there is none."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    text = pattern.format(value)
    # a figure that rounds to zero is shown as 0, never "-0.000" (an entropy of one
    # cluster computes as -0.0)
    if text.startswith("-") and isinstance(value, int | float) and text[1:] == pattern.format(0):
        return text[1:]
    return text


def score_column(task: Task) -> Column:
    """The headline score as a column, with the task's description of it."""
    return Column(
        "score",
        lambda r: r.score,
        "{:.4f}",
        description=task.score_description or "the task's headline figure",
    )


def summary_columns(task: Task, result: EvalResult) -> list[Column]:
    """The rows of a one-submission summary: the score, then the task's headline figures
    (those it shows for ``result``)."""
    rows = task.summary_rows if task.summary_rows is not None else task.columns
    return [score_column(task), *(c for c in rows if c.shown is None or c.shown(result))]


def unscored_reason(task: Task | None, result: EvalResult) -> str:
    """Why ``result`` has no score, in one line (``task`` None: one this version does
    not know, so only the general reason)."""
    if task is not None and task.unscored_reason is not None:
        return task.unscored_reason(result)
    return "the evaluator left the score undefined (the results file says what was scored)"


def _legend_line(column: Column, results: Sequence[EvalResult]) -> str:
    """``header: meaning``, and why it is missing when a shown value is missing (the
    score's reason, which depends on the result, is the caller's)."""
    line = f"{column.header}: {column.description}"
    if column.empty and any(column.value(r) is None for r in results):
        return f"{line} — empty: {column.empty}"
    return line


def summary_table(task: Task, result: EvalResult) -> Table:
    """One submission: the score and the task's few headline figures (legend below)."""
    table = Table(
        title=f"{task.name} · {result.submission}", show_header=False, title_justify="left"
    )
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right", overflow="fold")
    for column in summary_columns(task, result):
        table.add_row(column.header, fmt(column.value(result), column.fmt))
    return table


def summary_notes(task: Task, result: EvalResult) -> list[str]:
    """The lines under a summary: signature, one legend line per row, and why the score
    is missing when it is."""
    score, *rows = summary_columns(task, result)
    line = f"score: {score.description}"
    if result.score is None:
        line += f" — empty: {unscored_reason(task, result)}"
    lines = [f"signature: {result.signature}", line]
    return lines + [_legend_line(c, [result]) for c in rows if c.description]


def ranked(results: Sequence[EvalResult]) -> list[tuple[int | None, EvalResult]]:
    """Results by score, highest first (ties keep the input order), numbered from 1;
    those without a score after them, in input order, with no number."""
    scored = sorted((r for r in results if r.score is not None), key=lambda r: -r.score)
    rows: list[tuple[int | None, EvalResult]] = list(enumerate(scored, start=1))
    return rows + [(None, r) for r in results if r.score is None]


def _signature_parts(results: Sequence[EvalResult]) -> tuple[list[str], list[list[str]]]:
    """The ``key:value`` parts every signature shares, and each one's other parts."""
    parts = [str(r.signature).split("|") for r in results]
    shared = [p for p in parts[0] if all(p in other for other in parts[1:])]
    return shared, [[p for p in own if p not in shared] for own in parts]


def marks_against_top(task: Task, results: Sequence[EvalResult]) -> TopMarks | str:
    """Each scored result tested against the top one (paired, seeded), or why not."""
    return top_marks(results, task.paired_units)


def top_cell(marks: TopMarks | str, result: EvalResult) -> str:
    """The ``vs #1`` cell: ``≈ p 0.31`` when not significantly below the top one,
    ``p 0.0020`` when it is, empty for the top one and for unscored results."""
    if isinstance(marks, str):
        return ""
    found = marks.tests.get(id(result))
    if found is None:
        return ""
    p = found.test.p_value
    return f"{SAME} p {p:.4f}" if not found.significant else f"p {p:.4f}"


def top_note(marks: TopMarks | str) -> str | None:
    """The legend line of the ``vs #1`` column, or why the column is not shown."""
    if isinstance(marks, str):
        if marks.startswith("fewer than two"):
            return None
        return f"vs #1: no paired test — {marks}"
    return (
        f"vs #1: approximate-randomization p-value against {marks.top.submission} (#1); "
        f"{SAME}: not significantly different from #1 ({marks.method}; "
        "maieutic compare gives intervals and every pair)"
    )


def leaderboard_table(
    task: Task, results: Sequence[EvalResult], marks: TopMarks | str | None = None
) -> Table:
    """Several submissions ranked by score; a ``vs #1`` column when ``marks`` has the
    tests against the top one; a signature column only when signatures differ."""
    _, own = _signature_parts(results)
    differ = any(own)
    tested = marks is not None and not isinstance(marks, str)
    table = Table(title=f"{task.name} leaderboard", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("submission", no_wrap=True)
    for column in (score_column(task), *task.columns):
        table.add_column(column.header, justify="right")
    if tested:
        table.add_column("vs #1", justify="right", no_wrap=True)
    if differ:
        table.add_column("signature (own part)", overflow="fold")
    own_part = {id(r): "|".join(parts) for r, parts in zip(results, own, strict=True)}
    for rank, r in ranked(results):
        cells = [fmt(c.value(r), c.fmt) for c in (score_column(task), *task.columns)]
        cells += [top_cell(marks, r)] if tested else []  # type: ignore[arg-type]
        tail = [own_part[id(r)]] if differ else []
        table.add_row(UNRANKED if rank is None else str(rank), r.submission, *cells, *tail)
    return table


def _names(names: Sequence[str], shown: int = 5) -> str:
    if len(names) <= shown:
        return ", ".join(names)
    return f"{', '.join(names[:shown])}, … ({len(names)} in all)"


def leaderboard_notes(
    task: Task, results: Sequence[EvalResult], marks: TopMarks | str | None = None
) -> list[str]:
    """The lines under a leaderboard: the shared signature, the legend (the ``vs #1``
    column's when ``marks`` is given), and which submissions are not ranked and why."""
    shared, own = _signature_parts(results)
    label = "signature (every row)" if not any(own) else "signature (shared; own part per row)"
    lines = [f"{label}: {'|'.join(shared)}"]
    lines.append(f"#: rank by score, highest first; {UNRANKED}: no score, listed last")
    columns = (score_column(task), *task.columns)
    lines += [_legend_line(c, results) for c in columns if c.description]
    if marks is not None and (note := top_note(marks)) is not None:
        lines.append(note)
    return lines + unranked_lines(task, results)


def unranked_lines(
    task: Task | None,
    results: Sequence[EvalResult],
    name: Callable[[EvalResult], str] = lambda r: r.submission,
) -> list[str]:
    """``not ranked (no score): NAMES — REASON``, one line per reason, for the results
    without a score (in input order; ``name`` says what each is called)."""
    unscored: dict[str, list[str]] = {}
    for r in results:
        if r.score is None:
            unscored.setdefault(unscored_reason(task, r), []).append(name(r))
    return [f"not ranked (no score): {_names(group)} — {why}" for why, group in unscored.items()]


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


def kept_line(out: str | None) -> str:
    """Where the full results went, or how to keep them."""
    if out is None:
        return "full results not kept: add --out FILE"
    return f"full results: {'standard output' if out == '-' else out}"


def print_results(
    task: Task,
    results: Sequence[EvalResult],
    console: Console,
    *,
    out: str | None = None,
    extra: Sequence[Any] = (),
) -> None:
    """A summary (one submission) or a leaderboard and repeated-run table (several),
    then ``extra`` renderables, the notes under them, and where the full results went
    (``out``: the ``--out`` path, ``-`` for standard output, None when not kept)."""
    if not results:
        return
    if len(results) == 1:
        console.print(summary_table(task, results[0]))
        notes = summary_notes(task, results[0])
    else:
        marks = marks_against_top(task, results)
        console.print(leaderboard_table(task, results, marks))
        if (table := runs_table(task, results)) is not None:
            console.print(table)
        notes = leaderboard_notes(task, results, marks)
    for renderable in extra:
        console.print(renderable)
    for line in [*notes, kept_line(out)]:
        # descriptions may hold brackets: printed as they are, never as markup
        console.print(line, highlight=False, markup=False)


__all__ = [
    "Column",
    "fmt",
    "kept_line",
    "leaderboard_notes",
    "leaderboard_table",
    "legend",
    "marks_against_top",
    "print_results",
    "ranked",
    "runs_table",
    "summary_notes",
    "summary_table",
    "top_cell",
    "top_note",
    "unranked_lines",
    "unscored_reason",
]
