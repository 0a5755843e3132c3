"""The FastAPI application of ``maieutic serve``: the Ask, Leaderboard and Report
pages, the background jobs behind them, and the JSON endpoints their pages poll.

Every page is rendered by Jinja with autoescaping on and no ``|safe`` on anything a
user sent; the pages run no inline script (the Content-Security-Policy forbids it);
long work is a job on a worker thread (``maieutic.web.jobs``) and the page polls
``/jobs/{id}`` until the result is there. The routes are in ``routes`` and
``job_routes``; what they share is in ``pages``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from maieutic._version import __version__
from maieutic.web.guard import Guard, UploadTooLarge, too_large_message
from maieutic.web.job_routes import job_routes
from maieutic.web.jobs import DEFAULT_JOB_SECONDS, JobRunner
from maieutic.web.pages import HERE, Pages
from maieutic.web.routes import (
    MAX_PREFILL_CHARS,
    REPORT_CSP,
    ask_routes,
    get_asker,
    leaderboard_routes,
    report_routes,
)
from maieutic.web.upload_reader import reading_now

__all__ = ["MAX_PREFILL_CHARS", "REPORT_CSP", "Settings", "create_app", "get_asker"]

DEFAULT_MAX_UPLOAD_MB = 10.0


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What ``maieutic serve`` configures: the upload limit, and the Host names answered
    besides the loopback ones (``--allow-host``, and a specific address it listens on;
    see ``maieutic.web.guard.allowed_hosts``). Requests naming any other Host are
    refused on every address, so that DNS rebinding cannot reach the app."""

    max_upload_bytes: int = int(DEFAULT_MAX_UPLOAD_MB * 1_000_000)
    allowed_hosts: tuple[str, ...] = ()
    keep_jobs: int = 50
    job_seconds: float | None = DEFAULT_JOB_SECONDS
    """Each job's time budget (``--job-seconds``; None: none)."""
    llm: str | None = None
    """The language model the Ask page asks (``--llm``; None with no ``base_url``: none,
    every part offline), as ``maieutic ask --llm`` does."""
    base_url: str | None = None


def _error_handlers(app: FastAPI, pages: Pages) -> None:
    """Every error as the error page (a job's state as JSON), never a traceback."""

    @app.exception_handler(UploadTooLarge)
    async def too_large(request: Request, exc: UploadTooLarge) -> Response:
        return pages.refuse(413, too_large_message(None, exc.limit))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        # the traceback goes to the server's log (uvicorn prints it), never to the page
        return pages.refuse(500, f"Unexpected error ({type(exc).__name__}); see the server's log.")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/jobs/") and request.url.path.count("/") == 2:
            return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
        return pages.refuse(exc.status_code, str(exc.detail))


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app (``uvicorn`` serves it; tests drive it with ``TestClient``)."""
    settings = settings or Settings()
    runner = JobRunner(keep=settings.keep_jobs, seconds=settings.job_seconds)

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
    pages = Pages(runner, settings.max_upload_bytes)
    app.state.runner, app.state.settings = runner, settings
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_middleware(
        Guard,
        max_upload_bytes=settings.max_upload_bytes,
        allowed_hosts=settings.allowed_hosts,
        refuse=pages.refuse,
    )
    _error_handlers(app, pages)
    for routes in (ask_routes, leaderboard_routes, report_routes, job_routes):
        routes(app, pages)

    @app.get("/healthz")
    async def health() -> dict[str, Any]:
        # uploads being read (in a process each) are work in progress too
        busy = {"jobs_busy": runner.busy(), "uploads_reading": reading_now()}
        return {"status": "ok", "version": __version__, **busy}

    return app
