"""A damaged scorer folder is one clear error line (exit 2), never a traceback, and a
scorer is saved atomically: weights first, manifest last, each through a temporary
file, so a full disk or a killed run never leaves a manifest beside bad weights."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from maieutic.errors import DataError, RunError
from maieutic.samples import sample_path
from maieutic.scorers import model as model_module
from maieutic.scorers.examples import Examples
from maieutic.scorers.model import MANIFEST, WEIGHTS, load_scorer
from maieutic.scorers.train import train


def _examples(n_groups: int = 10, per_group: int = 6) -> tuple[Examples, np.ndarray]:
    rng = np.random.default_rng(0)
    ex, rows = Examples(positive="Useful"), []
    for g in range(n_groups):
        for i in range(per_group):
            label = ("Useful", "Unhelpful", "Invalid")[i % 3]
            rows.append(rng.normal(size=4) + (label == "Useful") * np.array([2.0, 0, 0, 0]))
            ex.contexts.append(f"context {g}")
            ex.questions.append(f"question {g}-{i}")
            ex.schemes.append("")
            ex.groups.append(f"g{g}")
            ex.labels.append(label)
            ex.ordinal.append({"Useful": 2.0, "Unhelpful": 1.0, "Invalid": 0.0}[label])
            ex.systems.append("")
    return ex, np.array(rows)


@pytest.fixture(scope="module")
def trained():
    ex, x = _examples()
    return train(
        ex, x, task="cqs", data_bytes=b"data", data_name="d.json", encoder_identity="enc"
    ).scorer


@pytest.fixture
def scorer_dir(trained, tmp_path) -> Path:
    directory = trained.save(tmp_path / "scorer")
    load_scorer(directory)  # healthy before each damage
    return directory


def _arrays(directory: Path) -> dict[str, np.ndarray]:
    with np.load(directory / WEIGHTS) as archive:
        return {name: archive[name] for name in archive.files}


def _manifest(directory: Path) -> dict:
    return json.loads((directory / MANIFEST).read_text(encoding="utf-8"))


def _write_arrays(directory: Path, **changes) -> None:
    arrays = {k: v for k, v in {**_arrays(directory), **changes}.items() if v is not None}
    with (directory / WEIGHTS).open("wb") as file:
        np.savez(file, **arrays)


def _without(field: str) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        manifest = _manifest(directory)
        del manifest[field]
        (directory / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")

    return damage


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "manifest not UTF-8": (
        lambda d: (d / MANIFEST).write_bytes(b'{"format": "maieutic.scorer/1", "task": "caf\xe9"}'),
        "not UTF-8",
    ),
    "manifest a JSON array": (
        lambda d: (d / MANIFEST).write_text("[1, 2, 3]"),
        "expected a JSON object, found a list",
    ),
    "manifest nested 10,000 deep": (
        lambda d: (d / MANIFEST).write_text("[" * 10_000 + "]" * 10_000),
        "nested too deeply",
    ),
    "manifest missing a field": (_without("task"), "missing field 'task'"),
    "manifest missing the threshold": (_without("threshold"), "missing field 'threshold'"),
    "weights garbage bytes": (
        lambda d: (d / WEIGHTS).write_bytes(b"\x00\x93garbage" * 64),
        "not a NumPy .npz archive",
    ),
    "weights cut short": (
        lambda d: os.truncate(d / WEIGHTS, (d / WEIGHTS).stat().st_size // 2),
        "damaged or unreadable",
    ),
    "weights with a pickled object array": (
        lambda d: _write_arrays(d, classes=np.array([{"x": 1}, "Useful"], dtype=object)),
        "array 'classes' holds Python objects",
    ),
    "weights missing an array": (
        lambda d: _write_arrays(d, coef=None),
        "missing array(s) coef",
    ),
    "weights of the wrong shape": (
        lambda d: _write_arrays(d, coef=np.zeros((3, 99))),
        "array shapes do not fit together",
    ),
    "weights of the wrong dtype": (
        lambda d: _write_arrays(d, scale=np.array(["a", "b", "c", "d"])),
        "array 'scale' has <U1 values, expected finite numbers",
    ),
}


@pytest.mark.parametrize("case", DAMAGE)
def test_a_damaged_scorer_is_one_error_line(case, scorer_dir, cli):
    damage, message = DAMAGE[case]
    damage(scorer_dir)
    data, submission = (
        sample_path("cqs/sample_dataset.json"),
        sample_path("cqs/sample_submission.json"),
    )
    result = cli(
        "evaluate", "cqs", "--data", data, submission, "--evaluator", f"scorer:{scorer_dir}"
    )
    lines = result.err.strip().splitlines()
    assert result.code == 2, result.err
    assert len(lines) == 1 and "Traceback" not in result.err, result.err
    assert message in lines[0] and str(scorer_dir) in lines[0]


def test_a_positive_class_the_model_lacks_is_an_error(scorer_dir):
    manifest = _manifest(scorer_dir)
    manifest["positive"] = "Brilliant"
    (scorer_dir / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(DataError, match="positive class 'Brilliant' is not among"):
        load_scorer(scorer_dir)


def _disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name not in (MANIFEST, WEIGHTS))


def test_a_full_disk_leaves_the_previous_scorer_as_it_was(trained, scorer_dir, monkeypatch):
    before = load_scorer(scorer_dir).identity()

    def half_then_full(file, **arrays):
        file.write(b"PK\x03\x04 half an archive")
        _disk_full()

    monkeypatch.setattr(model_module.np, "savez_compressed", half_then_full)
    with pytest.raises(RunError, match="cannot write the scorer: No space left on device"):
        trained.save(scorer_dir)
    assert load_scorer(scorer_dir).identity() == before
    assert _leftovers(scorer_dir) == []  # no temporary file left behind


def test_a_full_disk_on_the_manifest_changes_nothing(trained, tmp_path, monkeypatch):
    real_fsync, calls = os.fsync, []

    def fsync_fails_second(fd):
        calls.append(fd)
        return real_fsync(fd) if len(calls) == 1 else _disk_full()

    monkeypatch.setattr(model_module.os, "fsync", fsync_fails_second)
    with pytest.raises(RunError, match="No space left on device"):
        trained.save(tmp_path / "new")
    assert list((tmp_path / "new").iterdir()) == []


def test_a_run_killed_between_the_two_files_leaves_no_manifest(trained, scorer_dir, monkeypatch):
    real_replace = os.replace

    def killed_after_the_weights(src, dst):
        if Path(dst).name == MANIFEST:
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(model_module.os, "replace", killed_after_the_weights)
    with pytest.raises(KeyboardInterrupt):
        trained.save(scorer_dir)
    # the old manifest went before the new weights came: never a mismatched pair
    assert not (scorer_dir / MANIFEST).exists() and (scorer_dir / WEIGHTS).exists()
    with pytest.raises(DataError, match="not a scorer directory"):
        load_scorer(scorer_dir)


@pytest.mark.parametrize("name", [MANIFEST, WEIGHTS])
def test_a_pipe_in_place_of_a_scorer_file_is_refused_not_waited_on(scorer_dir, name):
    import os
    import threading

    (scorer_dir / name).unlink()
    os.mkfifo(scorer_dir / name)
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            load_scorer(scorer_dir)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(10)
    assert outcome, "loading the scorer waited on a pipe"
    assert isinstance(outcome[0], DataError)  # refused: not a scorer directory
