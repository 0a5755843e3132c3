"""Assemble the report: read every input, build the sections, render the page.

``render_report`` is the library entry point (the command line and the web app call
it); ``write_report`` renders first and writes only a finished page, through a
temporary file renamed into place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from maieutic._version import __version__
from maieutic.data.files import write_text
from maieutic.errors import DataError
from maieutic.report.hooks import report_hooks
from maieutic.report.html.context import TextFinder
from maieutic.report.html.intervals import method_note
from maieutic.report.html.loader import InputFile, load_inputs
from maieutic.report.html.sections_common import (
    Entry,
    inputs_section_table,
    interval_blocks,
    issues_block,
    provenance_line,
    runs_block,
    summary_block,
)
from maieutic.report.html.templating import Block, Section, render
from maieutic.wording import plural

RENDER_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError)
"""What a file of the right format but an unexpected shape raises while being drawn."""


def _entries(files: Sequence[InputFile]) -> dict[str, list[Entry]]:
    """Results grouped by task in order of appearance; a name two files share is shown
    with its file."""
    flat = [(f, r) for f in files for r in f.results]
    names = [r.submission for _, r in flat]
    by_task: dict[str, list[Entry]] = {}
    for n, (f, r) in enumerate(flat):
        label = r.submission if names.count(r.submission) == 1 else f"{r.submission} [{f.name}]"
        by_task.setdefault(r.task, []).append(Entry(f, r, label, anchor=f"system-{n}"))
    return by_task


def _task_section(task: str, entries: list[Entry], finder: TextFinder) -> Section:
    files = list(dict.fromkeys(e.file.index for e in entries))
    by_index = {e.file.index: e.file for e in entries}
    blocks = [summary_block(task, entries)]
    if (runs := runs_block([by_index[i] for i in files])) is not None:
        blocks.append(runs)
    hooks = report_hooks(task)
    blocks += interval_blocks(entries, hooks.axis_label)
    detail = hooks.blocks
    if detail is None:
        blocks.append(
            Block(note=f"This version of the report has no detailed view of the task {task!r}.")
        )
    else:
        blocks += detail(entries, finder)
    if (issues := issues_block(entries)) is not None:
        blocks.append(issues)
    names = ", ".join(by_index[i].name for i in files)
    title = hooks.title or f"Task: {task}"
    return Section(anchor=f"task-{task}", title=title, blocks=blocks, lead=f"From {names}.")


def _file_section(file: InputFile) -> Section | None:
    """A task's own file in a section of its own (its results, if it holds any, are
    shown in their task's section instead)."""
    from maieutic.report.html.sections_generic import generic_blocks

    layout = file.layout
    if layout is None or layout.results:
        return None
    if layout.section is not None:
        title, blocks = layout.section(file)
    else:
        title, blocks = f"{file.format}", generic_blocks(file)
    lead = provenance_line(file)
    return Section(
        anchor=f"file-{file.index}", title=f"{title}: {file.name}", blocks=blocks, lead=lead
    )


def build_sections(files: Sequence[InputFile]) -> list[Section]:
    """The page's sections: the inputs, one per task of the results, one per other file."""
    finder = TextFinder()
    sections: list[Section] = []
    for task, entries in _entries(files).items():
        try:
            sections.append(_task_section(task, entries, finder))
        except RENDER_ERRORS as exc:
            where = ", ".join(dict.fromkeys(e.file.name for e in entries))
            raise DataError(
                f"cannot draw the {task} results ({type(exc).__name__}: {exc})", where=where
            ) from None
    for file in files:
        try:
            section = _file_section(file)
        except RENDER_ERRORS as exc:
            raise DataError(
                f"cannot draw this file ({type(exc).__name__}: {exc})", where=file.name
            ) from None
        if section is not None:
            sections.append(section)
    inputs = Block(note="Each file with what made it.", table=inputs_section_table(files))
    sections.append(Section(anchor="inputs", title="Inputs and provenance", blocks=[inputs]))
    return sections


def render_report(paths: list[Path | str], title: str | None = None) -> str:
    """The HTML text of a self-contained report on ``paths`` (results files of any task,
    meta-evaluation outputs). Raises ``DataError`` naming the file when one cannot be
    read or drawn. The same inputs always give the same text."""
    files = load_inputs(list(paths))
    sections = build_sections(files)
    tasks = sorted({r.task for f in files for r in f.results})
    n_results = sum(len(f.results) for f in files)
    lead = plural(len(files), "input file")
    if n_results:
        lead += f" · {plural(n_results, 'result')} · tasks: {', '.join(tasks)}"
    return str(
        render(
            "page.html.j2",
            title=title or "maieutic report",
            lead=lead,
            method=method_note(),
            sections=sections,
            version=__version__,
        )
    )


def write_report(paths: list[Path | str], out: str | Path, title: str | None = None) -> None:
    """Render the report and only then write it to ``out`` (atomically; ``-``: standard
    output), so a bad input never leaves a partial file."""
    text = render_report(paths, title)
    write_text(out, text)
