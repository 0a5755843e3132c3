"""What every request passes before it reaches a page: the Host check (a page on
another site cannot reach this loopback server through DNS rebinding), the Origin
check on form posts (another site cannot make the browser submit work here), the
upload size limit, and the security headers of every response.

A plain ASGI middleware rather than a FastAPI dependency, so that an oversized upload
is refused before any of it is parsed or spooled to disk.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from starlette.responses import Response

PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'self'"
)
"""No inline script at all: even if user text slipped through unescaped, it would not run."""
DRAIN_LIMIT = 256 * 1024 * 1024
"""An oversized upload is read and dropped up to this much before the 413 page is sent:
a browser still sending its upload when the server answers shows a connection reset
instead of the page."""
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

Refuse = Callable[[int, str], "Response"]


class UploadTooLarge(Exception):
    """A request body without a declared length grew over the limit while read."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(too_large_message(None, limit))


def too_large_message(size: int | None, limit: int) -> str:
    """The 413 message: how big the upload was (when known) and the limit."""
    what = f"The upload is {size / 1e6:.1f} MB," if size else "The upload is"
    return (
        f"{what} over this server's limit of {limit / 1e6:g} MB per request. Upload a smaller "
        "file, or restart the app with a larger --max-upload-mb."
    )


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, brackets allowed) is this machine only."""
    name = host.strip().strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_of(header: str) -> str:
    """The host part of a Host header (``[::1]:8000`` → ``::1``)."""
    header = header.strip()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _same_origin(headers: dict[str, str], host: str) -> bool:
    # browsers say where a request comes from in Sec-Fetch-Site; the Origin header is
    # "null" in some same-site cases, so it decides only when it names a site
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    if origin is None or (origin == "null" and site is not None):
        return True  # not a browser (curl, scripts), or a browser that said same-origin
    return urlsplit(origin).netloc == host


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


class Guard:
    """The ASGI middleware; ``refuse(status, message)`` renders the error page."""

    def __init__(
        self, app: Any, *, max_upload_bytes: int, loopback_only: bool, refuse: Refuse
    ) -> None:
        self.app = app
        self.max_upload_bytes = max_upload_bytes
        self.loopback_only = loopback_only
        self.refuse = refuse

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        problem = self._problem(scope, headers)
        if problem is not None:
            await self.refuse(*problem)(scope, receive, _with_headers(send, scope))
            return
        length = headers.get("content-length", "")
        declared = int(length) if length.isdigit() else 0
        if scope["method"] in UNSAFE_METHODS and declared > self.max_upload_bytes:
            if "100-continue" not in headers.get("expect", "").lower():
                await _drain(receive)  # nothing was sent yet when the client waits
            message = too_large_message(declared, self.max_upload_bytes)
            await self.refuse(413, message)(scope, receive, _with_headers(send, scope))
            return
        await self.app(scope, self._counting(receive), _with_headers(send, scope))

    def _problem(self, scope: dict[str, Any], headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if self.loopback_only and not is_loopback(host_of(host)):
            return 400, (
                f"This app answers only to loopback names (localhost, 127.0.0.1, ::1), "
                f"not to Host {host!r}."
            )
        if scope["method"] in UNSAFE_METHODS and not _same_origin(headers, host):
            return 403, "A form on another site cannot submit work to this app."
        return None

    def _counting(self, receive: Any) -> Any:
        received = 0

        async def counted() -> dict[str, Any]:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_upload_bytes:
                    raise UploadTooLarge(self.max_upload_bytes)
            return message

        return counted


async def _drain(receive: Any) -> None:
    drained = 0
    while drained <= DRAIN_LIMIT:
        message = await receive()
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def _with_headers(send: Any, scope: dict[str, Any]) -> Any:
    static = scope.get("path", "").startswith("/static/")

    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            extra = [
                (b"x-content-type-options", b"nosniff"),
                (b"referrer-policy", b"same-origin"),
                (b"content-security-policy", PAGE_CSP.encode()),
            ]
            if not static:  # results hold the user's text: keep them out of caches
                extra.append((b"cache-control", b"no-store"))
            added = [(k, v) for k, v in extra if k not in present]
            message = {**message, "headers": [*message.get("headers", []), *added]}
        await send(message)

    return sending
