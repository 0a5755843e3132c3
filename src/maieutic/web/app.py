"""The FastAPI application of ``maieutic serve``: the Ask, Leaderboard and Report
pages, the background jobs behind them, and the JSON endpoints their pages poll.

Every page is rendered by Jinja with autoescaping on and no ``|safe`` on anything a
user sent; the pages run no inline script (the Content-Security-Policy forbids it);
long work is a job on a worker thread (``maieutic.web.jobs``) and the page polls
``/jobs/{id}`` until the result is there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import jinja2
from fastapi import Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException

from maieutic._version import __version__
from maieutic.errors import DataError, MaieuticError
from maieutic.web.guard import Guard, UploadTooLarge, too_large_message
from maieutic.web.highlight import MAX_SHOWN_CHARS, segments
from maieutic.web.jobs import Job, JobRunner, log
from maieutic.web.work import (
    EVALUATORS,
    Asker,
    Workspace,
    load_leaderboard_inputs,
    read_ask_input,
    run_ask,
    run_leaderboard,
    run_report,
)

HERE = Path(__file__).resolve().parent
DEFAULT_MAX_UPLOAD_MB = 10.0
MAX_PREFILL_CHARS = 100_000
"""A pasted text longer than this is not put back into the form with its result."""
REPORT_CSP = (
    "sandbox allow-scripts allow-popups; default-src 'none'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"
)
"""The report is a self-contained page with its own inline script: it runs sandboxed,
in an origin of its own, and may load nothing from anywhere."""


@dataclass(frozen=True)
class Settings:
    """What ``maieutic serve`` configures: the upload limit, and whether only loopback
    Host names are answered (True unless the server listens beyond this machine)."""

    max_upload_bytes: int = int(DEFAULT_MAX_UPLOAD_MB * 1_000_000)
    loopback_only: bool = True
    keep_jobs: int = 50


def get_asker() -> Asker:
    """The function the Ask page runs (tests swap it through ``dependency_overrides``)."""
    return run_ask


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every page, whatever its file name
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(version=__version__, evaluators=EVALUATORS)
    return env


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app (``uvicorn`` serves it; tests drive it with ``TestClient``)."""
    settings = settings or Settings()
    runner = JobRunner(keep=settings.keep_jobs)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        runner.shutdown()

    app = FastAPI(
        title="maieutic",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,  # the pages are the interface: no API explorer to expose
        redoc_url=None,
        openapi_url=None,
    )
    templates = Jinja2Templates(env=_environment())
    app.state.runner, app.state.settings = runner, settings
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    limit_mb = f"{settings.max_upload_bytes / 1e6:g}"

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        for key, default in (("error", None), ("result", None), ("job", None), ("text", "")):
            context.setdefault(key, default)
        context.update(max_bytes=settings.max_upload_bytes, limit_mb=limit_mb)
        return templates.TemplateResponse(request, name, context, status_code=status)

    def refuse(status: int, message: str) -> HTMLResponse:
        context = {"status": status, "error": message, "max_bytes": settings.max_upload_bytes}
        body = templates.get_template("error.html").render(limit_mb=limit_mb, **context)
        return HTMLResponse(body, status_code=status)

    app.add_middleware(
        Guard,
        max_upload_bytes=settings.max_upload_bytes,
        loopback_only=settings.loopback_only,
        refuse=refuse,
    )

    @app.exception_handler(UploadTooLarge)
    async def too_large(request: Request, exc: UploadTooLarge) -> Response:
        return refuse(413, too_large_message(None, exc.limit))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        # the traceback goes to the server's log (uvicorn prints it), never to the page
        return refuse(500, f"Unexpected error ({type(exc).__name__}); see the server's log.")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/jobs/") and request.url.path.count("/") == 2:
            return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
        return refuse(exc.status_code, str(exc.detail))

    async def read_form(request: Request) -> FormData:
        return await request.form(
            max_files=50, max_fields=20, max_part_size=settings.max_upload_bytes
        )

    def job_or_404(job_id: str) -> Job:
        job = runner.get(job_id)
        if job is None:
            message = "No such job: it never existed or the server has restarted since."
            raise HTTPException(404, f"{message} (Results are kept in memory only.)")
        return job

    @app.get("/", response_class=HTMLResponse)
    async def ask_page(request: Request) -> HTMLResponse:
        return page(request, "ask.html", text="")

    @app.post("/ask")
    async def ask(request: Request, asker: Annotated[Asker, Depends(get_asker)]) -> Response:
        form = await read_form(request)
        text = str(form.get("text") or "")
        [upload] = _files(form, "file")[:1] or [None]
        workspace = Workspace()
        try:
            path = await _save(workspace, upload, "upload.txt") if upload else None
            read, source = await asyncio.to_thread(read_ask_input, text, path)
        except MaieuticError as exc:
            return page(request, "ask.html", 400, text=text, error=workspace.message(exc))
        except Exception as exc:  # a PDF library failing on a broken file: say so, no trace
            log.warning("could not read an upload: %r", exc)
            message = f"could not read the file ({type(exc).__name__}); is it a text or PDF?"
            return page(request, "ask.html", 422, text=text, error=message)
        finally:
            workspace.remove()
        prefill = read if upload is None and len(read) <= MAX_PREFILL_CHARS else ""
        job = runner.submit(
            "ask",
            lambda step: asker(read, source, step),
            label=source,
            context={"prefill": prefill},
        )
        return RedirectResponse(f"/jobs/{job.id}/view", status_code=303)

    @app.get("/leaderboard", response_class=HTMLResponse)
    async def leaderboard_page(request: Request) -> HTMLResponse:
        return page(request, "leaderboard.html")

    @app.post("/leaderboard")
    async def leaderboard(request: Request) -> Response:
        form = await read_form(request)
        evaluator = str(form.get("evaluator") or "sts")
        skip_unknown = form.get("skip_unknown") is not None
        data, subs = _files(form, "dataset")[:1], _files(form, "submissions")
        workspace = Workspace()
        try:
            if evaluator not in EVALUATORS:
                raise DataError(f"unknown evaluator {evaluator!r}")
            if not data or not subs:
                raise DataError("choose the labelled dataset and at least one submission")
            data_path = await _save(workspace, data[0], "dataset.json")
            paths = [await _save(workspace, s, "submission.json") for s in subs]
            dataset, loaded = await asyncio.to_thread(
                load_leaderboard_inputs, data_path, paths, skip_unknown=skip_unknown
            )
        except MaieuticError as exc:
            workspace.remove()
            message = workspace.message(exc).replace("--skip-unknown", "“skip unknown ids”")
            return page(request, "leaderboard.html", 400, error=message)
        job = runner.submit(
            "leaderboard",
            lambda step: workspace.scrub(
                run_leaderboard(dataset, loaded, evaluator, skip_unknown, step)
            ),
            label=", ".join(s.name for s in loaded),
            cleanup=workspace.remove,
        )
        return RedirectResponse(f"/jobs/{job.id}/view", status_code=303)

    @app.get("/report", response_class=HTMLResponse)
    async def report_page(request: Request) -> HTMLResponse:
        return page(request, "report.html")

    @app.post("/report")
    async def report(request: Request) -> Response:
        form = await read_form(request)
        uploads = _files(form, "results")
        title = str(form.get("title") or "").strip()[:200]
        if not uploads:
            return page(request, "report.html", 400, error="choose at least one results file")
        workspace = Workspace()
        paths = [await _save(workspace, u, "results.json") for u in uploads]
        job = runner.submit(
            "report",
            lambda step: run_report(paths, title, workspace, step),
            label=", ".join(p.name for p in paths),
            cleanup=workspace.remove,
        )
        return RedirectResponse(f"/jobs/{job.id}/view", status_code=303)

    @app.get("/jobs/{job_id}")
    async def job_status(job_id: str) -> JSONResponse:
        job = job_or_404(job_id)
        return JSONResponse(job.to_json(ahead=runner.ahead_of(job)))

    @app.get("/jobs/{job_id}/view", response_class=HTMLResponse)
    async def job_view(request: Request, job_id: str) -> HTMLResponse:
        job = job_or_404(job_id)
        if not job.over:
            return page(request, "job.html", job=job, state=job.to_json(runner.ahead_of(job)))
        if job.error is not None:
            status = 422 if job.data_error else 500
            return page(request, f"{job.kind}.html", status, job=job, error=job.error, text="")
        context: dict[str, Any] = {"job": job, "result": job.result}
        if job.kind == "ask":
            context["segments"] = segments(job.result["text"], job.result["focus"])
            context["cut"] = max(0, len(job.result["text"]) - MAX_SHOWN_CHARS)
            context["text"] = job.context.get("prefill", "")
        return page(request, f"{job.kind}.html", **context)

    @app.get("/jobs/{job_id}/result.json")
    async def job_result(job_id: str) -> JSONResponse:
        job = job_or_404(job_id)
        if not job.finished_ok or job.kind == "report":
            raise HTTPException(404, "This job has no JSON result.")
        data = job.result["payload"] if job.kind == "leaderboard" else job.result
        name = "results.json" if job.kind == "leaderboard" else "ask.json"
        disposition = f'attachment; filename="{name}"'
        return JSONResponse(data, headers={"content-disposition": disposition})

    @app.get("/jobs/{job_id}/report.html")
    async def job_report(job_id: str, download: bool = False) -> HTMLResponse:
        job = job_or_404(job_id)
        if not job.finished_ok or job.kind != "report":
            raise HTTPException(404, "This job has no report.")
        headers = {"content-security-policy": REPORT_CSP}
        if download:
            headers["content-disposition"] = 'attachment; filename="report.html"'
        return HTMLResponse(job.result, headers=headers)

    @app.get("/healthz")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "jobs_busy": runner.busy()}

    return app


def _files(form: FormData, name: str) -> list[UploadFile]:
    # a file input left empty still sends a part, with no file name and no bytes
    return [v for v in form.getlist(name) if isinstance(v, UploadFile) and (v.filename or v.size)]


async def _save(workspace: Workspace, upload: UploadFile, default: str) -> Path:
    await upload.seek(0)
    return await asyncio.to_thread(workspace.save, upload.filename, upload.file, default)
