"""Socratic questions tied to a weakness type and a source span ("FOCUS: A Benchmark for
Targeted Socratic Question Generation via Source-Span Grounding"): for each argument up
to two types of an eleven-type typology, the span each targets, and the question built
from the type's template; scored by multi-label P/R/F1 and span similarity."""

from __future__ import annotations

from maieutic.cli import COMMAND_HOOKS
from maieutic.core import Column, Task
from maieutic.registry import register
from maieutic.report.hooks import REPORT_HOOKS, ReportHooks, deferred
from maieutic.tasks.focus import cli, evaluators, generators, report_hooks  # noqa: F401
from maieutic.tasks.focus.data import load_gold, load_predictions

SUMMARY = "Socratic questions tied to a weakness and a span of an argument (FOCUS)."
"""What the task is, in one line: ``maieutic --help`` reads it from this file without
importing the task."""


def _classification(none: str, *, average: str, other: bool = False):
    """F1 in the result's own mode (or in the other one)."""

    def read(result) -> float | None:
        mode = result.summary["mode"]
        if other:
            mode = next(m for m in result.summary["classification"] if m != mode)
        return result.summary["classification"][mode][none][average]["f1"]

    return read


def _span(key: str, *, metric: str):
    def read(result) -> float | None:
        return result.summary.get(key, {}).get(metric, {}).get("mean")

    return read


COLUMNS = [
    Column(
        "micro-F1",
        _classification("with_none", average="micro"),
        "{:.4f}",
        description="micro-F1 over the eleven types, in the same mode as the score",
    ),
    Column(
        "macro-F1 -None",
        _classification("without_none", average="macro"),
        "{:.4f}",
        description="macro-F1 over the ten weakness types (None of the Above left out)",
    ),
    Column(
        "other-mode macro-F1",
        _classification("with_none", average="macro", other=True),
        "{:.4f}",
        description="macro-F1 in the other mode (open: every predicted type counts; category: only "
        "the argument's two category types)",
    ),
    Column(
        "Jaccard",
        _span("spans", metric="jaccard"),
        "{:.3f}",
        description="mean token Jaccard of predicted spans to the gold spans",
    ),
    Column(
        "Jaccard all",
        _span("spans_all", metric="jaccard"),
        "{:.3f}",
        description="the same, best match over the gold and every annotator's span",
        empty="no annotators' spans given (--annotators)",
    ),
    Column(
        "ROUGE-L",
        _span("spans", metric="rouge_l"),
        "{:.3f}",
        description="mean ROUGE-L F to the gold spans",
    ),
    Column(
        "emb",
        _span("spans", metric="embedding"),
        "{:.3f}",
        description="mean BERTScore-style F1 (greedy token matching) with the embedding model",
        empty="span embedding turned off (--no-span-embedding)",
    ),
    Column(
        "flagged",
        lambda r: len(r.flags),
        "{}",
        description="problems scored and flagged: unknown types, spans not in the text…",
    ),
]
"""The leaderboard columns after the submission and its score."""


def _arguments(result) -> str:
    summary = result.summary
    missing = summary["n_missing"]
    return f"{summary['n_items']}" + (f" ({missing} not predicted)" if missing else "")


SUMMARY_ROWS = [
    *COLUMNS[:-1],
    Column(
        "arguments",
        _arguments,
        "{}",
        description="gold arguments scored (one with no prediction counts as None of the Above, "
        "flagged)",
    ),
    COLUMNS[-1],
]
"""A one-submission summary: the leaderboard's figures and the arguments counted (the
per-mode precision and recall stay in the results file)."""


@register("task", task="focus", name="focus")
def task() -> Task:
    """Weakness types and spans of arguments, with Socratic questions."""
    from maieutic.tasks.focus.run_io import IO

    return Task(
        io=IO,
        interval_statistic=report_hooks.macro_f1_statistic,
        paired_units=report_hooks.paired_units,
        name="focus",
        description=task.__doc__ or "",
        load_reference=load_gold,
        load_submission=load_predictions,
        score_description="macro-F1 over the eleven types (None of the Above included), "
        "in the chosen mode (category: predictions outside the argument's two category "
        "types are dropped, as annotators only judged those)",
        columns=COLUMNS,
        summary_rows=SUMMARY_ROWS,
    )


REPORT_HOOKS.add(
    "focus",
    ReportHooks(
        title="FOCUS: weakness types and spans",
        axis_label="macro-F1",
        blocks=deferred("maieutic.tasks.focus.report:focus_blocks"),
        texts=report_hooks.TEXTS,
        formats=report_hooks.FORMATS,
    ),
)
COMMAND_HOOKS.add("focus", cli.commands)
