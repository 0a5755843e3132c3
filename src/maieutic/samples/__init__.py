"""Small sample files written by the maieutic developers, for the quick start and tests."""

from __future__ import annotations

from pathlib import Path

_ROOT = Path(__file__).resolve().parent


def sample_path(name: str) -> Path:
    """Path of a bundled sample file, e.g. ``sample_path("cqs/sample_dataset.json")``."""
    return _ROOT / name
