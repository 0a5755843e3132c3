"""Shared fixtures: an isolated MAIEUTIC_HOME per test, the shared data, a CLI runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maieutic.cli.main import run

pytest_plugins = ["tests._ci_skips"]  # under CI a skip is a failure (see the module)

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
FIXTURES = REPO / "tests" / "fixtures"
CQS_DEV = SHARED_DATA / "cqs" / "validation-dev.json"
FOCUS_DIR = SHARED_DATA / "focus"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own state directory: no cache leaks between tests."""
    home = tmp_path_factory.mktemp("maieutic-home")
    monkeypatch.setenv("MAIEUTIC_HOME", str(home))
    return home


@pytest.fixture
def cqs_dev() -> Path:
    """The public development split of the critical-questions data (skips when absent)."""
    if not CQS_DEV.exists():
        pytest.skip(f"shared data not found at {CQS_DEV} (clone with ../shared beside the repo)")
    return CQS_DEV


@pytest.fixture
def focus_dir() -> Path:
    """The released FOCUS development files (skips when absent)."""
    if not (FOCUS_DIR / "dev_gold.csv").exists():
        pytest.skip(f"shared data not found at {FOCUS_DIR} (clone with ../shared beside the repo)")
    return FOCUS_DIR


def write_json(path: Path, payload) -> Path:
    """Write a JSON file and return its path."""
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return path


def plan_interventions(n: int, marked: int | None = None) -> dict:
    """``n`` short unlabelled interventions ``R_00``…, one claim and one reason each;
    the one at ``marked`` ends with ``FAILME`` (scripted generators fail on it)."""
    return {
        f"R_{i:02d}": {
            "intervention_id": f"R_{i:02d}",
            "intervention": f'SPEAKER: "Plan {i} must pass because costs rose {i} percent."'
            + (" FAILME" if i == marked else ""),
            "cqs": [],
        }
        for i in range(n)
    }


def one_reference(tmp_path: Path, cqs: list | None = None) -> Path:
    """A one-intervention labelled dataset ("I": "We must act.") written to tmp_path."""
    refs = {
        "I": {
            "intervention_id": "I",
            "intervention": "We must act.",
            "cqs": cqs or [{"id": "a", "cq": "Why act now?", "label": "Useful"}],
        }
    }
    return write_json(tmp_path / "d.json", refs)


class CliResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err


@pytest.fixture
def cli(capsys):
    """Run ``maieutic`` in-process; returns exit code, stdout and stderr."""

    def invoke(*argv: str) -> CliResult:
        code = run([str(a) for a in argv])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, for a test module's pages (skips when absent)."""
    from tests.test_web_browser import launched_chromium

    with launched_chromium() as launched:
        yield launched
