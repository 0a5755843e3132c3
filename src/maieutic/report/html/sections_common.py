"""What every task's section has: the inputs, a leaderboard with each row's signature,
the bootstrap intervals, repeated-run summaries, and the flags and warnings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any

from markupsafe import Markup

from maieutic.core import Task
from maieutic.errors import DataError
from maieutic.evaluate.compare import TopMarks
from maieutic.evaluate.result import EvalResult
from maieutic.report.html.intervals import system_interval
from maieutic.report.html.loader import InputFile
from maieutic.report.html.plots import IntervalRow, interval_chart
from maieutic.report.html.svg import finite
from maieutic.report.html.tables import Cell, Header, Table, code, headers, number
from maieutic.report.html.templating import Block, render
from maieutic.report.tables import (
    UNRANKED,
    marks_against_top,
    ranked,
    top_cell,
    top_note,
    unranked_lines,
)


@dataclass(frozen=True)
class Entry:
    """One result in the report: the file it came from and the name it is shown by."""

    file: InputFile
    result: EvalResult
    label: str
    """The submission name, with the file added when two files share it."""
    _: KW_ONLY
    anchor: str


def provenance_line(file: InputFile) -> str:
    """Who made a file and how, in one line (empty when the file does not say)."""
    provenance = file.data.get("provenance")
    if not isinstance(provenance, dict):
        return ""
    parts = []
    if version := provenance.get("maieutic_version"):
        parts.append(f"maieutic {version}")
    git = provenance.get("git")
    if isinstance(git, dict) and git.get("commit"):
        parts.append(f"commit {str(git['commit'])[:10]}{' (dirty)' if git.get('dirty') else ''}")
    if created := provenance.get("created"):
        parts.append(f"written {created}")
    command = provenance.get("command")
    if isinstance(command, list) and command:
        parts.append("command: " + " ".join(str(c) for c in command))
    return " · ".join(parts)


def _anchor(file: InputFile) -> str:
    """Where a file is shown: its task's section (results) or its own."""
    if file.results:
        return f"task-{file.results[0].task}"
    return f"file-{file.index}"


def inputs_section_table(files: Sequence[InputFile]) -> Table:
    """One row per input file: what it is and where it came from."""
    table = Table(
        [
            Header("#", numeric=True),
            Header("file"),
            Header("format"),
            Header("task"),
            Header("results", numeric=True),
            Header("provenance"),
        ],
        sortable=False,
    )
    for file in files:
        count = len(file.results) if file.results else None
        table.add(
            [
                number(file.index + 1, "{}"),
                Cell(Markup('<a href="#{}">{}</a>').format(_anchor(file), file.name)),
                Cell(Markup("<code>{}</code>").format(file.format)),
                file.task or "",
                number(count, "{}"),
                Cell(provenance_line(file), cls="small"),
            ]
        )
    return table


def _cell(value: Callable[[EvalResult], Any], result: EvalResult, pattern: str) -> Cell:
    try:
        shown = value(result)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, StopIteration):
        shown = None  # a figure this result does not have: a dash, as in the CLI
    return number(shown, pattern) if shown is None or not isinstance(shown, str) else Cell(shown)


def _known(task: str) -> Task | None:
    """The task by name, or None for one this version does not know."""
    from maieutic.core import get_task

    try:
        return get_task(task)
    except DataError:
        return None


def leaderboard(task: str, entries: Sequence[Entry], marks: TopMarks | str | None = None) -> Table:
    """Systems ranked by score as ``maieutic evaluate`` prints them (those without a
    score last, in input order, with no number), the task's own columns, and the
    signature of every row."""
    found = _known(task)
    if found is not None:
        columns = [(c.header, c.description, c.fmt, c.value) for c in found.columns]
    else:
        # a task this version does not know: what every result has
        columns = [
            ("items", "per-item records", "{}", lambda r: len(r.items)),
            ("flags", "tolerated problems in the input", "{}", lambda r: len(r.flags)),
        ]
    several_files = len({e.file.index for e in entries}) > 1
    tested = marks is not None and not isinstance(marks, str)
    table = Table(
        [Header("#", f"rank by score, highest first; {UNRANKED}: no score", numeric=True)]
        + [Header("submission")]
        + ([Header("file")] if several_files else [])
        + [Header("score", "the task's headline figure", numeric=True)]
        + [Header(name, about, numeric=True) for name, about, _, _ in columns]
        + ([Header("vs #1", top_note(marks) or "", numeric=True)] if tested else [])  # type: ignore[arg-type]
        + [Header("signature", "the settings the score depends on")],
        caption=f"Ranked by score ({UNRANKED}: no score, listed last); click a header "
        "to sort by another column.",
    )
    by_result = {id(e.result): e for e in entries}
    for rank, result in ranked([e.result for e in entries]):
        e = by_result[id(result)]
        table.add(
            [
                number(rank, "{}"),
                Cell(Markup('<a href="#{}">{}</a>').format(e.anchor, e.label)),
                *([Cell(e.file.name)] if several_files else []),
                number(e.result.score),
                *(_cell(value, e.result, pattern) for _, _, pattern, value in columns),
                *([Cell(top_cell(marks, e.result))] if tested else []),
                code(str(e.result.signature)),
            ]
        )
    return table


