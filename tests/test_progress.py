"""Progress bars: off unless stdout and stderr are terminals, off with --quiet, nested
steps share one display, and encoding in steps gives the same vectors."""

from __future__ import annotations

import io

import numpy as np
import pytest
from rich.console import Console
from rich.progress import Progress

from maieutic import progress as progress_module


def test_off_when_output_is_not_a_terminal():
    assert not progress_module.enabled()  # pytest captures stdout: not a terminal
    with progress_module.progress("work", 3) as update:
        update(1, 3)  # a no-op, not an error
    assert progress_module._active is None


def test_nested_steps_share_one_display(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr(progress_module, "enabled", lambda: True)
    monkeypatch.setattr(
        progress_module,
        "_new_display",
        lambda: Progress(console=Console(file=stream, force_terminal=True), transient=True),
    )
    with progress_module.progress("outer", 2) as outer:
        display = progress_module._active
        with progress_module.progress("inner", 5) as inner:
            assert progress_module._active is display and len(display.tasks) == 2
            inner(5, 5)
        assert len(display.tasks) == 1  # the inner line is gone, the display stays
        outer(2, 2)
    assert progress_module._active is None


def test_quiet_flag_silences_progress(cli, monkeypatch):
    monkeypatch.setattr(progress_module, "QUIET", False)
    monkeypatch.setattr(progress_module.sys.stdout, "isatty", lambda: True, raising=False)
    assert cli("--quiet", "ask", "   ").code == 2  # the group option ran first
    assert progress_module.QUIET and not progress_module.enabled()


@pytest.mark.slow
def test_encoding_in_steps_gives_the_same_vectors(monkeypatch):
    from maieutic.embed.encoder import Encoder

    steps = []

    class Recording:
        def __init__(self, label, total=None):
            self.label = label

        def __enter__(self):
            return lambda done, total: steps.append((done, total))

        def __exit__(self, *exc):
            return False

    import maieutic.embed.encoder as encoder_module

    monkeypatch.setattr(encoder_module, "progress", Recording)
    texts = [f"sentence number {i} about rivers" for i in range(40)]
    stepped = Encoder(batch_size=1).encode(texts)  # steps of 16 texts
    whole = Encoder(batch_size=64).encode(texts)
    assert steps[:3] == [(16, 40), (32, 40), (40, 40)]
    np.testing.assert_allclose(stepped, whole, atol=1e-5)


class _Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_off_a_terminal_a_long_step_logs_lines_at_a_bounded_rate(monkeypatch, capsys):
    clock = _Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    monkeypatch.setattr(progress_module, "QUIET", False)
    monkeypatch.setattr(progress_module, "LOG_INTERVAL_S", 30.0)
    with progress_module.progress("encoding 400 texts", 400) as update:
        for done in range(1, 401):
            clock.now += 0.5  # 200 s in all: 6 lines at most, not 400
            update(done, 400)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "progress: encoding 400 texts: 60/400 (30 s)"
    assert 5 <= len(lines) <= 7
    assert lines[-1] == "progress: encoding 400 texts: 400/400 (200 s, done)"


def test_off_a_terminal_a_short_step_says_nothing(monkeypatch, capsys):
    clock = _Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    monkeypatch.setattr(progress_module, "QUIET", False)
    with progress_module.progress("model calls", 3) as update:
        for done in (1, 2, 3):
            clock.now += 1
            update(done, 3)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress_module, "QUIET", True)
    with progress_module.progress("model calls", 3) as update:
        clock.now += 100
        update(1, 3)
    assert capsys.readouterr().err == ""  # --quiet silences the log lines too


def test_a_step_that_fails_says_it_stopped(monkeypatch, capsys):
    clock = _Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    monkeypatch.setattr(progress_module, "QUIET", False)
    with pytest.raises(RuntimeError), progress_module.progress("answering", None) as update:
        clock.now += 31
        update(4, None)
        raise RuntimeError("boom")
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["progress: answering: 4 (31 s)", "progress: answering: 4 (31 s, stopped)"]


@pytest.mark.slow
def test_a_command_off_a_terminal_prints_progress_lines(tmp_path):
    import os
    import subprocess
    import sys

    from maieutic.samples import sample_path

    env = {**os.environ, "MAIEUTIC_PROGRESS_INTERVAL": "0", "MAIEUTIC_HOME": str(tmp_path)}
    env.pop("MAIEUTIC_QUIET", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "maieutic",
            "evaluate",
            "cqs",
            "--data",
            sample_path("cqs/sample_dataset.json"),
            sample_path("cqs/sample_submission.json"),
            "--out",
            str(tmp_path / "r.json"),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "progress: encoding" in done.stderr and ", done)" in done.stderr
