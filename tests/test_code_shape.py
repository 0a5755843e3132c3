"""The shape the code keeps: no source file over 400 lines and no function over 60,
so that each module has one job a reader can hold in mind."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "maieutic"
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_source_tree_is_found():
    assert len(_sources()) > 100


def test_no_source_file_is_over_400_lines():
    long = {
        str(p.relative_to(SRC)): n
        for p in _sources()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES
    }
    assert not long, long


def test_no_function_is_over_60_lines():
    long = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({length})")
    assert not long, long


def test_the_formatter_lays_out_every_line():
    # The limits above are guides for readers: a function is not squeezed under them by
    # switching the formatter off (a long word list is written as text instead, see
    # maieutic.language.word_lists), so the lines counted are the lines a reader reads.
    escapes = [
        f"{p.relative_to(SRC)}:{n}"
        for p in _sources()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if "fmt: skip" in line or "fmt: off" in line
    ]
    assert not escapes, escapes
