"""What every request passes before it reaches a page: the Host check (only loopback
names and the names the server was started with are answered, whatever address it
listens on, so a page on another site cannot reach it through DNS rebinding), the
Origin check on form posts (another site cannot make the browser submit work here),
the upload size limit, and the security headers of every response.

A plain ASGI middleware rather than a FastAPI dependency, so that an oversized upload
is refused before any of it is parsed or spooled to disk.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from starlette.responses import Response
    from starlette.types import Receive, Send

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


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
"""The loopback names shown in messages (any loopback name or address is answered)."""


def normalize_host(name: str) -> str:
    """``name`` (a Host header or a name given to ``--allow-host``) as compared: the
    port, brackets and a final dot dropped, lower case, an address in its canonical
    form (``[0:0::1]:80`` → ``::1``); "" for what names no host (see ``host_of``)."""
    try:  # a bare IPv6 address is how --host and --allow-host take one
        return ipaddress.ip_address(name.strip()).compressed
    except ValueError:
        pass
    name = host_of(name).lower().rstrip(".")
    try:
        return ipaddress.ip_address(name).compressed
    except ValueError:
        return name


def is_wildcard(host: str) -> bool:
    """Whether binding ``host`` listens on every interface (``0.0.0.0``, ``::``, empty)."""
    name = host.strip().strip("[]")
    try:
        return not name or ipaddress.ip_address(name).is_unspecified
    except ValueError:
        return False


def allowed_hosts(bind_host: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The Host names answered besides the loopback ones: ``extra`` (``--allow-host``),
    and the bound address itself when it is one specific address or name."""
    names = [normalize_host(name) for name in extra]
    if not is_wildcard(bind_host) and not is_loopback(bind_host):
        names.append(normalize_host(bind_host))
    return tuple(dict.fromkeys(name for name in names if name))


def answered_names(allowed: Iterable[str] = ()) -> str:
    """Every Host name answered, as messages list them (``allowed``: those besides the
    loopback ones)."""
    return ", ".join([*LOOPBACK_NAMES, *(f"[{n}]" if ":" in n else n for n in allowed)])


def host_refusal(host: str, allowed: Iterable[str]) -> str:
    """The 400 message for a request whose Host is not answered."""
    names = answered_names(allowed)
    return (
        f"This app answers only to the names it was started for ({names}), not to Host "
        f"{host!r}. Whoever runs it can add a name with: maieutic serve --allow-host NAME"
    )


_HOST_HEADER = re.compile(
    r"(?:\[(?P<address>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::(?P<port>[0-9]{1,5}))?"
)
"""A Host header: a name or IPv4 address, or an IPv6 address in brackets, then an
optional port of digits."""


def host_of(header: str) -> str:
    """The host part of a Host header (``[::1]:8000`` → ``::1``), or "" when the header
    is not one host and port: taking the part before some colon or "@" of
    ``127.0.0.1:80@evil.com`` or ``localhost:evil.com`` would answer another site."""
    match = _HOST_HEADER.fullmatch(header.strip())
    if match is None:
        return ""
    if match["address"] is None:
        return match["name"]
    try:
        return str(ipaddress.IPv6Address(match["address"]))
    except ValueError:
        return ""


def _same_origin(headers: dict[str, str], host: str, *, scheme: str) -> bool:
    # browsers say where a request comes from in Sec-Fetch-Site; the Origin header is
    # "null" in some same-site cases, so it decides only when it names a site
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    if origin is None or (origin == "null" and site is not None):
        return True  # not a browser (curl, scripts), or a browser that said same-origin
    # an origin is scheme, host and port: https://HOST is another site than http://HOST
    parts = urlsplit(origin)
    return parts.scheme.lower() == scheme.lower() and parts.netloc == host


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


class Guard:
    """The ASGI middleware; ``refuse(status, message)`` renders the error page."""

    def __init__(
        self,
        app: Any,
        *,
        max_upload_bytes: int,
        allowed_hosts: Iterable[str] = (),
        refuse: Refuse,
    ) -> None:
        self.app = app
        self.max_upload_bytes = max_upload_bytes
        self.allowed_hosts = frozenset(normalize_host(name) for name in allowed_hosts)
        self.refuse = refuse

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
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
        if not self.host_allowed(host):
            return 400, host_refusal(host, sorted(self.allowed_hosts))
        scheme = scope.get("scheme", "http")
        if scope["method"] in UNSAFE_METHODS and not _same_origin(headers, host, scheme=scheme):
            return 403, "A form on another site cannot submit work to this app."
        return None

    def host_allowed(self, host: str) -> bool:
        """Whether a request with this Host header is answered: on every address the
        server listens on, a name outside the list is what DNS rebinding sends."""
        name = host_of(host)
        if not name:
            return False  # no Host (HTTP/1.0), or one that names no single host
        return is_loopback(name) or normalize_host(name) in self.allowed_hosts

    def _counting(self, receive: Receive) -> Receive:
        received = 0

        async def counted() -> dict[str, Any]:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_upload_bytes:
                    if message.get("more_body", False):
                        # the rest read and dropped first, as for a declared length: the
                        # 413 sent with the upload unread ends in a reset the client
                        # reports instead of the page
                        await _drain(receive)
                    raise UploadTooLarge(self.max_upload_bytes)
            return message

        return counted


async def _drain(receive: Receive) -> None:
    drained = 0
    while drained <= DRAIN_LIMIT:
        message = await receive()
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def _with_headers(send: Send, scope: dict[str, Any]) -> Send:
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
