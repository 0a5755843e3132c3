"""An unusable MAIEUTIC_HOME (a file, a folder under a file, a read-only folder, a full
disk) is one error line naming the folder and what is wrong, exit 1, no traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from maieutic.errors import RunError
from maieutic.paths import maieutic_home
from maieutic.samples import sample_path

FIX = "(set MAIEUTIC_HOME to a writable folder)"


def _evaluate(cli):
    """``evaluate cqs`` with the default (embedding) evaluator: it opens the cache
    under MAIEUTIC_HOME before any model is loaded."""
    data = sample_path("cqs/sample_dataset.json")
    return cli("evaluate", "cqs", "--data", data, sample_path("cqs/sample_submission.json"))


def _one_line(result) -> str:
    lines = result.err.strip().splitlines()
    assert result.code == 1, result.err
    assert len(lines) == 1 and "Traceback" not in result.err, result.err
    return lines[0]


def test_a_home_that_is_a_file(cli, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.write_text("not a folder")
    monkeypatch.setenv("MAIEUTIC_HOME", str(home))
    line = _one_line(_evaluate(cli))
    assert line.endswith(f"MAIEUTIC_HOME {home} is a file, not a folder {FIX}")
    with pytest.raises(RunError, match="is a file, not a folder"):
        maieutic_home()


def test_a_home_under_a_file(cli, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    home = tmp_path / "file" / "home"
    monkeypatch.setenv("MAIEUTIC_HOME", str(home))
    line = _one_line(_evaluate(cli))
    assert f"MAIEUTIC_HOME {home} cannot be created: Not a directory {FIX}" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_home(cli, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o500)
    monkeypatch.setenv("MAIEUTIC_HOME", str(home))
    try:
        line = _one_line(_evaluate(cli))
    finally:
        home.chmod(0o700)
    assert line.endswith(f"MAIEUTIC_HOME {home} is not writable {FIX}")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_home_on_a_full_disk(cli, isolated_home):
    # every write to /dev/full fails with "no space left on device"
    (isolated_home / "embeddings.sqlite").symlink_to("/dev/full")
    line = _one_line(_evaluate(cli))
    assert f"cannot write {isolated_home / 'embeddings.sqlite'}: database or disk is full" in line


def test_a_home_without_write_permission_is_reported_even_as_root(cli, tmp_path, monkeypatch):
    # root writes anywhere, so the read-only case above skips there: pretend instead
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("MAIEUTIC_HOME", str(home))
    monkeypatch.setattr("maieutic.paths.os.access", lambda path, mode: Path(path) != home)
    line = _one_line(_evaluate(cli))
    assert line.endswith(f"MAIEUTIC_HOME {home} is not writable {FIX}")
