"""Heavy libraries load only when a command does the work that needs them.

spaCy (which pulls in torch through thinc) and scikit-learn take seconds to import. A
command's ``--help``, and a refusal of a bad input, must not pay for them: each is a
fresh process, and the hardening matrix alone starts hundreds of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = (
    "spacy",
    "torch",
    "sklearn",
    "sentence_transformers",
    "transformers",
    # the evaluation frameworks: only `maieutic import` and their own tasks load them
    "inspect_ai",
    "lm_eval",
    "datasets",
)

# Runs in a fresh interpreter: which heavy modules are loaded after the commands ran.
_PROBE = """
import json, sys
import contextlib, io
from maieutic.cli.main import run
from tests.cli_commands import walk

runs = json.loads(sys.argv[1])
if runs == "every --help":
    runs = [[*path.split(), "--help"] for path, _ in walk()]
codes = []
for args in runs:  # through the entry point, which turns errors into exit codes
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            codes.append(run(args))
        except SystemExit as exc:
            codes.append(exc.code)
heavy = json.loads(sys.argv[2])
print(json.dumps({"codes": codes, "loaded": sorted(m for m in heavy if m in sys.modules)}))
"""


def _loaded_after(runs: object, tmp_path: Path) -> dict:
    env_home = tmp_path / "home"
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(runs), json.dumps(HEAVY)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "MAIEUTIC_HOME": str(env_home)},
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_command_help_loads_a_heavy_library(tmp_path):
    seen = _loaded_after("every --help", tmp_path)
    assert seen["codes"] and set(seen["codes"]) == {0}
    assert seen["loaded"] == [], f"--help imported {seen['loaded']}"


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", "cqs", "--data", "missing.json", "missing-sub.json"],
        ["generate", "cqs", "--data", "missing.json", "--out", "x.json"],
        ["evaluate", "focus", "--data", "missing.jsonl", "missing-sub.jsonl"],
        ["generate", "focus", "--data", "missing.jsonl", "--out", "x.jsonl"],
        ["evaluate", "aura", "missing.json"],
        ["import", "inspect-log", "missing.eval", "--out", "r.json"],
        ["import", "lm-eval-samples", "missing.jsonl", "--out", "r.json"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_refusing_a_missing_file_loads_no_heavy_library(args, tmp_path):
    seen = _loaded_after([args], tmp_path)
    assert seen["codes"] == [2]
    assert seen["loaded"] == [], f"{' '.join(args)} imported {seen['loaded']}"
