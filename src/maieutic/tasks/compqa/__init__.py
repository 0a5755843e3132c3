"""Comparative question answering ("Argument-Based Comparative Question Answering
Evaluation Benchmark"): answers to "What is better: A or B?" written under four
prompting scenarios, scored on a 15-criterion rubric by rules, an LLM judge or both,
and compared with people's scores."""

from __future__ import annotations

from pathlib import Path

from maieutic.errors import DataError
from maieutic.registry import register
from maieutic.tasks import Column, Task
from maieutic.tasks.compqa import cli, evaluators, generators, report_hooks  # noqa: F401
from maieutic.tasks.compqa.evaluate import load_answer_file


def _no_reference(path: str | Path):
    raise DataError("CompQA answers are scored on the rubric alone; there is no reference file")


def _mean(name: str):
    def read(result):
        value = result.summary.get(name) if name == "total" else result.summary["groups"].get(name)
        return None if value is None else value[0]

    return read


def _view(result) -> dict:
    """What a one-file table shows: the total's spread and the criteria that were scored
    (every figure stays in the results file)."""
    summary = result.summary
    total = summary.get("total")
    scored = {k: v for k, v in summary["criteria"].items() if v is not None}
    return {
        "total_std": total[1] if total else None,
        "n_complete": summary["n_complete"],
        "criterion means": ", ".join(f"{k} {v:.2f}" for k, v in scored.items()),
    }


def _report_blocks(entries, finder):
    from maieutic.tasks.compqa.report import compqa_blocks

    return compqa_blocks(entries, finder)


@register("task", "compqa", "compqa")
def task() -> Task:
    """Comparative answers scored on the 15-criterion rubric (0–19)."""
    from maieutic.tasks.compqa.run_io import IO

    return Task(
        io=IO,
        commands=cli.commands,
        title="CompQA: comparative answers",
        axis_label="rubric total",
        report_blocks=_report_blocks,
        interval_statistic=report_hooks.interval_statistic,
        report_formats=report_hooks.FORMATS,
        name="compqa",
        description=task.__doc__ or "",
        load_reference=_no_reference,
        load_submission=load_answer_file,
        score_description="mean rubric total (0–19) over the answers with all 15 criteria scored",
        columns=[
            Column("Struct", _mean("structure"), "{:.2f}", "criteria 1–7 (0–7)"),
            Column("Rel", _mean("relevance"), "{:.2f}", "criteria 8–10 (0–5)"),
            Column("Qual", _mean("quality"), "{:.2f}", "criteria 11–15 (0–7)"),
            Column("n", lambda r: r.summary["n_answers"], "{}", "answers in the file"),
            Column(
                "incomplete",
                lambda r: r.summary["n_incomplete"],
                "{}",
                "answers without all 15 scores (no total)",
            ),
        ],
        summary_view=_view,
    )
