"""docs/adding-a-task.md cannot drift from the code: it shows every file of the toy
task's folder (docs/examples/yesno/, which tests/test_toy_task.py builds and runs)
verbatim, under a heading naming the file, and describes every hook of ``Task``."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from maieutic.core import Task

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "adding-a-task.md"
TOY = REPO / "docs" / "examples" / "yesno"
SHOWN = re.compile(r"^#### `yesno/([^`]+)`\n\n```\w*\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _toy_files() -> dict[str, str]:
    return {
        path.relative_to(TOY).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(TOY.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_each_file_of_the_toy_task_is_in_the_doc_verbatim():
    shown = SHOWN.findall(DOC.read_text(encoding="utf-8"))
    names = [name for name, _ in shown]
    assert len(names) == len(set(names)), names
    files = _toy_files()
    assert set(names) == set(files), "the doc and the folder list different files"
    for name, text in shown:
        assert text == files[name], f"yesno/{name} differs between the doc and the folder"


def test_the_toy_task_is_one_folder_with_the_documented_pieces():
    assert {"__init__.py", "data.py", "evaluators.py", "generators.py", "report.py"} <= set(
        _toy_files()
    )
    assert any(name.startswith("samples/") for name in _toy_files())


def test_every_task_hook_has_its_row_in_the_doc():
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## The `Task` and its hooks", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`(\w+)`", row.split(" | ")[0])}
    fields = {f.name for f in dataclasses.fields(Task)}
    assert fields == named, f"missing: {fields - named}; not fields: {named - fields}"


def test_the_doc_says_how_a_task_is_found():
    text = DOC.read_text(encoding="utf-8")
    assert '[project.entry-points."maieutic.tasks"]' in text
    assert 'maieutic.registry.add_task("yesno", module="yesno")' in text
    assert "src/maieutic/tasks/" in text
