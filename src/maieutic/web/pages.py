"""What every route of the web app shares: the templates, the page and error
responses, reading a form within the upload limit, finding a job, saving uploads."""

from __future__ import annotations

import asyncio
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException

from maieutic._version import __version__
from maieutic.web.jobs import Job, JobRunner
from maieutic.web.work import Workspace

HERE = Path(__file__).resolve().parent


def _ask_templates() -> Path:
    """Where ``maieutic.ask`` keeps the Ask page's parts (found without importing the
    package: that loads the tasks, which only an ask needs)."""
    spec = importlib.util.find_spec("maieutic.ask")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent / "templates"


def signature_html(text: object) -> Markup:
    """A signature as markup that wraps only between its fields: each field with its
    ``|`` is one span (``nowrap`` in the stylesheet, so no field ever splits, not even
    at a hyphen) with a break opportunity after it. Copied, it reads unchanged."""
    fields = str(text).split("|")
    pieces = [field + "|" for field in fields[:-1]] + fields[-1:]
    return Markup("<wbr>").join(Markup("<span>{}</span>").format(p) for p in pieces if p)


def environment() -> jinja2.Environment:
    """The pages' templates: autoescaping on, undefined names are errors."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([HERE / "templates", _ask_templates()]),
        autoescape=True,  # every page, whatever its file name
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(version=__version__)
    env.filters["signature"] = signature_html
    return env


FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
"""The bodies read as a form (starlette reads no other: it leaves their bytes unread)."""


@dataclass
class Pages:
    """The templates, the jobs and the upload limit every route works with."""

    runner: JobRunner
    max_upload_bytes: int

    def __post_init__(self) -> None:
        self.templates = Jinja2Templates(env=environment())
        self.limit_mb = f"{self.max_upload_bytes / 1e6:g}"

    def page(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """The page ``name`` (a form with or without a result, or an error)."""
        for key, default in (("error", None), ("result", None), ("job", None), ("text", "")):
            context.setdefault(key, default)
        context.update(max_bytes=self.max_upload_bytes, limit_mb=self.limit_mb)
        return self.templates.TemplateResponse(request, name, context, status_code=status)

    def refuse(self, status: int, message: str) -> HTMLResponse:
        """The error page with ``message``."""
        context = {"status": status, "error": message, "max_bytes": self.max_upload_bytes}
        body = self.templates.get_template("error.html").render(limit_mb=self.limit_mb, **context)
        return HTMLResponse(body, status_code=status)

    async def read_form(self, request: Request) -> FormData:
        """The posted form, refused past the upload limit (a body that is no form too:
        it is read and dropped, so that one over the limit is refused as too large, 413,
        not as an empty form)."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind not in FORM_TYPES:
            async for _ in request.stream():  # the guard counts it: UploadTooLarge past the limit
                pass
            return FormData()
        return await request.form(max_files=50, max_fields=20, max_part_size=self.max_upload_bytes)

    def job_or_404(self, job_id: str) -> Job:
        """The job ``job_id`` (a 404 saying why there is none)."""
        job = self.runner.get(job_id)
        if job is None:
            message = "No such job: it never existed or the server has restarted since."
            raise HTTPException(404, f"{message} (Results are kept in memory only.)")
        return job


def files(form: FormData, name: str) -> list[UploadFile]:
    """The files uploaded under ``name``."""
    # a file input left empty still sends a part, with no file name and no bytes
    return [v for v in form.getlist(name) if isinstance(v, UploadFile) and (v.filename or v.size)]


async def save(workspace: Workspace, upload: UploadFile, default: str) -> Path:
    """Copy an upload into ``workspace`` (off the event loop)."""
    await upload.seek(0)
    return await asyncio.to_thread(workspace.save, upload.filename, upload.file, default)
