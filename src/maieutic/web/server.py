"""Running the web app with uvicorn: the configuration ``maieutic serve`` uses, a
socket bound before the server starts (so ``--port 0`` can print the port it got),
and a server on a background thread (for tests and for embedding the app)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from maieutic.web.guard import answered_names, is_loopback, is_wildcard

if TYPE_CHECKING:
    import uvicorn

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


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


def build_config(app: Any, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> uvicorn.Config:
    """The uvicorn configuration: one process (the jobs and the loaded model live in
    it), no proxy headers trusted, quiet logs (the URL is printed by the command)."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        workers=1,
        proxy_headers=False,
        server_header=False,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
    )


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
    sock.listen(128)
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


def run(app: Any, host: str, port: int, announce: Callable[[str], None] | None = None) -> None:
    """Serve ``app`` until interrupted; ``announce`` gets the URL once it is bound."""
    import uvicorn

    sock = bind_socket(host, port)
    server = uvicorn.Server(build_config(app, host, sock.getsockname()[1]))
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
