"""Where the test suite's time goes: per test, per file and per group.

    python benchmarks/bench_tests.py JUNIT.xml [--top 30] [--compare BEFORE.xml]
    python benchmarks/bench_tests.py --run [PYTEST ARGS…]

Reads the JUnit XML pytest writes (``pytest --junitxml=FILE``: each test's time is its
setup, call and teardown together, so a session fixture's start-up is charged to the
first test that asks for it) and prints the slowest tests, the files summed, and the
groups of the suite summed. ``--run`` runs pytest itself (the arguments after it go
to pytest) with a JUnit file in a temporary folder, then prints the same tables.
``--compare`` prints each group's time before and after beside each other.

The groups are those of the test tree and the kinds of work named in the issue that
asked for this table: the hardening matrices, the command table, Ray, the secrets
tests, the embedded and served language models, the browser, the papers' analyses.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# (group, what a test file's path starts with or contains); the first match wins
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("hardening: bad-input and output matrices", (
        "tests/hardening/test_bad_inputs.py", "tests/hardening/test_output_clash.py")),
    ("hardening: command table", ("tests/hardening/test_command_table.py",)),
    ("hardening: Ray shards (D)", ("tests/hardening/test_ray_shards.py",)),
    ("hardening: secrets (E) and other", ("tests/hardening/",)),
    ("engines (Ray)", ("tests/engines/",)),
    ("secrets", ("tests/test_secrets",)),
    ("language models (embedded, llama.cpp)", (
        "tests/test_embedded_llm.py", "tests/test_llm_real.py", "tests/test_ask_llm_embedded.py",
        "tests/tasks/focus/test_focus_llm_real.py", "tests/test_llm_")),
    ("browser (Chromium)", (
        "tests/test_web_browser.py", "tests/test_layout_screenshots.py",
        "tests/test_web_phone.py", "tests/test_web_report_shells.py")),
    ("papers' analyses", ("_paper_analyses.py",)),
    ("judges, meta-eval, scorers", (
        "tests/test_usefulness_judge.py", "tests/tasks/cqs/test_meta_eval.py", "tests/test_scorer",
        "tests/test_judges.py")),
    ("tasks: cqs", ("tests/tasks/cqs/",)),
    ("tasks: focus", ("tests/tasks/focus/",)),
    ("tasks: aura", ("tests/tasks/aura/",)),
    ("tasks: compqa", ("tests/tasks/compqa/",)),
    ("web app", ("tests/test_web", "tests/test_serve")),
    ("other", ("tests/",)),
)  # fmt: skip


def test_file(case: ET.Element) -> str:
    """The test file of a JUnit ``testcase`` (its ``file`` attribute when pytest wrote
    one, else its class name read as a module path)."""
    if case.get("file"):
        return case.get("file", "")
    parts = case.get("classname", "").split(".")
    # "tests.hardening.test_bad_inputs" or "tests.test_x.TestClass": cut at the module
    for end in range(len(parts), 0, -1):
        candidate = Path(REPO, *parts[:end]).with_suffix(".py")
        if candidate.exists():
            return str(candidate.relative_to(REPO))
    return "/".join(parts) + ".py"


def group_of(path: str) -> str:
    """The group a test file belongs to (``GROUPS``)."""
    for name, patterns in GROUPS:
        if any(path.startswith(p) or (not p.startswith("tests/") and p in path) for p in patterns):
            return name
    return "other"


def read_cases(junit: Path) -> list[tuple[str, str, float, str]]:
    """``(file, test name, seconds, outcome)`` of every test in a JUnit file."""
    cases = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = child.tag
        cases.append((test_file(case), case.get("name", ""), float(case.get("time", 0)), outcome))
    return cases


def summed(cases: list[tuple[str, str, float, str]], key) -> dict[str, tuple[float, int]]:
    """Seconds and test counts summed by ``key(file)``."""
    totals: dict[str, list] = defaultdict(lambda: [0.0, 0])
    for path, _, seconds, _ in cases:
        totals[key(path)][0] += seconds
        totals[key(path)][1] += 1
    return {k: (v[0], v[1]) for k, v in totals.items()}


def _table(title: str, rows: list[tuple[str, float, int]], total: float) -> None:
    print(f"\n{title}")
    print(f"{'seconds':>9} {'share':>6} {'tests':>6}  name")
    for name, seconds, count in rows:
        print(f"{seconds:9.1f} {seconds / total:6.1%} {count:6d}  {name}")


def report(junit: Path, top: int, before: Path | None = None) -> None:
    """Print the slowest tests, files and groups of ``junit`` (and ``before``'s groups)."""
    cases = read_cases(junit)
    total = sum(c[2] for c in cases) or 1.0
    outcomes = defaultdict(int)
    for case in cases:
        outcomes[case[3]] += 1
    counts = ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
    print(f"{junit}: {len(cases)} tests ({counts}), {total:.0f} s summed ({total / 60:.1f} min)")
    slowest = sorted(cases, key=lambda c: -c[2])[:top]
    _table(f"the {top} slowest tests", [(f"{c[0]}::{c[1]}", c[2], 1) for c in slowest], total)
    files = sorted(summed(cases, lambda p: p).items(), key=lambda kv: -kv[1][0])[:top]
    _table(f"the {top} slowest files", [(k, *v) for k, v in files], total)
    groups = sorted(summed(cases, group_of).items(), key=lambda kv: -kv[1][0])
    _table("groups", [(k, *v) for k, v in groups], total)
    if before is not None:
        old = summed(read_cases(before), group_of)
        new = dict(groups)
        print(f"\n{'before':>9} {'after':>9} {'tests':>11}  group")
        for name in sorted(set(old) | set(new), key=lambda g: -old.get(g, (0, 0))[0]):
            (s0, n0), (s1, n1) = old.get(name, (0.0, 0)), new.get(name, (0.0, 0))
            print(f"{s0:9.1f} {s1:9.1f} {n0:5d}→{n1:<5d}  {name}")
        t0 = sum(v[0] for v in old.values())
        print(f"{t0:9.1f} {total:9.1f}  all")


def main() -> None:
    """Print the tables for a JUnit file, or run pytest and print them for its run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("junit", nargs="?", type=Path, help="a JUnit XML file pytest wrote")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--compare", type=Path, help="a JUnit file of an earlier run")
    parser.add_argument("--run", nargs=argparse.REMAINDER, help="run pytest with these args")
    args = parser.parse_args()
    if args.run is not None:
        junit = Path(tempfile.mkdtemp()) / "junit.xml"
        command = [sys.executable, "-m", "pytest", f"--junitxml={junit}", *args.run]
        code = subprocess.call(command, cwd=REPO)
        if not junit.exists():
            sys.exit(code or 1)
        report(junit, args.top, args.compare)
        sys.exit(code)
    if args.junit is None:
        parser.error("give a JUnit file, or --run")
    report(args.junit, args.top, args.compare)


if __name__ == "__main__":
    main()
