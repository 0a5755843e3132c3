"""Small sample files written by the maieutic developers, for the quick start and tests.

Each task keeps its samples in its own folder (``<task package>/samples/``); a name
``"<task>/<file>"`` resolves there through the registry, so callers need not know
where a task lives."""

from __future__ import annotations

import importlib
from pathlib import Path

from maieutic.registry import task_modules, task_package

_ROOT = Path(__file__).resolve().parent
FOLDER = "samples"
"""The folder of a task package that holds its samples."""


def task_folder(task: str) -> Path:
    """The directory of the package that registered ``task``."""
    module = importlib.import_module(task_package(task))
    return Path(module.__file__ or "").resolve().parent


def sample_path(name: str) -> Path:
    """Path of a bundled sample file, ``"<task>/<file>"`` (e.g. ``"mytask/shots.json"``
    is ``shots.json`` in the samples folder of task ``mytask``); a name that starts
    with no task's name stays under this package."""
    task, _, rest = name.partition("/")
    if rest and task in task_modules():
        return task_folder(task) / FOLDER / rest
    return _ROOT / name
