"""Running the web app with uvicorn: the configuration ``maieutic serve`` uses, a
socket bound before the server starts (so ``--port 0`` can print the port it got),
and a server on a background thread (for tests and for embedding the app)."""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from maieutic.web.guard import answered_names, is_loopback, is_wildcard

if TYPE_CHECKING:
    import uvicorn

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# A request head (request line and headers) not complete this long after the connection
# opened, or after the previous response on it, closes the connection: uvicorn times
# out only idle keep-alive connections, so a client that never finishes its headers
# (drip-fed or half-sent) would otherwise hold its connection forever.
DEFAULT_HEADER_TIMEOUT = 10.0
# Open connections past this many are answered 503 and closed at once, so many idle
# clients cannot use up the process's file descriptors.
DEFAULT_MAX_CONNECTIONS = 100
MAX_HEAD_BYTES = 32 * 1024
"""A request's line and headers together past this many bytes are refused with 431
(browsers send a few kilobytes; uvicorn alone takes a head that arrives in one read
whatever its size)."""
_BUSY_TEXT = b"too many open connections to this server; retry in a second\n"
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 1\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s"
    % (len(_BUSY_TEXT), _BUSY_TEXT)
)
BUSY_LINGER = 2.0
"""A connection answered 503 is closed when its client closes, or this many seconds
after the answer: until then what it sends is read and dropped, because closing a
socket with unread data in it sends a reset, which a client reports instead of the
503 it was sent."""
LISTEN_BACKLOG = 2048
"""Connections the system queues before the server accepts them (uvicorn's own
default): a burst past the open-connection cap is accepted and answered 503, not
left unanswered in a short queue."""
_HEAD_TEXT = b"the request's headers are over this server's limit of %d KB\n" % (
    MAX_HEAD_BYTES // 1024
)
_HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_HEAD_TEXT), _HEAD_TEXT)
)


def host_warning(host: str, allowed: Sequence[str] = ()) -> str | None:
    """The warning for a host beyond this machine (None for a loopback host): who can
    use the app, and which Host names it answers (``allowed``: those besides the
    loopback ones)."""
    if is_loopback(host):
        return None
    return (
        f"--host {host} is not a loopback address: anyone who can reach this machine can "
        "use the app, which has no login, and read the results of its jobs. Only "
        f"requests whose Host is one of {answered_names(allowed)} are answered; add the "
        "name others use to reach this machine with --allow-host NAME (repeatable)"
    )


def guarded_protocol(header_timeout: float, max_connections: int) -> type:
    """uvicorn's h11 protocol with a header-read timeout, a cap on open connections and
    one on a request head's size (uvicorn has none: its ``limit_concurrency`` only
    answers 503 to a request whose head has arrived, nothing times out a head that never
    does, and h11 bounds only the part of a head still incomplete after a read)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        _head_timer: Any = None
        _refused = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                self._refused = True
                transport.write(_BUSY)
                if transport.can_write_eof():
                    transport.write_eof()  # the client reads the 503 to its end and closes
                self.loop.call_later(BUSY_LINGER, transport.close)
                return
            self._arm_head_timer()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return  # the request of a connection answered 503: read and dropped
            if self.conn.their_state is h11.IDLE and self._head_too_large(data):
                self.transport.write(_HEAD_TOO_LARGE)
                self.transport.close()
                return
            super().data_received(data)

        def _head_too_large(self, data: bytes) -> bool:
            # what is buffered of a head not yet complete (at most MAX_HEAD_BYTES, as
            # anything longer is refused here) and what came now, up to the head's end
            pending = self.conn.trailing_data[0] + data
            end = pending.find(b"\r\n\r\n")
            return (len(pending) if end < 0 else end + 4) > MAX_HEAD_BYTES

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():  # kept alive: the next head is timed too
                self._arm_head_timer()

        def _arm_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(header_timeout, self._head_timed_out)

        def _head_timed_out(self) -> None:
            # IDLE: no complete request head yet (none, or part of one, has arrived).
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol


def build_config(
    app: Any,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
) -> uvicorn.Config:
    """The uvicorn configuration: one process (the jobs and the loaded model live in
    it), no proxy headers trusted, quiet logs (the URL is printed by the command), and
    connections whose request head is not complete within ``header_timeout`` seconds
    closed, past ``max_connections`` open ones refused."""
    import uvicorn

    _log_to_stderr()
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(header_timeout, max_connections),
        workers=1,
        proxy_headers=False,
        server_header=False,
        log_config=None,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
        # h11 refuses a head still incomplete past 16 KB by default: a head sent in
        # pieces would get a 400 where the same head sent whole is read; up to the
        # server's own limit both are read, past it both get the 431
        h11_max_incomplete_event_size=MAX_HEAD_BYTES + 1,
    )


def _log_to_stderr() -> None:
    """uvicorn's warnings on stderr in its own format, set on its logger alone.

    uvicorn's default applies its format with ``logging.config.dictConfig``, which first
    closes every handler in the process — another library's too, and with it the stream
    that handler writes to (absl's, which rouge-score loads, closes its stream unless it
    is the current ``sys.stderr``: in a process that swapped ``sys.stderr`` since, such
    as a test runner capturing output, the captured stream was lost)."""
    from uvicorn.logging import DefaultFormatter

    logger = logging.getLogger("uvicorn")
    if not any(isinstance(h, _CurrentStderr) for h in logger.handlers):
        handler = _CurrentStderr()
        handler.setFormatter(DefaultFormatter("%(levelprefix)s %(message)s", use_colors=None))
        logger.addHandler(handler)
        logger.propagate = False


class _CurrentStderr(logging.StreamHandler):
    """A handler writing to ``sys.stderr`` as it is when a record comes, not as it was
    when the handler was made (as the logging module's last-resort handler does)."""

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one, chosen by the OS)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.listen(LISTEN_BACKLOG)
    sock.set_inheritable(True)
    return sock


def url_of(host: str, sock: socket.socket) -> str:
    """The address to open in a browser for a server on ``sock`` (on every interface:
    the loopback one, since a wildcard address is no Host the app answers to)."""
    port = sock.getsockname()[1]
    if is_wildcard(host):
        host = "::1" if sock.family == socket.AF_INET6 else "127.0.0.1"
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run(
    app: Any,
    host: str,
    port: int,
    *,
    announce: Callable[[str], None] | None = None,
    **limits: Any,
) -> None:
    """Serve ``app`` until interrupted; ``announce`` gets the URL once it is bound;
    ``limits``: ``header_timeout`` and ``max_connections`` for :func:`build_config`."""
    import uvicorn

    sock = bind_socket(host, port)
    server = uvicorn.Server(build_config(app, host, sock.getsockname()[1], **limits))
    if announce is not None:
        announce(url_of(host, sock))
    server.run(sockets=[sock])


class BackgroundServer:
    """The app served on a free loopback port from a daemon thread (``with`` it)."""

    def __init__(self, app: Any, host: str = DEFAULT_HOST) -> None:
        import uvicorn

        self.sock = bind_socket(host, 0)
        self.url = url_of(host, self.sock)
        self.server = uvicorn.Server(build_config(app, host, self.sock.getsockname()[1]))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web app did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
