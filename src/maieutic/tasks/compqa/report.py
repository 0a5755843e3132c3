"""The CompQA task: the mean of each of the 15 rubric criteria per system, the group
and total scores, and every answer with its criterion scores and where they came from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from maieutic.report.html.context import TextFinder
from maieutic.report.html.plots import grouped_bars
from maieutic.report.html.sections_common import Entry
from maieutic.report.html.tables import Header, Table, headers, is_number, number
from maieutic.report.html.templating import Block, render

GROUPS = ("structure", "relevance", "quality")


def _criteria_block(entries: Sequence[Entry]) -> Block:
    from maieutic.tasks.compqa.data import rubric

    criteria = rubric()
    table = Table(
        [
            Header("criterion"),
            Header("group"),
            Header("max", numeric=True),
            Header("description"),
            *(Header(e.label, numeric=True) for e in entries),
        ]
    )
    means: dict[str, list[float | None]] = {e.anchor: [] for e in entries}
    for number_, criterion in criteria.items():
        cells = []
        for e in entries:
            stored = e.result.summary.get("criteria")
            value = stored.get(f"C{number_}") if isinstance(stored, dict) else None
            means[e.anchor].append(value if isinstance(value, int | float) else None)
            cells.append(number(value, "{:.2f}"))
        table.add(
            [
                f"C{number_}",
                criterion.group,
                number(criterion.max, "{}"),
                criterion.description,
                *cells,
            ]
        )
    series = [(e.label, means[e.anchor]) for e in entries]
    top = float(max(c.max for c in criteria.values()))
    chart = grouped_bars(
        [f"C{n}" for n in criteria],
        series,
        "mean score",
        title="Mean score per criterion",
        value_format="{:.2f}",
        ceiling=top,
    )
    note = (
        "Mean over the answers where the criterion was scored; a dash: no answer has "
        "a score for it (the rules leave some criteria to a judge)."
    )
    return Block("Criteria", note, chart, table=table)


def _pair(value: Any) -> str:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int | float) for v in value)
    ):
        return f"{value[0]:.2f} ± {value[1]:.2f}"
    return "—"


def _totals_block(entries: Sequence[Entry]) -> Block:
    table = Table(headers(["submission", "answers", "complete", "incomplete", "total", *GROUPS]))
    for e in entries:
        s = e.result.summary
        groups = s.get("groups") if isinstance(s.get("groups"), dict) else {}
        total = s.get("total")
        table.add(
            [
                e.label,
                number(s.get("n_answers"), "{}"),
                number(s.get("n_complete"), "{}"),
                number(s.get("n_incomplete"), "{}"),
                number(total[0] if isinstance(total, list) and total else None, "{:.2f}"),
                *(
                    number(
                        g[0] if isinstance(g := groups.get(name), list) and g else None, "{:.2f}"
                    )
                    for name in GROUPS
                ),
            ]
        )
    details = Table(
        [Header("submission"), Header("total"), *(Header(g) for g in GROUPS)], sortable=False
    )
    for e in entries:
        groups = (
            e.result.summary.get("groups")
            if isinstance(e.result.summary.get("groups"), dict)
            else {}
        )
        details.add(
            [e.label, _pair(e.result.summary.get("total")), *(_pair(groups.get(g)) for g in GROUPS)]
        )
    note = (
        "Totals are sums of the 15 criteria (0–19), over the answers with every "
        "criterion scored; groups: structure C1–7, relevance C8–10, quality C11–15."
    )
    return Block("Totals and groups", note, table=table, html=_mean_std(details))


def _histogram_block(entries: Sequence[Entry]) -> Block | None:
    """How the rubric totals of completely scored answers are spread, per system."""
    totals = {
        e.anchor: [
            round(float(i["score"])) for i in e.result.records() if is_number(i.get("score"))
        ]
        for e in entries
    }
    found = [t for ts in totals.values() for t in ts]
    if not found:
        return None
    bins = list(range(min(found), max(found) + 1))
    series = [(e.label, [float(totals[e.anchor].count(b)) for b in bins]) for e in entries]
    chart = grouped_bars(
        [str(b) for b in bins], series, "answers", title="Rubric totals, per system"
    )
    return Block("Distribution of totals", "Answers with all 15 criteria scored.", chart)


def _mean_std(table: Table) -> Any:
    return render("table_only.html.j2", table=table, summary="mean ± std")


def _answers(entry: Entry) -> list[dict[str, Any]]:
    out = []
    for item in entry.result.records():
        scores = item.get("score_dict") if isinstance(item.get("score_dict"), dict) else {}
        sources = item.get("sources") if isinstance(item.get("sources"), dict) else {}
        out.append(
            {
                "index": item.get("index", ""),
                "title": f"{item.get('object1', '?')} vs {item.get('object2', '?')}",
                "aspect": str(item.get("aspect") or ""),
                "scenario": str(item.get("scenario") or ""),
                "total": number(item.get("score"), "{:g}").content,
                "complete": bool(item.get("complete")),
                "comparison": str(item.get("comparison") or ""),
                "scores": [
                    (f"C{k}", number(v, "{:g}").content, str(sources.get(k, "")))
                    for k, v in sorted(
                        scores.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 99
                    )
                ],
                "problems": [
                    f"{p.get('at', '')}: {p.get('message', '')}"
                    for p in item.get("problems") or []
                    if isinstance(p, dict)
                ],
            }
        )
    return out


def compqa_blocks(entries: Sequence[Entry], finder: TextFinder) -> list[Block]:
    """The CompQA-specific blocks of the task section."""
    del finder  # answers carry their own text
    systems = [{"entry": e, "answers": _answers(e)} for e in entries]
    note = "Every answer with its criterion scores and what gave each (rules or judge)."
    histogram = _histogram_block(entries)
    return [
        _criteria_block(entries),
        _totals_block(entries),
        *([histogram] if histogram else []),
        Block("Answers", note, html=render("compqa_answers.html.j2", systems=systems)),
    ]
