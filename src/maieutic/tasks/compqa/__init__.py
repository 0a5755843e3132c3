"""Comparative question answering ("Argument-Based Comparative Question Answering
Evaluation Benchmark"): answers to "What is better: A or B?" written under four
prompting scenarios, scored on a 15-criterion rubric by rules, an LLM judge or both,
and compared with people's scores."""

from __future__ import annotations

from pathlib import Path

from maieutic.cli import COMMAND_HOOKS
from maieutic.core import Column, Task
from maieutic.errors import DataError
from maieutic.registry import register
from maieutic.report.hooks import REPORT_HOOKS, ReportHooks, deferred
from maieutic.tasks.compqa import cli, evaluators, generators, report_hooks  # noqa: F401
from maieutic.tasks.compqa.evaluate import load_answer_file

SUMMARY = 'Comparative answers ("Is A or B better?") scored on a 15-criterion rubric.'
"""What the task is, in one line: ``maieutic --help`` reads it from this file without
importing the task."""


def _no_reference(path: str | Path):
    raise DataError("CompQA answers are scored on the rubric alone; there is no reference file")


def _mean(name: str):
    def read(result):
        value = result.summary.get(name) if name == "total" else result.summary["groups"].get(name)
        return None if value is None else value[0]

    return read


INCOMPLETE = "no answer is complete (see score)"

COLUMNS = [
    Column(
        "Struct",
        _mean("structure"),
        "{:.2f}",
        description="structure: criteria 1–7 summed (0–7), mean over complete answers",
        empty=INCOMPLETE,
    ),
    Column(
        "Rel",
        _mean("relevance"),
        "{:.2f}",
        description="relevance: criteria 8–10 summed (0–5), mean over complete answers",
        empty=INCOMPLETE,
    ),
    Column(
        "Qual",
        _mean("quality"),
        "{:.2f}",
        description="quality: criteria 11–15 summed (0–7), mean over complete answers",
        empty=INCOMPLETE,
    ),
    Column("n", lambda r: r.summary["n_answers"], "{}", description="answers in the file"),
    Column(
        "incomplete",
        lambda r: r.summary["n_incomplete"],
        "{}",
        description="answers without all 15 scores (no total)",
    ),
]
"""The leaderboard columns after the submission and its score."""


def _spread(result):
    total = result.summary.get("total")
    return total[1] if total else None


def _criteria(result) -> str:
    scored = {k: v for k, v in result.summary["criteria"].items() if v is not None}
    return ", ".join(f"{k} {v:.2f}" for k, v in scored.items()) or "none"


SUMMARY_ROWS = [
    Column(
        "total std",
        _spread,
        "{:.2f}",
        description="standard deviation of the rubric total over complete answers",
        empty=INCOMPLETE,
    ),
    *COLUMNS[:3],
    Column(
        "answers",
        lambda r: f"{r.summary['n_answers']} ({r.summary['n_complete']} complete)",
        "{}",
        description="answers in the file (complete: all 15 criteria scored, so they have a total)",
    ),
    Column(
        "criterion means",
        _criteria,
        "{}",
        description="each criterion's mean over the answers that have it; criteria not listed were "
        "scored for none",
    ),
]
"""A one-file summary: the total's spread, the group means, the answers counted and the
criteria scored (every figure stays in the results file)."""


def _unscored(result) -> str:
    """Why a file has no rubric total: no answer has all 15 criteria."""
    summary = result.summary
    if not summary["n_answers"]:
        return "the file has no answers"
    head = "the rubric total sums all 15 criteria"
    if result.signature.evaluator == "rules":
        # RuleJudge.score decides structure, length and repetition only: 8–12 and 14
        # are judgements of content, always None, so no answer is ever complete
        return (
            f"{head}, and the offline rules never score C8–C12 and C14 (content "
            "criteria: add an LLM judge with --evaluator rules+llm)"
        )
    never = [k for k, v in summary["criteria"].items() if v is None]
    if never:
        return f"{head}, and no answer got a usable score for {', '.join(never)}"
    return f"{head}, and every answer misses one (the results file says which, and why)"


@register("task", task="compqa", name="compqa")
def task() -> Task:
    """Comparative answers scored on the 15-criterion rubric (0–19)."""
    from maieutic.tasks.compqa.run_io import IO

    return Task(
        io=IO,
        interval_statistic=report_hooks.interval_statistic,
        paired_units=report_hooks.paired_units,
        name="compqa",
        description=task.__doc__ or "",
        load_reference=_no_reference,
        load_submission=load_answer_file,
        score_description="mean rubric total (0–19) over the answers with all 15 criteria scored",
        columns=COLUMNS,
        summary_rows=SUMMARY_ROWS,
        unscored_reason=_unscored,
    )


REPORT_HOOKS.add(
    "compqa",
    ReportHooks(
        title="CompQA: comparative answers",
        axis_label="rubric total",
        blocks=deferred("maieutic.tasks.compqa.report:compqa_blocks"),
        formats=report_hooks.FORMATS,
    ),
)
COMMAND_HOOKS.add("compqa", cli.commands)
