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
