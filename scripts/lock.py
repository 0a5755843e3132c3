"""The pinned installs: ``constraints.txt``, the versions the test suite passed with.

    python scripts/lock.py            refresh: install maieutic with every extra into a
                                      fresh environment (as scripts/test.sh does, without
                                      the pins), then write what pip chose
    python scripts/lock.py --from V   write the pins from an existing environment V
                                      (one a full test run has just passed in)
    python scripts/lock.py --check    is constraints.txt current with pyproject.toml?
                                      (scripts/test.sh runs this first; exit 1 if not)

The README's commands and ``.ci/run`` install with ``-c constraints.txt``, so a fresh
install resolves the versions CI passed with, not whatever was released that day; a
plain ``pip install maieutic`` still takes pyproject.toml's ranges. Current means: the
file's header names the hash of pyproject.toml's requirements, and every package they
name is pinned to a version their ranges admit. Only the standard library and
``packaging`` (which pip itself carries) are used, so the check runs before anything is
installed.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LOCK = REPO / "constraints.txt"
PYPROJECT = REPO / "pyproject.toml"
HASH_LINE = re.compile(r"^# pyproject requirements: sha256:([0-9a-f]{64})$", re.M)
# Installed first and on its own by scripts/test.sh and the README (the CPU build on
# disk); pinned here too so that nothing else moves it.
TORCH = "torch==2.13.0"


def requirements(pyproject: dict) -> list[str]:
    """Every requirement pyproject.toml names: the dependencies and each extra's."""
    project = pyproject["project"]
    out = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        out.extend(extra)
    return out


def requirements_hash(pyproject: dict) -> str:
    """The hash the lock's header carries: the requirements, one per line, sorted (a
    comment or a reordering does not call for a refresh; a changed range does)."""
    lines = sorted({" ".join(r.split()) for r in requirements(pyproject)})
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def pins(lock_text: str) -> dict[str, str]:
    """The lock's ``name==version`` lines, by normalised name."""
    out = {}
    for line in lock_text.splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, _, pinned = line.partition("==")
            out[_name(name.split("[")[0])] = pinned.strip()
    return out


def problems(pyproject: dict, lock_text: str) -> list[str]:
    """Why the lock is not current with pyproject.toml (empty when it is)."""
    try:
        from packaging.requirements import Requirement
        from packaging.version import Version
    except ImportError:  # a bare interpreter: pip carries its own copy
        from pip._vendor.packaging.requirements import Requirement
        from pip._vendor.packaging.version import Version

    found = HASH_LINE.search(lock_text)
    out = []
    if not found:
        out.append("constraints.txt has no 'pyproject requirements' hash line")
    elif found.group(1) != requirements_hash(pyproject):
        out.append("pyproject.toml's requirements changed since constraints.txt was written")
    pinned = pins(lock_text)
    own = _name(pyproject["project"]["name"])
    for text in requirements(pyproject):
        requirement = Requirement(text)
        name = _name(requirement.name)
        if name == own:
            continue  # an extra naming the others (maieutic[llm,…])
        if name not in pinned:
            out.append(f"{requirement.name} is not pinned")
        elif not requirement.specifier.contains(Version(pinned[name]), prereleases=True):
            out.append(f"{requirement.name}=={pinned[name]} is outside {requirement.specifier}")
    return out


def freeze(python: Path) -> list[str]:
    """``name==version`` of everything in an environment but maieutic itself, local
    version labels dropped (torch's ``+cpu``: the constraint then admits the build on
    disk and no other version)."""
    text = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--exclude-editable", "--all"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = []
    for line in text.splitlines():
        if "==" not in line or line.startswith("#"):
            continue
        name, _, pinned = line.partition("==")
        if _name(name) in ("maieutic", "pip", "setuptools", "wheel"):
            continue
        lines.append(f"{name}=={pinned.split('+')[0]}")
    return sorted(lines, key=str.lower)


def fresh_environment(where: Path) -> Path:
    """A new environment holding maieutic with its test extras, resolved from
    pyproject.toml's ranges (scripts/test.sh's installs, without the pins)."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    python = where / "bin" / "python"
    env_test = REPO / "scripts" / "test.sh"
    subprocess.run(
        ["bash", str(env_test), "--install-only"],
        check=True,
        cwd=REPO,
        env={
            **__import__("os").environ,
            "MAIEUTIC_TEST_VENV": str(where),
            "MAIEUTIC_UNPINNED": "1",
        },
    )
    return python


def write(lines: list[str], pyproject: dict) -> None:
    header = [
        "# The versions maieutic's test suite passed with (see docs/testing.md#pinned-installs).",
        "# Used by the README's commands and .ci/run: pip install -c constraints.txt ...",
        "# Refresh with: python scripts/lock.py   (checked by: python scripts/lock.py --check)",
        f"# pyproject requirements: sha256:{requirements_hash(pyproject)}",
    ]
    if not any(line.lower().startswith("torch==") for line in lines):
        lines = sorted([*lines, TORCH], key=str.lower)
    tmp = LOCK.with_suffix(".tmp")
    tmp.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    tmp.replace(LOCK)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="is the lock current?")
    parser.add_argument("--from", dest="source", type=Path, help="pin an existing environment")
    args = parser.parse_args()
    pyproject = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    if args.check:
        if not LOCK.exists():
            print("constraints.txt is missing: python scripts/lock.py", file=sys.stderr)
            return 1
        found = problems(pyproject, LOCK.read_text(encoding="utf-8"))
        for line in found:
            print(f"constraints.txt: {line}", file=sys.stderr)
        if found:
            print("refresh it: python scripts/lock.py", file=sys.stderr)
        return 1 if found else 0
    if args.source:
        python = args.source / "bin" / "python"
        write(freeze(python), pyproject)
    else:
        with tempfile.TemporaryDirectory(prefix="maieutic-lock-") as where:
            write(freeze(fresh_environment(Path(where) / "venv")), pyproject)
    found = problems(pyproject, LOCK.read_text(encoding="utf-8"))
    for line in found:
        print(f"constraints.txt: {line}", file=sys.stderr)
    print(f"wrote {LOCK.relative_to(REPO)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
