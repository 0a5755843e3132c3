"""The pinned installs (constraints.txt): current with pyproject.toml, used by every
install the README and CI make, and refused when they drift apart."""

from __future__ import annotations

import copy
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SPEC = importlib.util.spec_from_file_location("lock", REPO / "scripts" / "lock.py")
lock = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(lock)

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
LOCK_TEXT = (REPO / "constraints.txt").read_text(encoding="utf-8")


def test_the_lock_is_current_with_pyproject():
    assert lock.problems(PYPROJECT, LOCK_TEXT) == []


def test_a_changed_range_calls_for_a_refresh():
    changed = copy.deepcopy(PYPROJECT)
    deps = changed["project"]["dependencies"]
    deps[deps.index("numpy>=1.24")] = "numpy>=1.25"
    assert lock.problems(changed, LOCK_TEXT) == [
        "pyproject.toml's requirements changed since constraints.txt was written"
    ]
    # a comment or an order is no change
    reordered = copy.deepcopy(PYPROJECT)
    reordered["project"]["dependencies"].reverse()
    assert lock.requirements_hash(reordered) == lock.requirements_hash(PYPROJECT)


def test_a_pin_outside_its_range_or_missing_is_named():
    text = re.sub(r"(?m)^numpy==.*$", "numpy==1.20.0", LOCK_TEXT)
    text = re.sub(r"(?im)^rapidfuzz==.*\n", "", text)
    assert lock.problems(PYPROJECT, text) == [
        "numpy==1.20.0 is outside >=1.24",
        "rapidfuzz is not pinned",
    ]


def test_torch_is_pinned_to_the_build_on_disk_without_its_local_label():
    pinned = lock.pins(LOCK_TEXT)
    assert pinned["torch"] == "2.13.0"
    assert not [v for v in pinned.values() if "+" in v]


@pytest.mark.parametrize(
    "path, needle",
    [
        ("README.md", "pip install -c constraints.txt torch==2.13.0"),
        ("scripts/test.sh", '"${PINS[@]}"'),
        ("scripts/check_llm_route.sh", 'PIP_CONSTRAINT="$PWD/constraints.txt"'),
    ],
)
def test_every_install_of_the_readme_and_ci_takes_the_pins(path, needle):
    assert needle in (REPO / path).read_text(encoding="utf-8")
