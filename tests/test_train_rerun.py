"""A training run killed and run again writes the scorer a clean run writes (issue 50):
the same weights and the same ``manifest.json``, byte for byte, even in another
folder, since the manifest records the command with its output folder as ``DIR``.
The run is killed for real (SIGKILL) once it has stored embeddings, so the rerun reads
part of its vectors from the cache the killed run left."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maieutic.samples import sample_path

REPO = Path(__file__).resolve().parents[1]


def _dataset(folder: Path, copies: int = 30) -> Path:
    """The sample dataset's interventions repeated under new ids: enough texts that
    encoding them takes a while (time to kill the run half-way)."""
    records = json.loads(sample_path("cqs/sample_dataset.json").read_text())
    data = {}
    for n in range(copies):
        for key, record in records.items():
            new = f"{key}_{n}"
            cqs = [dict(q, id=f"{new}_{q['id']}", cq=f"{q['cq']} ({n})") for q in record["cqs"]]
            data[new] = dict(record, intervention_id=new, cqs=cqs)
    path = folder / "data.json"
    path.write_text(json.dumps(data))
    return path


def _train(data: Path, out: Path, home: Path) -> subprocess.Popen:
    command = ["train", "cqs", "--data", data.name, "--out-dir", out.name]
    return subprocess.Popen(
        [sys.executable, "-m", "maieutic", "-q", *command],
        cwd=data.parent,
        env=dict(os.environ, MAIEUTIC_HOME=str(home), PYTHONPATH=str(REPO / "src")),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _stored(home: Path) -> int:
    try:
        with sqlite3.connect(home / "embeddings.sqlite") as db:
            return db.execute("select count(*) from embeddings").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_killed_and_rerun_training_writes_what_a_clean_run_writes(tmp_path):
    data = _dataset(tmp_path)
    clean = _train(data, tmp_path / "clean", tmp_path / "home-clean")
    assert clean.wait(timeout=600) == 0, clean.stderr.read().decode()

    home = tmp_path / "home-killed"
    killed = _train(data, tmp_path / "killed", home)
    deadline = time.monotonic() + 600
    while _stored(home) == 0 and killed.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert killed.poll() is None, "the run ended before it could be killed half-way"
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert not (tmp_path / "killed" / "manifest.json").exists()
    rerun = _train(data, tmp_path / "killed", home)
    assert rerun.wait(timeout=600) == 0, rerun.stderr.read().decode()

    for name in ("manifest.json", "model.npz"):
        ours = (tmp_path / "killed" / name).read_bytes()
        assert ours == (tmp_path / "clean" / name).read_bytes(), name
    recipe = json.loads((tmp_path / "clean" / "manifest.json").read_text())["recipe"]
    assert recipe["command"] == "maieutic -q train cqs --data data.json --out-dir DIR"
