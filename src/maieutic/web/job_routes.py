"""The routes of the jobs behind the pages: their state (polled by the pending
page), their result page, and their downloads (JSON, the report)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException

from maieutic.web.highlight import MAX_SHOWN_CHARS, segments
from maieutic.web.jobs import Job
from maieutic.web.pages import Pages
from maieutic.web.routes import REPORT_CSP, board, board_task


def _ask_view(job: Job) -> dict[str, Any]:
    """The Ask result page's text, cut into segments at the marked spans."""
    from maieutic.ask.view import marked_spans

    text = job.result["text"]
    return {
        "segments": segments(text, marked_spans(job.result)),
        "cut": max(0, len(text) - MAX_SHOWN_CHARS),
        "text": job.context.get("prefill", ""),
    }


def job_routes(app: FastAPI, pages: Pages) -> None:
    """A job's state, its result page and its downloads."""

    @app.get("/jobs/{job_id}")
    async def job_status(job_id: str) -> JSONResponse:
        job = pages.job_or_404(job_id)
        return JSONResponse(job.to_json(ahead=pages.runner.ahead_of(job)))

    @app.get("/jobs/{job_id}/view", response_class=HTMLResponse)
    async def job_view(request: Request, job_id: str) -> HTMLResponse:
        job = pages.job_or_404(job_id)
        if not job.over:
            state = job.to_json(pages.runner.ahead_of(job))
            return pages.page(request, "job.html", job=job, state=state)
        extra = board(await board_task()) if job.kind == "leaderboard" else {}
        name = f"{job.kind}.html"
        if job.error is not None:
            status = job.failure_status
            return pages.page(request, name, status, job=job, error=job.error, text="", **extra)
        context: dict[str, Any] = {"job": job, "result": job.result, **extra}
        if job.kind == "ask":
            context.update(_ask_view(job))
        return pages.page(request, name, **context)

    @app.get("/jobs/{job_id}/result.json")
    async def job_result(job_id: str) -> JSONResponse:
        job = pages.job_or_404(job_id)
        if not job.finished_ok or job.kind == "report":
            raise HTTPException(404, "This job has no JSON result.")
        data = job.result["payload"] if job.kind == "leaderboard" else job.result
        name = "results.json" if job.kind == "leaderboard" else "ask.json"
        disposition = f'attachment; filename="{name}"'
        return JSONResponse(data, headers={"content-disposition": disposition})

    @app.get("/jobs/{job_id}/report.html")
    async def job_report(job_id: str, download: bool = False) -> HTMLResponse:
        job = pages.job_or_404(job_id)
        if not job.finished_ok or job.kind != "report":
            raise HTTPException(404, "This job has no report.")
        headers = {"content-security-policy": REPORT_CSP}
        if download:
            headers["content-disposition"] = 'attachment; filename="report.html"'
        return HTMLResponse(job.result, headers=headers)
