"""D: a resumed Ray run uses only sound shards, and one run at a time writes them.

For every generation command that runs on Ray (``shard_damage.ray_generation_commands``),
through the CLI: a first run leaves its shards as a killed run leaves them
(``shard_damage.KEEP_SHARDS``); while it still holds their lock, a second run on the
same output must exit 1 with one line and change nothing. Then each damage kind of
``shard_damage.KINDS`` is done to a shard of its own (a row edited, given another
input's id, an index out of range or negative, a stats field of the wrong type, the
last line torn; a shard copied from another output's folder, and from run 2's), and
one resumed run (``python -m maieutic``, a fresh cache) must exit 0 without a
traceback, name each damaged shard in one warning line (and no sound shard), and write
what a clean run writes: every file byte for byte, each .meta.json equal but for its
provenance. A command that asks a model asks it again for the left-out rows only.

One process makes the shards of every command, and each command has one resumed run:
several damage kinds per run, told apart by the shard each warning names. Every Ray
run joins the module's one instance (``tests/ray_host.py``), as runs join a cluster.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.hardening import shard_damage as D
from tests.hardening.probing import Outcome, changed, env, snapshot

pytestmark = pytest.mark.slow
COMMANDS = D.ray_generation_commands()
# the output folders of the two engines (never "ray" or "local": a folder named like an
# option's value in the working folder is taken for an input)
RAY, LOCAL = "on-ray", "in-process"
START_S = 600  # the first run (all commands in one process), and each resumed run
VARIES = ("provenance",)  # .meta.json fields that differ between clean runs (how, when)


@dataclass
class Shards:
    """What happened to one command's shards."""

    setup: D.Setup
    folder: Path
    argv: dict[str, list[str]] = field(default_factory=dict)  # RAY, LOCAL → argv
    made: str = ""  # the first run's exit line
    refused: Outcome | None = None
    refused_changed: list[str] = field(default_factory=list)
    refused_requests: int = 0
    holder: int = 0  # the pid of the first run
    clean: Outcome | None = None
    damaged: dict[str, tuple[Path, int]] = field(default_factory=dict)
    resumed: Outcome | None = None
    resumed_requests: int = 0


def run_cli(argv: list[str], cwd: Path, home: Path, timeout: float = START_S) -> Outcome:
    """``python -m maieutic ARGV`` to its end (its process group killed after it:
    no Ray process outlives it)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "maieutic", *argv], cwd=cwd, env=env(home),
            stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True,
        )  # fmt: skip
        try:
            code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        out.seek(0)
        err.seek(0)
        texts = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    return Outcome(argv, code, *texts, 0.0)


def _requests(server) -> int:
    return len(server.requests) if server is not None else 0


def _keep_shards(runs: dict[str, Shards], root: Path, server) -> None:
    """The first run of every command, which keeps its shards and locks; while it
    holds them, a second run of each command."""
    argvs = [[*c.split(), *s.argv[RAY]] for c, s in runs.items()]
    with tempfile.TemporaryFile() as err:
        holder = subprocess.Popen(
            [sys.executable, "-c", D.KEEP_SHARDS, json.dumps(argvs)], cwd=root,
            env=env(root / "home-first"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=err, text=True, start_new_session=True,
        )  # fmt: skip
        watchdog = threading.Timer(START_S, os.killpg, (holder.pid, signal.SIGKILL))
        watchdog.start()
        try:
            said = [line.strip() for line in _until_held(holder.stdout)]
            err.seek(0)
            assert said[-1:] == ["held"], f"{said}: {err.read().decode(errors='replace')[-3000:]}"
            exits = [line for line in said if line.startswith("exit ")]
            for shards, line in zip(runs.values(), exits, strict=True):
                shards.made, shards.holder = line, holder.pid
            _second_runs(runs, root, server)
        finally:
            watchdog.cancel()
            holder.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                holder.wait(60)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(holder.pid, signal.SIGKILL)
            holder.wait()


def _until_held(stream):
    for line in stream:
        yield line
        if line.strip() == "held":
            return


def _second_runs(runs: dict[str, Shards], root: Path, server) -> None:
    """Each command again, on the same output (one at a time: each counts the model's
    calls), and what it changed."""
    for command, shards in runs.items():
        before, asked = snapshot(shards.folder), _requests(server)
        argv = [*command.split(), *shards.argv[RAY]]
        shards.refused = run_cli(argv, shards.folder, root / "home-second")
        shards.refused_changed = changed(before, snapshot(shards.folder))
        shards.refused_requests = _requests(server) - asked


def _resume(runs: dict[str, Shards], root: Path, server) -> None:
    """Damage every command's shards (the next command's first shard is the one from
    another output's folder), then one resumed run of each, with a cache of its own."""
    firsts = {}
    for command, shards in runs.items():
        first = sorted(D.shards_of(shards.argv[RAY], shards.setup).glob("part-*.jsonl"))[0]
        firsts[command] = root / f"{_slug(command)}-first-shard.jsonl"
        shutil.copyfile(first, firsts[command])
    names = list(runs)
    for n, (command, shards) in enumerate(runs.items()):
        folder = D.shards_of(shards.argv[RAY], shards.setup)
        rows = D.read_shards(folder)
        foreign = firsts[names[(n + 1) % len(names)]] if len(names) > 1 else _renamed(rows, root)
        shards.damaged = D.damage(folder, rows, foreign, root / f"{_slug(command)}-scratch")
    for command, shards in runs.items():
        asked = _requests(server)
        argv = [*command.split(), *shards.argv[RAY]]
        shards.resumed = run_cli(argv, shards.folder, root / f"home-resumed-{_slug(command)}")
        shards.resumed_requests = _requests(server) - asked


