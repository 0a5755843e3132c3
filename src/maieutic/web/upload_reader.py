"""Reading an uploaded PDF in a process of its own, with a time budget.

A PDF's text extraction is bounded (``maieutic.data.pdf_bounds``) but still takes
seconds and memory that a long-running server would keep: Python rarely gives freed
memory back. So an uploaded PDF is read by a fresh process, which ends with the read
and returns all of its memory; one that runs past ``READ_SECONDS`` is killed, and
the page says so in one line. Text and Markdown uploads are read in the server, as
they are bounded by the character limit before they are read.
"""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path
from typing import Any

from maieutic.env_numbers import env_number
from maieutic.errors import DataError, MaieuticError, RunError
from maieutic.web.work import read_ask_input

READ_SECONDS = env_number("MAIEUTIC_WEB_READ_SECONDS", 60, whole=False, least=0.1)
"""Long enough for the largest PDF the bounds let through (about 500 pages at a few
milliseconds each, or 20 MB of content); a read past it is stopped."""
_reader = read_ask_input
"""What the process runs (tests swap in a slow one)."""
MAX_READING = 2
"""PDF uploads read at once: the machine's memory, not its cores, is what runs out."""
_reading = 0
_lock = threading.Lock()


class ReadersBusy(RunError):
    """Every reading process is taken: the upload is refused, to be sent again."""


def reading_now() -> int:
    """How many uploads are being read in a process right now (for ``/healthz``)."""
    return _reading


def _child(reader: Any, text: str, path: Path, *, conn: Any) -> None:
    try:
        conn.send(("ok", reader(text, path)))
    except MaieuticError as exc:
        conn.send(("data" if isinstance(exc, DataError) else "run", str(exc)))
    except BaseException as exc:  # the server logs it and says "could not read the file"
        conn.send(("bug", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _context() -> Any:
    """Processes forked from a fork server that has imported the reader once (a read
    then starts in milliseconds, not the seconds that importing takes), never from the
    server itself, whose threads a forked child could deadlock on; spawned where there
    is no fork server (Windows)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__, "maieutic.ask", "maieutic.data.pdf", "pypdf"])
    return context


def read_upload(text: str, path: Path | None) -> tuple[str, str]:
    """``read_ask_input`` for the Ask page: a PDF upload in a fresh process that is
    killed after ``READ_SECONDS`` (a ``DataError`` saying so), anything else here;
    ``ReadersBusy`` when ``MAX_READING`` PDFs are being read already."""
    global _reading
    if path is None or path.suffix.lower() != ".pdf":
        return read_ask_input(text, path)
    with _lock:
        if _reading >= MAX_READING:
            raise ReadersBusy(
                f"{_reading} PDF uploads are being read already (at most {MAX_READING} at "
                "once); send this one again in a moment"
            )
        _reading += 1
    try:
        answer = _read_in_process(text, path)
    finally:
        with _lock:
            _reading -= 1
    if answer is None:
        raise DataError(
            f"reading the PDF took over {READ_SECONDS:g} s and was stopped (split it, or "
            "raise MAIEUTIC_WEB_READ_SECONDS)",
            where=path.name,
        )
    kind, value = answer
    if kind == "ok":
        return value
    if kind in ("data", "run"):
        raise (DataError if kind == "data" else RunError)(value)
    raise RuntimeError(value)


def _read_in_process(text: str, path: Path) -> tuple[str, Any] | None:
    """The reading process's answer (``(kind, value)``), or None when it ran out of
    time (it is killed then)."""
    context = _context()
    receive, send = context.Pipe(duplex=False)
    process = context.Process(
        target=_child, args=(_reader, text, path), kwargs={"conn": send}, daemon=True
    )
    try:
        process.start()
        send.close()  # the child holds the sending end: its death ends the pipe
        return receive.recv() if receive.poll(READ_SECONDS) else None
    except EOFError:  # the child died without answering (killed for memory, say)
        return ("bug", "the reading process ended without an answer")
    finally:
        if process.pid is not None:  # started
            if process.is_alive():
                process.kill()
            process.join()
        receive.close()
