"""A successful Ray run prints what the in-process run prints: no error line from Ray's
core worker about restarting actors, no warning about an actor pool larger than its
input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.engines.ray_session import actor_pool_options

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


def _takes_options(*, size: int = 1, **ray_remote_args) -> None: ...


def _takes_none(*, size: int = 1) -> None: ...


def test_a_local_pool_does_not_restart_actors_and_a_cluster_keeps_rays_default(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with actor_pool_options(_takes_options) as options:
        assert options == {"max_restarts": 0}
    with actor_pool_options(_takes_none) as options:
        assert options == {}  # a Ray that no longer passes options through gets none
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")
    with actor_pool_options(_takes_options) as options:
        assert options == {}


def _maieutic(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["MAIEUTIC_HOME"] = str(tmp_path / "home")  # a cold cache: the encoder runs on Ray
    return subprocess.run(
        [sys.executable, "-m", "maieutic", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )


def _noise(stderr: str) -> list[str]:
    """Lines of Ray's logging (``[2026-… E …] core_worker.cc:…``), Python warnings and
    tracebacks."""
    pattern = re.compile(r"^\[\d{4}-\d\d-\d\d |core_worker|Warning|warnings\.warn|Traceback")
    return [line for line in stderr.splitlines() if pattern.search(line)]


@pytest.mark.slow
def test_generation_and_scoring_on_ray_print_no_ray_noise(tmp_path):
    pytest.importorskip("ray", reason="the ray engine needs: pip install 'maieutic[ray]'")
    released = json.loads((SHARED / "cqs" / "validation-dev.json").read_text())
    first = next(iter(released))
    data = tmp_path / "one.json"
    data.write_text(json.dumps({first: released[first]}))
    # one intervention and two actors asked for: the pool would have an idle actor
    on_ray = ["--engine", "ray", "--ray-actors", "2"]
    made = _maieutic(
        tmp_path,
        "generate",
        "cqs",
        "--data",
        "one.json",
        "--out",
        "cqs.json",
        "--generator",
        "template",
        *on_ray,
    )
    assert made.returncode == 0, made.stderr
    assert _noise(made.stderr) == []
    scored = _maieutic(tmp_path, "evaluate", "cqs", "--data", "one.json", "cqs.json", *on_ray)
    assert scored.returncode == 0, scored.stderr
    assert _noise(scored.stderr) == []
    assert "with 3 questions" in made.stderr + made.stdout
