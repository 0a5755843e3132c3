"""yes/no: questions answered "yes" or "no", scored by accuracy (the toy task of
docs/adding-a-task.md)."""

from __future__ import annotations

from maieutic.core import Column, Task
from maieutic.registry import register
from maieutic.report.hooks import REPORT_HOOKS, ReportHooks, deferred

from . import evaluators, generators  # noqa: F401 (they register themselves)
from .data import load_answers, load_questions


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
            Column(
                "yes rate", lambda r: r.summary["yes_rate"], "{:.2f}", description="share of yes"
            ),
            Column(
                "answered",
                lambda r: r.summary["n_answered"],
                "{}",
                description="questions answered",
            ),
        ],
    )


# what the task adds to the HTML report: its section's title, what its score is called
# on plots, and its own blocks (their module is imported only when a report is drawn)
REPORT_HOOKS.add(
    "yesno",
    ReportHooks(
        title="Yes/no answers",
        axis_label="accuracy",
        blocks=deferred(f"{__name__}.report:report_blocks"),
    ),
)