def _renamed(rows: list[dict], root: Path) -> Path:
    """A shard of another input's rows (other ids), for a table of one command."""
    folder = root / "another-input.shards"
    folder.mkdir()
    return D.write_shard(folder, [{**row, "id": f"other-{row['id']}"} for row in rows])


def _slug(command: str) -> str:
    return command.replace(" ", "-")


@pytest.fixture(scope="module")
def shard_runs(tmp_path_factory, ray_cluster) -> dict[str, Shards]:
    """Every command's runs, made once for the module; the Ray runs join the module's
    instance (``RAY_ADDRESS``), as runs join a cluster."""
    from tests.fake_server import FakeOpenAIServer

    root = tmp_path_factory.mktemp("ray-shards").resolve()
    wanted = [c for c in COMMANDS if c in D.SETUPS]
    with contextlib.ExitStack() as stack:
        patched = stack.enter_context(pytest.MonkeyPatch.context())
        for name, value in ray_cluster.items():
            patched.setenv(name, value)
        needs_model = any(D.SETUPS[c].model for c in wanted)
        server = stack.enter_context(FakeOpenAIServer()) if needs_model else None
        url = server.base_url if server is not None else ""
        runs = {}
        for command in wanted:
            setup, folder = D.SETUPS[command], root / _slug(command)
            D.write_inputs(setup, folder)
            shards = Shards(setup, folder)
            for engine in (RAY, LOCAL):
                extra = ["--engine", "ray"] if engine == RAY else []
                shards.argv[engine] = [*D.argv_of(setup, folder, engine, url), *extra]
            runs[command] = shards
        _keep_shards(runs, root, server)
        with ThreadPoolExecutor(2) as pool:  # the clean runs: the in-process engine
            jobs = {c: pool.submit(run_cli, [*c.split(), *s.argv[LOCAL]], s.folder,
                                   root / "home-clean") for c, s in runs.items()}  # fmt: skip
        for command, job in jobs.items():
            runs[command].clean = job.result()
        _resume(runs, root, server)
    return runs


def _runs(shard_runs, command: str) -> Shards:
    if command not in shard_runs:
        pytest.fail(f"{command}: no Setup in tests/hardening/shard_damage.py")
    return shard_runs[command]


def test_every_ray_generation_command_has_a_setup():
    assert COMMANDS, "no generate command takes --engine ray: the table is not read"
    assert sorted(D.SETUPS) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_a_second_run_is_refused_while_the_first_holds_the_shard_lock(shard_runs, command):
    shards = _runs(shard_runs, command)
    assert shards.made == "exit 0", f"the first run: {shards.made}"
    refused = shards.refused
    out = D.output_of(shards.argv[RAY], shards.setup)
    assert refused.code == 1, refused.err[-2000:]
    assert refused.err.strip().splitlines() == [
        f"maieutic: error: {out}: another run is writing this output (pid {shards.holder}): "
        "wait for it to end or choose another --out"
    ]
    assert not shards.refused_changed  # no shard, output or lock touched
    assert shards.refused_requests == 0  # nor the model asked


@pytest.mark.parametrize("command", COMMANDS)
def test_a_resumed_run_exits_0_and_warns_of_each_damaged_shard_only(shard_runs, command):
    shards = _runs(shard_runs, command)
    resumed = shards.resumed
    assert resumed.code == 0, resumed.err[-3000:]
    assert "Traceback" not in resumed.err, resumed.err[-3000:]
    warned = sorted(line for line in resumed.err.splitlines() if "damaged or foreign" in line)
    assert warned == sorted(D.warning(path, n) for path, n in shards.damaged.values())


@pytest.mark.parametrize("kind", D.KINDS)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_damaged_shard_is_named_in_one_warning(shard_runs, command, kind):
    shards = _runs(shard_runs, command)
    path, n = shards.damaged[kind]
    lines = shards.resumed.err.splitlines()
    assert lines.count(D.warning(path, n)) == 1, shards.resumed.err[-3000:]


def _files(folder: Path) -> dict[str, Path]:
    return {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_resumed_run_writes_a_clean_runs_files(shard_runs, command):
    shards = _runs(shard_runs, command)
    assert shards.clean.code == 0, shards.clean.err[-2000:]
    assert shards.resumed.code == 0, shards.resumed.err[-2000:]
    clean, resumed = _files(shards.folder / LOCAL), _files(shards.folder / RAY)
    assert sorted(resumed) == sorted(clean)  # the shards removed, nothing else written
    for name, path in clean.items():
        if name.endswith(".meta.json"):
            a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (path, resumed[name]))
            for varies in VARIES:
                a.pop(varies, None), b.pop(varies, None)
            assert a == b, f"{name}: {sorted(k for k in a if a[k] != b.get(k))}"
        else:
            assert resumed[name].read_bytes() == path.read_bytes(), name


MODEL_COMMANDS = [c for c in COMMANDS if c in D.SETUPS and D.SETUPS[c].model]


@pytest.mark.parametrize("command", MODEL_COMMANDS)
def test_a_resumed_run_asks_the_model_for_the_left_out_rows_only(shard_runs, command):
    shards = _runs(shard_runs, command)
    assert shards.resumed_requests == D.REGENERATED, shards.resumed.err[-2000:]
