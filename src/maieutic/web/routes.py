"""The routes of the three pages (Ask, Leaderboard, Report) and of their jobs. Each
page posts a form, its work runs as a job, and the job's view shows the result."""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException

from maieutic.core import Task
from maieutic.errors import DataError, MaieuticError
from maieutic.web.hooks import LEADERBOARDS
from maieutic.web.jobs import log
from maieutic.web.leaderboard import leaderboard_task, load_leaderboard_inputs, run_leaderboard
from maieutic.web.pages import Pages, files, save
from maieutic.web.upload_reader import ReadersBusy, read_upload
from maieutic.web.work import Asker, Workspace, run_ask, run_report

MAX_PREFILL_CHARS = 100_000
"""A pasted text longer than this is not put back into the form with its result."""
REPORT_CSP = (
    "sandbox allow-scripts allow-popups; default-src 'none'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"
)
"""The report is a self-contained page with its own inline script: it runs sandboxed,
in an origin of its own, and may load nothing from anywhere."""


def get_asker(request: Request) -> Asker:
    """The function the Ask page runs, with the model ``maieutic serve`` was given (tests
    swap it through ``dependency_overrides``)."""
    settings = request.app.state.settings
    if settings.llm is None and settings.base_url is None:
        return run_ask
    return functools.partial(run_ask, llm=settings.llm, base_url=settings.base_url)


def ask_routes(app: FastAPI, pages: Pages) -> None:
    """The Ask page: a pasted text or an uploaded file, asked about in a job."""

    @app.get("/", response_class=HTMLResponse)
    async def ask_page(request: Request) -> HTMLResponse:
        return pages.page(request, "ask.html", text="")

    @app.post("/ask")
    async def ask(request: Request, asker: Annotated[Asker, Depends(get_asker)]) -> Response:
        form = await pages.read_form(request)
        text = str(form.get("text") or "")
        [upload] = files(form, "file")[:1] or [None]
        workspace = Workspace()
        try:
            path = await save(workspace, upload, "upload.txt") if upload else None
            # a PDF in a process of its own, which returns its memory and has a time budget
            read, source = await asyncio.to_thread(read_upload, text, path)
        except ReadersBusy as exc:
            return pages.page(request, "ask.html", 503, text=text, error=str(exc))
        except MaieuticError as exc:
            return pages.page(request, "ask.html", 400, text=text, error=workspace.message(exc))
        except Exception as exc:  # a PDF library failing on a broken file: say so, no trace
            log.warning("could not read an upload: %r", exc)
            message = f"could not read the file ({type(exc).__name__}); is it a text or PDF?"
            return pages.page(request, "ask.html", 422, text=text, error=message)
        finally:
            workspace.remove()
        prefill = read if upload is None and len(read) <= MAX_PREFILL_CHARS else ""
        job = pages.runner.submit(
            "ask",
            lambda step: asker(read, source=source, step=step),
            label=source,
            context={"prefill": prefill},
        )
        return RedirectResponse(f"/jobs/{job.id}/view", status_code=303)


async def board_task() -> Task:
    """The task whose Leaderboard page is served (found off the event loop: the first
    time, that imports the tasks)."""
    task = await asyncio.to_thread(leaderboard_task)
    if task is None:
        raise HTTPException(404, "No installed task offers a leaderboard.")
    return task


def board(task: Task) -> dict[str, Any]:
    """What the Leaderboard page shows of its task."""
    return {"task": task.name, "board": LEADERBOARDS.get(task.name)}


def leaderboard_routes(app: FastAPI, pages: Pages) -> None:
    """The Leaderboard page: labelled data and submissions, scored in a job."""

    @app.get("/leaderboard", response_class=HTMLResponse)
    async def leaderboard_page(request: Request) -> HTMLResponse:
        return pages.page(request, "leaderboard.html", **board(await board_task()))

    @app.post("/leaderboard")
    async def leaderboard(request: Request) -> Response:
        form = await pages.read_form(request)
        task = await board_task()
        offered = LEADERBOARDS.get(task.name).evaluators
        evaluator = str(form.get("evaluator") or next(iter(offered)))
        skip_unknown = form.get("skip_unknown") is not None
        data, subs = files(form, "dataset")[:1], files(form, "submissions")
        workspace = Workspace()
        try:
            if evaluator not in offered:
                raise DataError(f"unknown evaluator {evaluator!r}")
            if not data or not subs:
                raise DataError("choose the labelled dataset and at least one submission")
            data_path = await save(workspace, data[0], "dataset.json")
            paths = [await save(workspace, s, "submission.json") for s in subs]
            dataset, loaded = await asyncio.to_thread(
                load_leaderboard_inputs, task, data_path, paths, skip_unknown=skip_unknown
            )
        except MaieuticError as exc:
            workspace.remove()
            message = workspace.message(exc).replace("--skip-unknown", "“skip unknown ids”")
            return pages.page(request, "leaderboard.html", 400, error=message, **board(task))
        job = pages.runner.submit(
            "leaderboard",
            lambda step: workspace.scrub(
                run_leaderboard(
                    task, dataset, loaded, evaluator=evaluator, skip_unknown=skip_unknown, step=step
                )
            ),
            label=", ".join(s.name for s in loaded),
            cleanup=workspace.remove,
        )
        return RedirectResponse(f"/jobs/{job.id}/view", status_code=303)


def report_routes(app: FastAPI, pages: Pages) -> None:
    """The Report page: results files drawn as the HTML report in a job."""

    @app.get("/report", response_class=HTMLResponse)
    async def report_page(request: Request) -> HTMLResponse:
        return pages.page(request, "report.html")

    @app.post("/report")
    async def report(request: Request) -> Response:
        form = await pages.read_form(request)
        uploads = files(form, "results")
        title = str(form.get("title") or "").strip()[:200]
        if not uploads:
            return pages.page(request, "report.html", 400, error="choose at least one results file")
        workspace = Workspace()
        paths = [await save(workspace, u, "results.json") for u in uploads]
        job = pages.runner.submit(
            "report",
            lambda step: run_report(paths, title, workspace, step=step),
            label=", ".join(p.name for p in paths),
            cleanup=workspace.remove,
        )
        return RedirectResponse(f"/jobs/{job.id}/view", status_code=303)