def summary_block(task: str, entries: Sequence[Entry]) -> Block:
    """The leaderboard under its comparability note (and the legend of its ``vs #1``
    column), with a line under it per reason some rows have no score (as the terminal
    leaderboard prints them)."""
    labels = {id(e.result): e.label for e in entries}
    known = _known(task)
    results = [e.result for e in entries]
    marks = marks_against_top(known, results) if known and len(entries) > 1 else None
    lines = unranked_lines(known, results, lambda r: labels[id(r)])
    html = Markup("").join(Markup('<p class="note unranked">{}</p>').format(line) for line in lines)
    if marks is not None and (note := top_note(marks)) is not None:
        html = Markup('<p class="note">{}</p>').format(note) + html
    return Block(
        "Summary",
        comparability_note(entries),
        table=leaderboard(task, entries, marks),
        html=html or None,
    )


def comparability_note(entries: Sequence[Entry]) -> str:
    """A warning when the rows were not all made under one signature."""
    signatures = {str(e.result.signature) for e in entries}
    if len(signatures) <= 1:
        note = "All rows share one signature: their scores are comparable."
    else:
        note = (
            f"These rows were made under {len(signatures)} different signatures: compare "
            "scores only between rows whose signatures agree."
        )
    return note + "".join(incomplete_notes(entries))


def incomplete_notes(entries: Sequence[Entry]) -> list[str]:
    """A sentence per results file whose run stopped before scoring every submission."""
    notes = []
    for file in {id(e.file): e.file for e in entries}.values():
        if file.data.get("complete") is False:
            done, expected = len(file.results), file.data.get("expected")
            of = f" of {expected}" if isinstance(expected, int) else ""
            notes.append(
                f" {file.name} is INCOMPLETE: its run stopped after {done}{of} submissions."
            )
    return notes


def interval_blocks(entries: Sequence[Entry], axis_label: str) -> list[Block]:
    """Each system's score with its seeded bootstrap interval: a chart and a table."""
    intervals = [(e, system_interval(e.result)) for e in entries]
    table = Table(
        [
            Header("submission"),
            *headers(["score", "low", "high", "items"], numeric_from=0),
            Header("interval of"),
        ],
    )
    rows = []
    for e, iv in intervals:
        table.add(
            [
                e.label,
                number(iv.estimate),
                number(iv.low),
                number(iv.high),
                number(iv.n, "{}"),
                iv.note,
            ]
        )
        if finite(iv.estimate):
            whisker = finite(iv.low) and finite(iv.high)
            low, high = (iv.low, iv.high) if whisker else (None, None)
            rows.append(IntervalRow(e.label, iv.estimate, low=low, high=high))
    chart = (
        interval_chart(rows, axis_label, title=f"{axis_label} with 95% bootstrap intervals")
        if rows
        else None
    )
    return [
        Block(
            "Scores with bootstrap intervals",
            "Bars: the stored score; whiskers: the interval (see the method line at the top).",
            chart,
            table=table,
        )
    ]


def runs_block(files: Sequence[InputFile]) -> Block | None:
    """Mean ± std over repeated runs (NAME-run1, NAME-run2, …), as results files store it."""
    table = Table(
        [
            Header("system"),
            Header("file"),
            Header("figure"),
            *headers(["mean", "std", "runs"], numeric_from=0),
        ]
    )
    for file in files:
        runs = file.data.get("repeated_runs")
        for name, figures in runs.items() if isinstance(runs, dict) else []:
            for figure, row in figures.items() if isinstance(figures, dict) else []:
                if isinstance(row, dict):
                    table.add(
                        [
                            name,
                            file.name,
                            figure,
                            number(row.get("mean")),
                            number(row.get("std")),
                            number(row.get("n"), "{}"),
                        ]
                    )
    if not table.rows:
        return None
    return Block(
        "Repeated runs", "Mean and standard deviation over runs of one system.", table=table
    )


def issues_block(entries: Sequence[Entry]) -> Block | None:
    """Flags (tolerated problems in the input) and warnings, per system, collapsed."""
    systems = [
        (e.label, [f"{f.at}: {f.message} [{f.code}]" for f in e.result.flags], e.result.warnings)
        for e in entries
        if e.result.flags or e.result.warnings
    ]
    if not systems:
        return None
    return Block(
        "Flags and warnings",
        "Problems in the submissions that were scored anyway (--strict refuses them).",
        html=render("issues.html.j2", systems=systems),
    )
