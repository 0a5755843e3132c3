"""The report and the web app are shells: everything task-specific comes from the
tasks' hooks (``maieutic.report.hooks.REPORT_HOOKS``,
``maieutic.web.hooks.LEADERBOARDS``), so neither names a task."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

TASK_NAMES = re.compile(r"\b(cqs|focus|aura|compqa)\b", re.IGNORECASE)


def test_the_report_and_web_shells_name_no_task():
    """Everything task-specific comes from the tasks' hooks: no file of the report or
    the web app (code, templates, styles, scripts, comments included) names a task."""
    package = Path(__file__).resolve().parents[1] / "src" / "maieutic"
    found = []
    for folder in (package / "report", package / "web"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            if path.suffix == ".pyc":
                continue
            text = path.read_text(encoding="utf-8")
            for number_, line in enumerate(text.splitlines(), start=1):
                if TASK_NAMES.search(line):
                    found.append(f"{path.relative_to(package)}:{number_}: {line.strip()}")
    assert not found, "\n".join(found)


@pytest.fixture
def toy(tmp_path):
    """A task registered for one test: its hooks give the report its interval
    statistic, its texts, its own file format and its input hint."""
    from maieutic import registry
    from maieutic.core import Task
    from maieutic.report.hooks import (
        REPORT_HOOKS,
        ItemStatistic,
        ReportFormat,
        ReportHooks,
        Texts,
        TextSource,
        mean,
    )
    from maieutic.report.html.templating import Block

    def section(file):
        return "Toy figures", [Block("Figures", f"{file.data['figures']} figures")]

    def blocks(entries, finder):
        texts = finder.texts(entries[0].file, entries[0].result)
        return [Block("Toy texts", texts.documents.get("a", texts.note))]

    def read(data):
        return Texts(documents={"a": data.paths[0].read_text()}) if data.paths else None

    @registry.register("task", task="toytask", name="toytask")
    def make() -> Task:
        return Task(
            name="toytask",
            description="a toy",
            load_reference=str,
            load_submission=str,
            interval_statistic=lambda r: ItemStatistic([i["v"] for i in r.items], mean, "toy v"),
        )

    REPORT_HOOKS.add(
        "toytask",
        ReportHooks(
            blocks=blocks,
            texts=TextSource("toy_data", read),
            formats=(ReportFormat("maieutic.toytask.figures/1", ("figures",), section),),
            input_hint=lambda data: "a toy input, not results" if "toy" in data else None,
        ),
    )

    (tmp_path / "toy.txt").write_text("The toy document.", encoding="utf-8")
    yield tmp_path
    registry._ENTRIES.pop(("task", "toytask", "toytask"))
    REPORT_HOOKS.discard("toytask")


def _write(path: Path, payload: dict) -> Path:
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def test_a_task_hooks_give_the_report_its_intervals_texts_and_files(toy):
    from maieutic.errors import DataError
    from maieutic.report.html import render_report

    result = {
        "task": "toytask",
        "submission": "toy-system",
        "source": "toy.json",
        "signature": {"task": "toytask", "dataset": "sha256:toy"},
        "evaluator": {"kind": "evaluator", "task": "toytask", "name": "x", "args": {}},
        "score": 0.5,
        "summary": {},
        "items": [{"v": 0.0}, {"v": 1.0}, {"v": 0.5}],
    }
    results = _write(
        toy / "results.json",
        {
            "format": "maieutic.results/2",
            "task": "toytask",
            "provenance": {"options": {"toy_data": "toy.txt"}},
            "results": [result],
        },
    )
    figures = _write(toy / "figures.json", {"format": "maieutic.toytask.figures/1", "figures": 7})
    page = render_report([results, figures])
    assert "<td>toy v</td>" in page  # the interval of the task's own statistic
    assert "The toy document." in page  # its texts, found through its option
    assert "Toy figures: " in page and "7 figures" in page  # its own format's section
    with pytest.raises(DataError, match="a toy input, not results"):
        render_report([_write(toy / "input.json", {"toy": {}})])
    with pytest.raises(DataError, match="missing field 'figures'"):
        render_report([_write(toy / "bad.json", {"format": "maieutic.toytask.figures/1"})])
