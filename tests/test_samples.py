"""Each task keeps its bundled samples in its own folder; ``sample_path("<task>/<file>")``
finds them through the registry, and the package data ships them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from maieutic.registry import task_modules
from maieutic.samples import sample_path, task_folder

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "maieutic"
SAMPLES = [
    "cqs/sample_dataset.json",
    "cqs/sample_submission.json",
    "cqs/schemes.jsonl",
    "focus/sample_arguments.jsonl",
    "focus/shots.jsonl",
    "compqa/questions.jsonl",
    "compqa/shots.json",
]


@pytest.mark.parametrize("name", SAMPLES)
def test_a_sample_resolves_into_its_task_folder(name):
    task, _, file = name.partition("/")
    path = sample_path(name)
    assert path == PACKAGE / "tasks" / task / "samples" / file
    assert path.is_file()


def test_the_task_folder_is_where_the_task_registered():
    assert task_folder("cqs") == PACKAGE / "tasks" / "cqs"


def test_a_name_without_a_task_stays_under_the_samples_package():
    assert "notatask" not in task_modules()
    assert sample_path("notatask/x.json") == PACKAGE / "samples" / "notatask" / "x.json"


def test_no_sample_is_left_in_the_shared_samples_package():
    assert [p.name for p in (PACKAGE / "samples").iterdir() if p.name != "__pycache__"] == [
        "__init__.py"
    ]


def test_the_package_data_ships_every_task_sample():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["maieutic"]
    shipped = {p for pattern in patterns for p in PACKAGE.glob(pattern) if p.is_file()}
    samples = [p for p in PACKAGE.glob("tasks/*/samples/*") if p.is_file()]
    assert len(samples) >= len(SAMPLES)
    assert not [p for p in samples if p not in shipped]
    assert all(re.fullmatch(r"[\w.-]+", p.name) for p in samples)
