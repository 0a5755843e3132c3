"""Reference-free scoring of question sets about a document ("AURA-QG: Automated
Unsupervised Replicable Assessment for Question Generation"): answerability, coverage,
non-redundancy and structural entropy over the document's Information Units."""

from __future__ import annotations

from pathlib import Path

from maieutic.cli import COMMAND_HOOKS
from maieutic.core import Column, Task
from maieutic.data.flags import Flag
from maieutic.registry import register
from maieutic.report.hooks import REPORT_HOOKS, ReportHooks, deferred
from maieutic.tasks.aura import (  # noqa: F401
    cli,
    evaluators,
    generators,
    report_hooks,
    scorer_examples,
)
from maieutic.tasks.aura.data import read_document, read_questions
from maieutic.tasks.aura.evaluate import QuestionSet
from maieutic.tasks.aura.templates import template

SUMMARY = (
    "Question sets about a document, scored for answerability, coverage, non-redundancy "
    "and entropy (AURA)."
)
"""What the task is, in one line: ``maieutic --help`` reads it from this file without
importing the task."""


def load_question_set(path: str | Path) -> QuestionSet:
    """A question set from a file, with what is not a question flagged (and scored)."""
    questions = read_questions(path)
    flags = [
        Flag(
            file=str(path),
            at=f"questions[{i}]",
            code="not-a-question",
            message=f"{q[:50]!r} is not a question",
            item=str(i),
        )
        for i, q in enumerate(questions)
        if not q.rstrip().endswith("?") and template(q) == "other"
    ]
    return QuestionSet(questions=questions, source=str(path), name=Path(path).stem, flags=flags)


def _metric(name: str):
    def read(result):
        return result.summary.get(name)

    return read


COLUMNS = [
    Column(
        "Ans",
        _metric("answerability"),
        "{:.3f}",
        description="answerability: share of questions whose best-matching Information Unit of the "
        "document clears the answerability threshold",
    ),
    Column(
        "Cov",
        _metric("coverage"),
        "{:.3f}",
        description="coverage: share of the document's necessary units (sentences, whole lists) "
        "that answerable questions reach, directly, through a window or a list item",
    ),
    Column(
        "NRS",
        _metric("non_redundancy"),
        "{:.3f}",
        description="non-redundancy: 1 − answerable questions mapped to a unit an earlier one "
        "already used, as a share of all questions (the signature's nrs:answerable: of the "
        "answerable ones)",
    ),
    Column(
        "Ent",
        _metric("entropy"),
        "{:.3f}",
        description="balanced structural entropy: entropy of the question types (what, why, how, "
        "yes-no… 11 in all) weighted by the set's size, brought to 0 to 1",
    ),
    Column("Qs", _metric("n_questions"), "{}", description="questions in the set"),
]
"""The leaderboard columns after the submission and its score."""


def _units(result) -> str:
    return f"{result.summary['n_units']} ({result.summary['n_necessary']} necessary)"


SUMMARY_ROWS = [
    *COLUMNS,
    Column(
        "units",
        _units,
        "{}",
        description="Information Units the document was split into (necessary ones: what Cov "
        "counts)",
    ),
]
"""A one-submission summary: the four metrics, the set's and the document's sizes."""


@register("task", task="aura", name="aura")
def task() -> Task:
    """Question sets scored against their document, with no reference questions."""
    from maieutic.tasks.aura.run_io import IO

    return Task(
        io=IO,
        interval_statistic=report_hooks.interval_statistic,
        paired_units=report_hooks.paired_units,
        name="aura",
        description=task.__doc__ or "",
        load_reference=read_document,
        load_submission=load_question_set,
        score_description="mean of Ans, Cov, NRS and Ent (each 0 to 1)",
        columns=COLUMNS,
        summary_rows=SUMMARY_ROWS,
    )


REPORT_HOOKS.add(
    "aura",
    ReportHooks(
        title="AURA: question sets",
        axis_label="score",
        blocks=deferred("maieutic.tasks.aura.report:aura_blocks"),
        formats=report_hooks.FORMATS,
    ),
)
COMMAND_HOOKS.add("aura", cli.commands)
