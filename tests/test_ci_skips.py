"""Under CI a skip that hides a failure fails the run; on a user's machine it stays a
skip; a skip for a fact of the machine (running as root) stays a skip everywhere; and
no test skips for want of one of maieutic's own modules."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests._ci_skips import ci_verdict

REPO = Path(__file__).resolve().parents[1]

INNER = """
import pytest

def test_needs_data():
    pytest.skip("shared data not found at ../shared/data/cqs")

def test_needs_ray():
    pytest.importorskip("a_module_that_is_not_installed")

@pytest.mark.skipif(True, reason="root may write into a read-only folder")
def test_root_only():
    pass

def test_runs():
    assert True
"""


def _run(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess:
    test = tmp_path / "test_inner.py"
    test.write_text(INNER)
    env = {k: v for k, v in os.environ.items() if k != "MAIEUTIC_CI"}
    if ci:
        env["MAIEUTIC_CI"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests._ci_skips", "-q", "-rA",
         "-p", "no:cacheprovider", str(test)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_under_ci_a_skip_for_want_of_data_or_a_module_fails(tmp_path):
    result = _run(tmp_path, ci=True)
    assert result.returncode == 1, result.stdout
    assert re.search(r"2 failed, 1 passed, 1 skipped", result.stdout), result.stdout
    assert "skipped under CI (shared data not found" in result.stdout


def test_on_a_users_machine_skips_stay_skips(tmp_path):
    result = _run(tmp_path, ci=False)
    assert result.returncode == 0, result.stdout
    assert re.search(r"1 passed, 3 skipped", result.stdout), result.stdout


def test_only_facts_of_the_machine_may_skip_in_ci():
    assert ci_verdict("root may write into a read-only folder") is None
    assert ci_verdict("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    assert ci_verdict("could not import 'ray': No module named 'ray'")


def test_no_test_skips_for_want_of_maieutics_own_modules():
    found = [
        f"{path.name}:{n}"
        for path in (REPO / "tests").rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"importorskip\(\s*[\"']maieutic", line)
    ]
    assert not found, found
