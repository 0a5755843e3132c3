"""What a refactoring must leave as it was, written to one folder so that two checkouts
can be compared with ``diff -r``: the ``--help`` text of every command, every registered
component's parameters and defaults, the output of ``maieutic demo`` (and the files it
writes), and the output of every ``benchmarks/reproduce_*.py``.

    python scripts/behaviour_snapshot.py OUT_DIR [--data-dir ../shared/data] [--skip-reproduce]
    diff -r BEFORE_DIR AFTER_DIR   # no output: the behaviour is unchanged

Wall times, creation stamps, the checkout's folder and commit, and the demo's cache
folder are the only things masked (they differ from one run, checkout and machine to
the next); every figure is compared as printed.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMIT = re.compile(r'"commit": "[0-9a-f]{40}"')
CREATED = re.compile(r'"created": "[^"]*"')
TIMES = re.compile(r"\b\d+(?:\.\d+)?\s?(?:s|ms|min)\b|\b\d+:\d\d(?::\d\d)?\b")
REPRODUCE = ("reproduce_cqs.py", "reproduce_focus.py", "reproduce_compqa.py", "reproduce_aura.py")


def _mask(text: str, home: str) -> str:
    text = CREATED.sub('"created": "<created>"', COMMIT.sub('"commit": "<commit>"', text))
    return TIMES.sub("<time>", text.replace(home, "<home>").replace(str(ROOT), "<root>"))


def _helps(out: Path) -> int:
    import click
    from click.testing import CliRunner

    from maieutic.cli.main import cli as main

    count, runner = 0, CliRunner()

    def walk(command: click.Command, path: list[str]) -> None:
        nonlocal count
        done = runner.invoke(main, [*path[1:], "--help"], prog_name="maieutic", terminal_width=100)
        text = f"exit {done.exit_code}\n{done.output}"
        (out / "help" / ("_".join(path) + ".txt")).write_text(text)
        count += 1
        if isinstance(command, click.Group):
            with click.Context(command, info_name=path[-1]) as ctx:
                for name in command.list_commands(ctx):
                    sub = command.get_command(ctx, name)
                    if sub is not None:
                        walk(sub, [*path, name])

    (out / "help").mkdir(parents=True)
    walk(main, ["maieutic"])
    return count


def _defaults(out: Path) -> int:
    from maieutic import registry

    rows = {}
    for task in registry.tasks():
        for kind in registry.KINDS:
            for name in registry.names(kind, task=task):
                found = registry.entry(kind, task=task, name=name)
                parameters = inspect.signature(found.factory).parameters
                rows[f"{kind}/{task}/{name}"] = {
                    "description": found.description,
                    "parameters": {k: repr(p.default) for k, p in parameters.items()},
                    "threshold": repr(found.threshold),
                    "metadata": repr(sorted(found.metadata.items())),
                }
    (out / "components.json").write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return len(rows)


def _run(out: Path, name: str, command: list[str], home: str, *, own_home: bool) -> int:
    env = {**os.environ, "COLUMNS": "100"}
    if own_home:  # the demo writes its files under its home (caches stay shared: warm)
        env["MAIEUTIC_HOME"] = home
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    text = f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
    (out / f"{name}.txt").write_text(_mask(text, home))
    return done.returncode


def main(argv: list[str] | None = None) -> int:
    """Write the snapshot; the exit status is 1 when a command it runs failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--skip-reproduce", action="store_true")
    args = parser.parse_args(argv)
    if args.out.exists():
        parser.error(f"{args.out} exists: give a new folder")
    args.out.mkdir(parents=True)
    home = str((args.out / ".home").resolve())
    print(f"help texts: {_helps(args.out)}", flush=True)
    print(f"components: {_defaults(args.out)}", flush=True)
    failed = _run(args.out, "demo", [sys.executable, "-m", "maieutic", "demo"], home, own_home=True)
    demo_files = Path(home) / "demo"
    for path in sorted(demo_files.rglob("*")) if demo_files.is_dir() else ():
        if path.is_file():
            target = args.out / "demo_files" / path.relative_to(demo_files)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_mask(path.read_text(errors="replace"), home))
    if not args.skip_reproduce:
        for script in REPRODUCE:
            paper = script.removeprefix("reproduce_").removesuffix(".py")
            command = [sys.executable, f"benchmarks/{script}", "--data-dir"]
            command.append(str(args.data_dir / paper))
            failed |= _run(args.out, script.removesuffix(".py"), command, home, own_home=False)
            print(f"{script}: done", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
