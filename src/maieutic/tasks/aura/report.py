"""The AURA task: the four axes of each question set (answerability, coverage,
non-redundancy, entropy), the counts behind them, which set a comparison prefers, and
every question with its answerable decision and the span that answers it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from maieutic.report.html.context import TextFinder
from maieutic.report.html.plots import grouped_bars
from maieutic.report.html.sections_common import Entry
from maieutic.report.html.tables import Header, Table, number
from maieutic.report.html.templating import Block, render
from maieutic.tasks.aura.report_hooks import COMPARE_FORMAT

AXES = ("answerability", "coverage", "non_redundancy", "entropy")
COUNTS = ("n_questions", "n_answerable", "n_units", "n_necessary")
HEADERS = {
    "non_redundancy": "non-redundancy",
    "n_questions": "questions",
    "n_answerable": "answerable",
    "n_units": "units",
    "n_necessary": "necessary units",
}
"""Column headings that wrap at a space or hyphen (the summary's field name, in each
heading's tooltip, stays the key): ten columns then fit a desktop page."""


def _header(field: str) -> Header:
    return Header(HEADERS.get(field, field), f"summary field {field}", numeric=True)


def _axes_block(entries: Sequence[Entry]) -> Block:
    table = Table(
        [
            Header("question set"),
            Header("score", numeric=True),
            *(_header(field) for field in (*AXES, *COUNTS)),
        ]
    )
    for e in entries:
        summary = e.result.summary
        table.add(
            [
                e.label,
                number(e.result.score),
                *(number(summary.get(a), "{:.3f}") for a in AXES),
                *(number(summary.get(c), "{}") for c in COUNTS),
            ]
        )
    series = [
        (e.label, [e.result.summary.get(a) for a in (*AXES,)] + [e.result.score]) for e in entries
    ]
    chart = grouped_bars(
        [*AXES, "score (mean)"],
        series,
        "value",
        title="The four AURA axes per question set",
        value_format="{:.3f}",
        ceiling=1.0,
    )
    note = (
        "Answerability: answerable questions / all questions; coverage: necessary units "
        "covered by an answerable question / necessary units; non-redundancy: 1 − "
        "redundant / answerable questions (redundant: an earlier question maps to the same "
        "unit); entropy: balanced structural entropy over question templates. The score "
        "is the mean of the four."
    )
    return Block("Axes per question set", note, chart, table=table)


def _preference_block(entries: Sequence[Entry]) -> Block | None:
    table = Table([Header("file"), Header("metric"), Header("preferred")], sortable=False)
    compares = {e.file.index: e.file for e in entries if e.file.format == COMPARE_FORMAT}
    for file in compares.values():
        verdict = file.data.get("preference")
        if not isinstance(verdict, dict):
            continue
        names = {0: "tie", 1: file.results[0].submission, 2: file.results[-1].submission}
        per_metric = (
            verdict.get("per_metric") if isinstance(verdict.get("per_metric"), dict) else {}
        )
        for metric, side in per_metric.items():
            table.add([file.name, str(metric), names.get(side, str(side))])
        table.add([file.name, "majority of metrics", names.get(verdict.get("majority"), "—")])
        table.add([file.name, "higher mean", names.get(verdict.get("mean"), "—")])
    if not table.rows:
        return None
    return Block(
        "Comparisons", "Which set each metric prefers (maieutic aura compare).", table=table
    )


def _questions(entry: Entry) -> list[dict[str, Any]]:
    out = []
    for item in entry.result.records():
        answerable = item.get("answerable")
        out.append(
            {
                "question": str(item.get("question", "")),
                "template": str(item.get("template") or ""),
                "answerable": "yes" if answerable is True else "no" if answerable is False else "—",
                "score": number(item.get("score"), "{:.3f}").content,
                "unit": " ".join(
                    str(item[k]) for k in ("unit_type", "unit") if item.get(k) is not None
                ),
                "span": str(item.get("span") or ""),
            }
        )
    return out


def aura_blocks(entries: Sequence[Entry], finder: TextFinder) -> list[Block]:
    """The AURA-specific blocks of the task section."""
    del finder  # the units' texts are in the items already
    blocks = [_axes_block(entries)]
    if (preference := _preference_block(entries)) is not None:
        blocks.append(preference)
    systems = [{"entry": e, "questions": _questions(e)} for e in entries]
    note = "Every question with the unit that answers it best and the reranker's score."
    blocks.append(Block("Questions", note, html=render("aura_questions.html.j2", systems=systems)))
    return blocks
