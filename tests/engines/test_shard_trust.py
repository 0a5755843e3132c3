"""A resumed Ray run uses only sound shard rows (its digest, index, id and types are
checked; any other row is generated again), and one run at a time writes a shard
folder (a second is refused with one line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.engines.shard_lock import lock_folder
from maieutic.engines.shards import finished, open_folder, read_rows, sealed, write_shard
from maieutic.errors import RunError
from tests.conftest import plan_interventions, write_json

KEYS = ["a", "b", "c"]


def _id_at(index: int) -> str | None:
    return KEYS[index] if index < len(KEYS) else None


def _row(index: int, key: str, question: str = "Why?") -> dict:
    outcome = [{"__class__": "x", "cqs": [question]}]
    return {"index": index, "id": key, "outcome": outcome, "error": None, "failed": False,
            "trace": None, "stats": [1, 0, 0], "warnings": [], "notes": []}  # fmt: skip


def _shard(folder: Path, rows: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_shard(folder, rows)


def _edit(path: Path, n: int, change) -> None:
    """Replace line ``n`` of a shard with ``change(row)`` (its digest kept as it was)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    row = json.loads(lines[n])
    lines[n] = json.dumps(change(row)) + "\n"
    path.write_text("".join(lines), encoding="utf-8")


def _kept(folder: Path) -> tuple[dict, list[str]]:
    said: list[str] = []
    return finished(read_rows(folder, _id_at, said.append)), said


def test_sound_rows_are_kept_each_with_its_digest(tmp_path):
    path = _shard(tmp_path / "s", [_row(0, "a"), _row(1, "b"), _row(2, "c")])
    assert all("sha256" in json.loads(line) for line in path.read_text().splitlines())
    kept, said = _kept(tmp_path / "s")
    assert sorted(kept) == [0, 1, 2] and said == []
    assert kept[1] == sealed(_row(1, "b"))


def _retext(row: dict) -> dict:
    row["outcome"][0]["cqs"] = ["Edited?"]
    return row


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(_retext, id="edited question text"),
        pytest.param(lambda r: {**r, "id": "c"}, id="wrong id at its index"),
        pytest.param(lambda r: {**r, "index": 7}, id="index out of range"),
        pytest.param(lambda r: {**r, "index": -1}, id="negative index"),
        pytest.param(lambda r: {**r, "stats": [1, "0", 0]}, id="wrong-typed stats"),
        pytest.param(lambda r: {**r, "stats": [1, 0]}, id="stats too short"),
        pytest.param(lambda r: {**r, "failed": "no"}, id="wrong-typed flag"),
        pytest.param(lambda r: {**r, "warnings": [3]}, id="wrong-typed warnings"),
        pytest.param(lambda r: {k: v for k, v in r.items() if k != "sha256"}, id="no digest"),
    ],
)
def test_a_damaged_or_foreign_row_is_left_out_with_one_line(tmp_path, change):
    path = _shard(tmp_path / "s", [_row(0, "a"), _row(1, "b"), _row(2, "c")])
    _edit(path, 1, change)
    kept, said = _kept(tmp_path / "s")
    assert sorted(kept) == [0, 2]  # row 1 is generated again
    assert said == [f"{path}: 1 damaged or foreign row(s) left out and generated again"]


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(lambda: sealed({**_row(1, "b"), "stats": [1, "0", 0]}), id="stats, resealed"),
        pytest.param(lambda: sealed(_row(1, "c")), id="another input's row, resealed"),
        pytest.param(lambda: sealed(_row(5, "f")), id="past the end, resealed"),
        pytest.param(lambda: sealed({**_row(1, "b"), "extra": 1}), id="an unknown field"),
    ],
)
def test_a_row_with_a_matching_digest_is_still_checked(tmp_path, row):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "part-0000000000-00000.jsonl").write_text(json.dumps(row()) + "\n")
    kept, said = _kept(folder)
    assert kept == {} and len(said) == 1


def test_a_shard_copied_from_another_runs_folder_is_foreign(tmp_path):
    # the same rows, well formed and with valid ids: only the run they were made for differs
    run1, run2 = tmp_path / "out.shards" / "run1", tmp_path / "out.shards" / "run2"
    for n, folder in enumerate((run1, run2), start=1):
        open_folder(folder, {"signature": "s", "generator": {"seed": 41 + n}, "ids": "x", "run": n})
    copied = write_shard(run1, [_row(0, "a"), _row(1, "b")])
    (run2 / copied.name).write_bytes(copied.read_bytes())
    assert sorted(_kept(run1)[0]) == [0, 1]  # its own run keeps them
    kept, said = _kept(run2)
    assert kept == {}
    assert said == [
        f"{run2 / copied.name}: 2 damaged or foreign row(s) left out and generated again"
    ]


