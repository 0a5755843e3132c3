"""What the pages do, apart from the web: read an uploaded or pasted text, ask about
it, draw a results report (the Leaderboard page's work is in ``leaderboard``).

Uploads are saved under their (cleaned) names in a temporary folder of their own, so
the library reads them exactly as it reads files on the command line, and messages
name the upload, not the temporary path.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from maieutic.deadline import PastDeadline
from maieutic.errors import DataError, MaieuticError
from maieutic.web.jobs import Step


class Asker(Protocol):
    """What the Ask page runs: the ask result's JSON for ``text``, read from ``source``
    (a file name or "pasted text"), saying each ``step``."""

    def __call__(self, text: str, *, source: str, step: Step) -> dict[str, Any]: ...


def safe_name(filename: str | None, default: str) -> str:
    """An upload's file name reduced to a plain, harmless base name."""
    base = re.split(r"[\\/]", filename or "")[-1]
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", base).lstrip("._")[:100]
    return base or default


ROOT_PREFIX = "maieutic-web-"
_ROOT: Path | None = None


def workspace_root() -> Path:
    """The one temporary folder that holds every request's uploads in this process
    (``maieutic-web-<pid>-…``), made on first use and removed when the process ends:
    a request's own folder is removed when it is done, but a server stopped with jobs
    queued (Ctrl-C) would leave theirs. Making it also removes what a process killed
    outright (``kill -9``, no exit handler) left: the folders of processes gone."""
    global _ROOT
    if _ROOT is None or not _ROOT.is_dir():
        sweep_left_behind()
        _ROOT = Path(tempfile.mkdtemp(prefix=f"{ROOT_PREFIX}{os.getpid()}-"))
        atexit.register(shutil.rmtree, _ROOT, ignore_errors=True)
    return _ROOT


def sweep_left_behind(folder: Path | None = None) -> list[Path]:
    """Remove the upload folders of processes that no longer run; return them."""
    removed = []
    for path in Path(folder or tempfile.gettempdir()).glob(f"{ROOT_PREFIX}*-*"):
        pid = path.name[len(ROOT_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)) and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process, or no pid at all: not ours to judge
    return True


class Workspace:
    """A temporary folder for the uploads of one request (removed with ``remove``),
    inside the process's ``workspace_root``."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="upload-", dir=workspace_root()))

    def save(self, filename: str | None, stream: BinaryIO, default: str = "upload") -> Path:
        """Copy an upload into the folder under a cleaned, unused name."""
        name = safe_name(filename, default)
        path, n = self.dir / name, 1
        while path.exists():  # two uploads of the same name both stay, as NAME-2, NAME-3
            n += 1
            path = self.dir / f"{Path(name).stem}-{n}{Path(name).suffix}"
        with open(path, "wb") as out:
            shutil.copyfileobj(stream, out)
        return path

    def message(self, exc: BaseException) -> str:
        """The error's text with the temporary folder left out of every path."""
        return self.clean(str(exc))

    def clean(self, text: str) -> str:
        """``text`` with the temporary folder left out of every path in it."""
        return text.replace(f"{self.dir}{os.sep}", "").replace(str(self.dir), "")

    def scrub(self, data: Any) -> Any:
        """JSON-ready ``data`` with the temporary folder left out of every string (a
        results file records where each submission came from: the upload's name)."""
        return json.loads(self.clean(json.dumps(data, ensure_ascii=False)))

    def remove(self) -> None:
        """Delete the folder and the uploads in it."""
        shutil.rmtree(self.dir, ignore_errors=True)


def read_ask_input(text: str, upload: Path | None) -> tuple[str, str]:
    """The checked text to ask about and where it came from: the pasted text, or the
    uploaded .txt/.md/.pdf file (a ``DataError`` for both, neither, binary or empty)."""
    from maieutic.ask import read_input
    from maieutic.ask.reading import check_text

    if upload is not None:
        if text.strip():
            raise DataError("paste a text or choose a file, not both")
        read, _ = read_input(str(upload))
        return read, upload.name
    return check_text(text, where="the pasted text"), "pasted text"


def run_ask(
    text: str,
    *,
    source: str,
    step: Step,
    llm: str | None = None,
    base_url: str | None = None,
) -> dict[str, Any]:
    """The ``ask`` result for ``text`` as JSON (format ``maieutic.ask/1``), with the
    model ``llm`` at ``base_url`` where one is named (``maieutic serve --llm``)."""
    from maieutic.ask import AskOptions, ask_text
    from maieutic.embed.encoder import shared_encoder

    # loaded once per process and kept: later asks skip the ~10 s load
    step("loading the embedding model (about 10 s the first time)")
    shared_encoder().load()
    options = AskOptions(llm=llm, base_url=base_url)
    return ask_text(text, options, source=source, on_step=step).to_json()


def run_report(
    paths: Sequence[Path], title: str | None, workspace: Workspace, *, step: Step
) -> str:
    """The self-contained HTML report of the uploaded results files."""
    # imported here: the report package is large and only this page needs it
    from maieutic.report.html import render_report

    step(f"drawing the report of {len(paths)} file(s)")
    try:
        html = render_report(list(paths), title or None)
    except PastDeadline:
        raise  # says the budget, not a path
    except MaieuticError as exc:
        raise type(exc)(workspace.message(exc)) from None
    return workspace.clean(html)  # the report names its inputs: by upload name, not temp path
