"""yes/no: questions answered "yes" or "no", scored by accuracy (the toy task of
docs/adding-a-task.md)."""

from __future__ import annotations

from maieutic.registry import register
from maieutic.tasks import Column, Task

from . import evaluators, generators  # noqa: F401 (they register themselves)
from .data import load_answers, load_questions


def _report_blocks(entries, finder):
    from .report import report_blocks  # imported when a report is drawn

    return report_blocks(entries, finder)


@register("task", task="yesno", name="yesno")
def task() -> Task:
    """Questions answered yes or no, scored by the share answered correctly."""
    return Task(
        name="yesno",
        description=task.__doc__ or "",
        load_reference=load_questions,
        load_submission=load_answers,
        score_description="share of the questions answered correctly",
        columns=[
            Column("yes rate", lambda r: r.summary["yes_rate"], "{:.2f}", "share of yes"),
            Column("answered", lambda r: r.summary["n_answered"], "{}", "questions answered"),
        ],
        title="Yes/no answers",
        axis_label="accuracy",
        report_blocks=_report_blocks,
    )