def test_a_corpus_has_no_id_at_a_position_past_any_integer_sqlite_holds(tmp_path):
    from maieutic.engines.corpus import CorpusStore

    store = CorpusStore(tmp_path / "corpus")
    assert store.id_at(2**70) is None and store.id_at(-(2**70)) is None


def test_a_torn_or_unreadable_line_is_left_out_not_an_error(tmp_path):
    path = _shard(tmp_path / "s", [_row(0, "a"), _row(1, "b")])
    with path.open("ab") as handle:
        handle.write(b'{"index": 2, "id": "c", "outc\xff')  # torn, and not UTF-8
    kept, said = _kept(tmp_path / "s")
    assert sorted(kept) == [0, 1]
    assert said == [f"{path}: 1 damaged or foreign row(s) left out and generated again"]


def test_a_damaged_row_warns_on_standard_error_by_default(tmp_path, capsys):
    path = _shard(tmp_path / "s", [_row(0, "a")])
    _edit(path, 0, _retext)
    assert list(read_rows(tmp_path / "s", _id_at)) == []
    said = f"warning: {path}: 1 damaged or foreign row(s) left out and generated again\n"
    assert capsys.readouterr().err == said


def test_a_second_lock_on_a_shard_folder_is_refused_until_the_first_is_released(tmp_path):
    folder, out = tmp_path / "o.json.shards" / "run1", tmp_path / "o.json"
    first = lock_folder(folder, out=out)
    with pytest.raises(RunError) as caught:
        lock_folder(folder, out=out)
    assert str(caught.value) == (
        f"{out}: another run is writing this output (pid {os.getpid()}): "
        "wait for it to end or choose another --out"
    )
    first.release()
    lock_folder(folder, out=out).release()  # free again


def test_a_file_system_without_flock_runs_unlocked_and_says_so(tmp_path, monkeypatch, capsys):
    import errno

    from maieutic.engines import shard_lock

    def no_flock(fd, op):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(shard_lock.fcntl, "flock", no_flock)
    folder, out = tmp_path / "o.json.shards" / "run1", tmp_path / "o.json"
    lock_folder(folder, out=out).release()  # not refused as "another run is writing"
    assert capsys.readouterr().err == (
        f"warning: {out}: cannot lock {folder} (No locks available); running without the "
        "lock that keeps a second run off this output\n"
    )


_HOLD = """
import sys, time
from pathlib import Path
from maieutic.engines.shard_lock import lock_folder
lock = lock_folder(Path(sys.argv[1]), out=Path(sys.argv[2]))
print("held", flush=True)
time.sleep(120)
"""


def test_a_second_ray_run_on_the_same_output_is_refused_with_one_line(cli, tmp_path):
    """Another process holds run 1's shard folder: this run writes nothing, exits 1."""
    pytest.importorskip("ray", reason="the ray engine needs: pip install 'maieutic[ray]'")
    out = tmp_path / "o" / "cqs.json"
    data = write_json(tmp_path / "items.json", {"R_1": {"intervention_id": "R_1",
                      "intervention": 'A: "We must act now."', "cqs": []}})  # fmt: skip
    folder = out.with_name("cqs.json.shards") / "run1"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(folder), str(out)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "held\n"
        result = cli("generate", "cqs", "--data", data, "--out", out, "--generator", "llm",
                     "--llm", "fake", "--base-url", "http://127.0.0.1:9/v1",
                     "--engine", "ray")  # fmt: skip
    finally:
        holder.kill()
        holder.wait()
    assert result.code == 1
    assert result.err.strip().splitlines() == [
        f"maieutic: error: {out}: another run is writing this output (pid {holder.pid}): "
        "wait for it to end or choose another --out"
    ]
    assert sorted(p.name for p in out.parent.iterdir()) == ["cqs.json.shards"]  # its lock only
    assert [p.name for p in folder.iterdir()] == [".lock"]


def _interventions(tmp_path: Path, n: int) -> Path:
    return write_json(tmp_path / "items.json", plan_interventions(n))


