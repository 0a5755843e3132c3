"""The report's questions to the registered tasks: which task a result belongs to,
which task wrote a file of a given format, and what a file without a format is.

The report names no task: every answer comes from a task's contract
(``maieutic.core.Task``) or from the hooks it hands the report
(``maieutic.report.hooks.REPORT_HOOKS``), for the tasks found by the registry
(subpackages of ``maieutic.tasks`` and installed plug-ins).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from maieutic.core import Task, get_task
from maieutic.errors import DataError
from maieutic.report.hooks import ReportFormat, ReportHooks, report_hooks


def known_task(name: str) -> Task | None:
    """The registered task ``name``, or None (results of a task this installation
    does not have are still shown, without a detailed view)."""
    try:
        return get_task(name)
    except DataError:
        return None


def _hooks() -> Iterator[ReportHooks]:
    from maieutic.registry import tasks

    for name in tasks():
        yield report_hooks(name)


def _compare_section(file: Any) -> tuple[str, list[Any]]:
    from maieutic.report.html.sections_compare import compare_section

    return compare_section(file)


CORE_FORMATS = (ReportFormat("maieutic.compare/1", section=_compare_section),)
"""The files the core writes besides results files (``maieutic compare --out``)."""


def report_formats() -> dict[str, ReportFormat]:
    """Every file format the core and the tasks declare, by its ``format`` field (the
    core's first, then the first task to declare a format keeps it)."""
    found: dict[str, ReportFormat] = {layout.format: layout for layout in CORE_FORMATS}
    for hooks in _hooks():
        for layout in hooks.formats:
            found.setdefault(layout.format, layout)
    return found


def input_hint(data: dict[str, Any]) -> str | None:
    """What a file without a ``format`` field is, when a task recognises it as one of
    its inputs (a dataset, a submission) rather than results."""
    for hooks in _hooks():
        if hooks.input_hint is not None and (hint := hooks.input_hint(data)):
            return hint
    return None
