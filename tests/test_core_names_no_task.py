"""The core names no task: every task-specific part lives in its task's folder
(``src/maieutic/tasks/<task>/``), so adding a task touches no core module and the
core imports no task (no ``scorers`` ↔ ``tasks`` cycle)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "maieutic"
APPLICATIONS = ("ask", "apps", "integrations")
"""Packages that compose several tasks (they name them, through the tasks' packages)."""
CORE_PACKAGES = tuple(
    sorted(
        p.name
        for p in SRC.iterdir()
        if p.is_dir() and (p / "__init__.py").exists() and p.name not in ("tasks", *APPLICATIONS)
    )
)
"""Every other package: found, not listed, so a new package is covered from the start."""
CORE_MODULES = tuple(sorted(p.stem for p in SRC.glob("*.py")))
TASK_NAMES = re.compile(r"\b(cqs|focus|aura|compqa)\b", re.IGNORECASE)


SHARED_IO = "maieutic.tasks.io"


def core_files() -> list[Path]:
    """Every source file of the core packages and modules."""
    files = [SRC / f"{name}.py" for name in CORE_MODULES]
    for package in CORE_PACKAGES:
        files += sorted(
            p for p in (SRC / package).rglob("*") if p.is_file() and "__pycache__" not in p.parts
        )
    return files


def test_the_core_files_exist():
    # a renamed package must not make the grep below pass vacuously
    assert all(f.is_file() for f in core_files())
    assert {"metrics", "stats", "evaluate", "web", "cli"} <= set(CORE_PACKAGES)
    assert {"registry", "signature", "provenance"} <= set(CORE_MODULES)
    assert {p.name for p in (SRC / "scorers").glob("*.py")} >= {"features.py", "train.py"}


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_core_file_names_a_task(path):
    hits = [
        f"{path.relative_to(SRC)}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if TASK_NAMES.search(line)
    ]
    assert not hits, "a core module names a task:\n" + "\n".join(hits)


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_core_imports_no_task_module():
    # ``maieutic.tasks`` itself (``Task``, ``Column``, the folder tasks are found in) and
    # ``maieutic.tasks.io`` (the I/O contract every task implements) are shared; its
    # subpackages are the tasks
    offenders = {
        str(path.relative_to(SRC)): sorted(
            m for m in _imported(path) if m.startswith("maieutic.tasks.") and m != SHARED_IO
        )
        for path in core_files()
        if path.suffix == ".py"
    }
    assert not {k: v for k, v in offenders.items() if v}


def _application_files() -> list[Path]:
    return sorted(p for name in APPLICATIONS for p in (SRC / name).rglob("*.py"))


def test_applications_use_tasks_through_their_public_api_only():
    # ask and the demo compose tasks: they import a task's package or its ``api`` module
    # (what it offers to applications), never the modules behind them
    assert _application_files()
    private = {
        str(path.relative_to(SRC)): sorted(
            m
            for m in _imported(path)
            if m.startswith("maieutic.tasks.") and m.count(".") > 2 and not m.endswith(".api")
        )
        for path in _application_files()
    }
    assert not {k: v for k, v in private.items() if v}


LAYERS = {
    # package: the maieutic packages it must not import (they sit above it)
    "embed": ("maieutic.engines", "maieutic.run", "maieutic.evaluate", "maieutic.tasks"),
    "engines": ("maieutic.run", "maieutic.tasks", "maieutic.cli", "maieutic.evaluate"),
    "stats": ("maieutic.evaluate", "maieutic.run", "maieutic.tasks", "maieutic.report"),
}


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_layers_import_only_downward(package):
    # the run layer resolves a task's I/O and hands it to the engines, and hands the
    # encoders their piece mapper: neither engines nor embed reach back up for them
    upward = {
        str(path.relative_to(SRC)): sorted(
            m for m in _imported(path) if m.startswith(LAYERS[package])
        )
        for path in sorted((SRC / package).rglob("*.py"))
    }
    assert not {k: v for k, v in upward.items() if v}