@pytest.mark.slow
def test_a_resumed_ray_run_generates_damaged_rows_again_and_writes_a_clean_runs_file(
    monkeypatch, tmp_path, capsys
):
    """Shards of a finished run kept, then: a question edited, a row's id swapped, a
    row moved past the end, a stats field made a string. The resumed run generates
    exactly those rows again, warns once per shard, and writes the clean run's bytes."""
    ray = pytest.importorskip("ray", reason="the ray engine needs: pip install 'maieutic[ray]'")
    import maieutic
    from maieutic.engines import RayOptions
    from maieutic.engines.shards import shard_folder
    from maieutic.run.engine import Engine
    from tests.fake_server import FakeOpenAIServer

    small = RayOptions(actors=1, batch_rows=4, shard_rows=4, num_cpus=2)
    data, out = _interventions(tmp_path, 8), tmp_path / "ray" / "cqs.json"

    def generate(home: str, target: Path, engine: str = "ray"):
        monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / home))  # a fresh model-call cache
        return maieutic.generate("cqs", data, generator="llm", out=target, llm="fake",
                                 base_url=server.base_url, engine=engine, ray=small)  # fmt: skip

    try:
        with FakeOpenAIServer() as server:
            # the first run's shards are kept (its lock released), as a killed run leaves them
            with monkeypatch.context() as patched:
                patched.setattr(Engine, "written", lambda self, o, k: self._unlock(k))
                generate("home-1", out)
            first, second = sorted(shard_folder(out, 0).glob("part-*.jsonl"))
            _edit(first, 0, _retext_cqs)
            _edit(first, 2, lambda r: {**r, "id": "R_07"})
            _edit(second, 1, lambda r: {**r, "index": 99})
            _edit(second, 3, lambda r: {**r, "stats": ["1", 0, 0]})
            out.unlink()
            capsys.readouterr()
            before = len(server.requests)
            generate("home-2", out)
            assert len(server.requests) - before == 4  # the four damaged rows, no more
            generate("home-3", tmp_path / "local" / "cqs.json", engine="local")
    finally:
        ray.shutdown()
    warned = [line for line in capsys.readouterr().err.splitlines() if "damaged" in line]
    assert warned == [
        f"warning: {first}: 2 damaged or foreign row(s) left out and generated again",
        f"warning: {second}: 2 damaged or foreign row(s) left out and generated again",
    ]
    assert out.read_bytes() == (tmp_path / "local" / "cqs.json").read_bytes()
    assert not shard_folder(out, 0).parent.exists()


def _retext_cqs(row: dict) -> dict:
    text = json.dumps(row["outcome"])
    assert "?" in text
    return {**row, "outcome": json.loads(text.replace("?", "!", 1))}


def test_a_ray_run_holds_its_shard_folder_until_its_files_are_written(monkeypatch, tmp_path):
    """Locked from before the shards are read until written() removes them; a run that
    fails releases it and leaves no folder holding only the lock."""
    from types import SimpleNamespace

    from maieutic.engines.shards import shard_folder
    from maieutic.run.engine import Engine

    out, generation = tmp_path / "o.json", SimpleNamespace(task="cqs", data=None)
    folder = shard_folder(out, 0)
    engine = Engine("ray")
    monkeypatch.setattr(Engine, "_on_ray", lambda self, *a, **k: "the run")
    assert engine.run(generation, None, 0, update=None, context=None, out=out) == "the run"
    with pytest.raises(RunError, match="another run is writing this output"):
        lock_folder(folder, out=out)  # still held: its files are not written yet
    engine.written(out, 0)
    assert not folder.parent.exists()
    lock_folder(folder, out=out).release()  # free

    def fails(self, *a, **k):
        raise RunError("the server went away")

    monkeypatch.setattr(Engine, "_on_ray", fails)
    with pytest.raises(RunError, match="went away"):
        engine.run(generation, None, 0, update=None, context=None, out=out)
    assert not folder.parent.exists()
    lock_folder(folder, out=out).release()


def test_a_run_whose_files_cannot_be_written_releases_its_lock(monkeypatch, tmp_path):
    """Writing a run's files fails after Ray finished: the shards stay for a retry, and
    the lock goes, so a retry in the same process is not refused as another run."""
    import dataclasses
    from types import SimpleNamespace

    from maieutic.engines.shards import shard_folder
    from maieutic.run import generation as generation_module
    from maieutic.run.engine import Engine

    out = tmp_path / "o.json"
    folder = shard_folder(out, 0)
    engine = Engine("ray")
    monkeypatch.setattr(Engine, "_on_ray", lambda self, *a, **k: "the run")

    class FailingIO:
        def parts(self, *a):
            raise RunError("cannot write o.json: disk full")

    monkeypatch.setattr(generation_module, "task_io", lambda task: FailingIO())
    monkeypatch.setattr(generation_module, "get_task", lambda name: name)

    @dataclasses.dataclass
    class Context:
        run_index: int = 0
        n_runs: int = 1

    run = SimpleNamespace(task="cqs", data=None, runs=[], parts=[], written=[])
    context = Context()
    with pytest.raises(RunError, match="disk full"):
        generation_module._run_all(
            run, None, context, runs=1, progress=None, writing=(out, {}), engine=engine
        )
    lock_folder(folder, out=out).release()  # not held any more
    assert folder.is_dir()  # the shards stay
