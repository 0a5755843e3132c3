"""Held-out parts fixed before something is built stay what their rule drew: a
changed file would let figures be tuned on the texts they are reported on."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO, SHARED_DATA


def test_the_issue_63_held_out_interventions_are_the_rules_draw(cqs_dev):
    if not (SHARED_DATA / "cqs" / "test-dev.json").exists():
        pytest.skip(f"shared data not found at {SHARED_DATA} (clone with ../shared beside it)")
    script = REPO / "benchmarks" / "evaluator" / "make_heldout_63.py"
    checked = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
