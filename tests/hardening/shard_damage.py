"""D's pieces: the generation commands that run on Ray, a call of each, the run that
leaves its shards as a killed run leaves them, and the damage done to them.

A command is in group D when it is a ``generate`` command with an ``--engine`` option
that takes ``ray`` (its finished rows go to ``OUT.shards/runK/*.jsonl``). Each needs a
``Setup`` here (``test_every_ray_generation_command_has_a_setup`` says which lack one).

The shards: ``KEEP_SHARDS`` runs each command's call on Ray in one process (one Ray
start for all), with ``Engine.written`` made to keep the engine and remove nothing, so
that every run's files are written and its shards and lock stay, and waits. While it
waits it holds every lock, as a run still going would; when it ends the kernel drops
them, as it does for a killed run. ``damage`` then rewrites each run's rows as one
shard per damage kind (with the engine's own ``write_shard``: each row sealed with its
digest for the folder's run), damages one row of each and copies in two foreign
shards, so that a resumed run names each damaged shard in a warning of its own.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maieutic.engines.shards import DIGEST, MANIFEST, shard_folder, write_shard
from tests.cli_commands import leaves
from tests.conftest import plan_interventions

N_ROWS = 8


def ray_generation_commands() -> list[str]:
    """The ``generate`` commands with ``--engine`` taking ``ray``: they keep shards."""
    found = []
    for path, command in leaves():
        engines = [p for p in command.params if "--engine" in getattr(p, "opts", ())]
        takes_ray = any("ray" in getattr(p.type, "choices", ()) for p in engines)
        if path.split()[0] == "generate" and takes_ray:
            found.append(path)
    return sorted(found)


def _cqs_data() -> str:
    return json.dumps(plan_interventions(N_ROWS))


def _focus_data() -> str:
    text = "Nobody reads paper books anymore, so library {} is a waste of money."
    rows = [{"id": f"A{i}", "argument": text.format(i)} for i in range(N_ROWS)]
    return "".join(json.dumps(row) + "\n" for row in rows)


def _compqa_questions() -> str:
    return "".join(f"What is better for trip {i}: train or plane?\n" for i in range(N_ROWS))


@dataclass(frozen=True)
class Setup:
    """A call of a Ray generation command: ``@NAME`` is an input file of ``files``,
    ``@OUT/NAME`` the output (``output``: the option that names it, whose shards are
    ``OUTPUT.shards``); ``model``: the call asks the fake model server."""

    files: dict[str, Callable[[], str]]
    argv: tuple[str, ...]
    output: str = "--out"
    model: bool = False


SETUPS: dict[str, Setup] = {
    "generate cqs": Setup(
        {"data.json": _cqs_data},
        ("--data", "@data.json", "--out", "@OUT/cqs.json", "--generator", "template"),
    ),
    "generate focus": Setup(
        {"data.jsonl": _focus_data}, ("--data", "@data.jsonl", "--out", "@OUT/focus.jsonl")
    ),
    "generate compqa": Setup(
        {"questions.txt": _compqa_questions},
        (
            "--questions",
            "@questions.txt",
            "--out-dir",
            "@OUT/answers",
            "--scenario",
            "1",
            "--concurrency",
            "1",
            "--max-tokens",
            "32",
        ),
        output="--out-dir",
        model=True,
    ),
}


def argv_of(setup: Setup, folder: Path, out: str, base_url: str) -> list[str]:
    """The call's words with its files in ``folder`` and its output in ``folder/out``."""
    words = []
    for word in setup.argv:
        if word.startswith("@OUT/"):
            word = str(folder / out / word[5:])
        elif word.startswith("@"):
            word = str(folder / word[1:])
        words.append(word)
    if setup.model:
        words += ["--llm", "fake", "--base-url", base_url, "--retries", "0"]
    return words


def output_of(argv: list[str], setup: Setup) -> Path:
    return Path(argv[argv.index(setup.output) + 1])


def write_inputs(setup: Setup, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in setup.files.items():
        (folder / name).write_text(text(), encoding="utf-8")


KEEP_SHARDS = """
import json, sys
from maieutic.run.engine import Engine
KEPT = []  # each run's engine, kept alive: a dropped engine's lock file closes
Engine.written = lambda self, out, run_index: KEPT.append(self)  # shards and lock stay
from maieutic.cli.main import run
for argv in json.loads(sys.argv[1]):
    print("exit", run(argv), flush=True)
print("held", flush=True)
sys.stdin.read()  # the locks go when this process ends
"""


Change = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]


def _retext(row: dict, rows: list[dict]) -> dict:
    text = json.dumps(row["outcome"])
    assert "?" in text, "a question to edit"
    return {**row, "outcome": json.loads(text.replace("?", "!", 1))}


# what is damaged → (the rows of its shard, how the first is changed: None tears the
# last line). The edited row keeps the digest it had; every other changed row is
# sealed anew (``write_shard``), so that only the check of its index, id or types can
# leave it out. Row 0 carries its batch's counts, warnings and notes: it stays whole,
# in a sound shard of its own.
DAMAGES: dict[str, tuple[list[int], Change | None]] = {
    "edited question text": ([1], _retext),
    "id of another input": ([2], lambda row, rows: {**row, "id": rows[3]["id"]}),
    "index out of range": ([3], lambda row, rows: {**row, "index": N_ROWS + 50}),
    "negative index": ([4], lambda row, rows: {**row, "index": -1}),
    "wrong-typed stats": ([5], lambda row, rows: {**row, "stats": ["0", *row["stats"][1:]]}),
    "torn last line": ([6, 7], None),  # row 6 whole, row 7 cut half-way
}
DIGEST_KEPT = {"edited question text"}
# shards copied in whole, each row sound where it was made: from another command's
# output (other ids), and from run 2 of this output (``--runs 2``: the same ids, other
# questions, sealed for run 2's manifest)
OTHER_OUTPUT, OTHER_RUN = "shard of another output's folder", "shard of run 2's folder"
KINDS = [*DAMAGES, OTHER_OUTPUT, OTHER_RUN]
SOUND = [0]
REGENERATED = 6  # rows 1 to 5 and 7 (an out-of-range or negative row leaves its row out)


def read_shards(folder: Path) -> list[dict[str, Any]]:
    """The rows of a run's shards (without their digests), in index order."""
    rows = []
    for path in sorted(folder.glob("part-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            row.pop(DIGEST)
            rows.append(row)
    return sorted(rows, key=lambda row: row["index"])


def damage(
    folder: Path, rows: list[dict], other_output: Path, scratch: Path
) -> dict[str, tuple[Path, int]]:
    """Rewrite ``folder``'s shards as one per damage kind and damage each; copy in
    ``other_output`` (a shard of another output's folder) and a shard of run 2 (made
    in ``scratch``). Damage kind → (its shard, the rows a resumed run leaves out)."""
    assert [row["index"] for row in rows] == list(range(N_ROWS)), "a clean run's rows"
    for path in folder.glob("part-*.jsonl"):
        path.unlink()
    write_shard(folder, [rows[i] for i in SOUND])
    done: dict[str, tuple[Path, int]] = {}
    for kind, (indices, change) in DAMAGES.items():
        shard = [rows[i] for i in indices]
        if change is not None and kind not in DIGEST_KEPT:
            shard[0] = change(shard[0], rows)
        path = write_shard(folder, shard)
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        if change is None:  # torn: the last line cut half-way, as a crash leaves it
            lines[-1] = lines[-1][: len(lines[-1]) // 2]
        elif kind in DIGEST_KEPT:
            lines[0] = json.dumps(change(json.loads(lines[0]), rows)) + "\n"
        path.write_text("".join(lines), encoding="utf-8")
        done[kind] = (path, 1)
    copies = {OTHER_OUTPUT: other_output, OTHER_RUN: _run_2_shard(folder, rows, scratch)}
    for n, (kind, source) in enumerate(copies.items()):
        path = folder / f"part-{0:010d}-{98 + n:05d}.jsonl"
        shutil.copyfile(source, path)
        done[kind] = (path, len(path.read_text(encoding="utf-8").splitlines()))
    return done


def _run_2_shard(folder: Path, rows: list[dict], scratch: Path) -> Path:
    """A shard as run 2 of the same output writes it: the same ids, other questions,
    in a folder (in ``scratch``) with run 2's manifest."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["run"] == 1, manifest
    other = scratch / "run2"
    other.mkdir(parents=True)
    (other / MANIFEST).write_text(json.dumps({**manifest, "run": 2}), encoding="utf-8")
    return write_shard(other, [_retext(row, rows) for row in rows])


def shards_of(argv: list[str], setup: Setup) -> Path:
    """Run 1's shard folder of the call ``argv``."""
    return shard_folder(output_of(argv, setup), 0)


def warning(path: Path, n: int) -> str:
    """The line a resumed run prints for a shard with ``n`` rows left out."""
    return f"warning: {path}: {n} damaged or foreign row(s) left out and generated again"
