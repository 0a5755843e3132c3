"""A small OpenAI-compatible server whose replies come from a function, not a model.

It serves ``POST /v1/chat/completions`` (and ``GET /v1/models``) on a local port in
background threads, so that every route that reaches a model through ``--base-url``
(the shared client, its retries, cache and log included) can be driven by stored
replies: a replay of a real system's questions answers as that system would have.
The function gets the request body and returns the reply's text, or raises
``ReplyRefused`` for a request it has no reply for (answered as an HTTP error the
client does not retry).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

POLL_S = 0.01
"""Seconds between the serving loop's checks for a stop."""
MAX_BODY_BYTES = 8 * 1024 * 1024
"""The largest request body read: a chat request is never near it."""

Answer = Callable[[dict[str, Any]], str]


class ReplyRefused(Exception):
    """No reply for this request: sent as an HTTP error with ``status``."""

    def __init__(self, message: str, *, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


def completion(body: dict[str, Any], text: str, *, model: str) -> dict[str, Any]:
    """An OpenAI chat completion carrying ``text``."""
    messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
    prompt = " ".join(str(m.get("content", "")) for m in messages)
    return {
        "id": "chatcmpl-reply",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": len(prompt.split()), "completion_tokens": len(text.split())},
    }


class ReplyServer:
    """Serve ``answer``'s replies as model ``model`` on ``host:port`` (0: a free port)."""

    def __init__(
        self, answer: Answer, *, model: str, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self.answer = answer
        self.model = model
        self.host = host
        self.port = port
        self.requests = 0
        """Chat requests answered or refused so far."""
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``http://HOST:PORT/v1``)."""
        if self._server is None:
            raise RuntimeError("the server is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> ReplyServer:
        """Start serving in a background thread."""
        self._server = QuietServer((self.host, self.port), _Handler)
        self._server.owner = self  # type: ignore[attr-defined]
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ReplyServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reply(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The HTTP status and JSON payload for one chat request."""
        with self._lock:
            self.requests += 1
        try:
            return 200, completion(body, self.answer(body), model=self.model)
        except ReplyRefused as refused:
            return refused.status, {"error": {"message": str(refused), "type": "not_found"}}
        except Exception as exc:  # the answer function failed: the client hears why
            message = f"the reply could not be made ({type(exc).__name__}: {exc})"
            return 500, {"error": {"message": message[:300], "type": "server_error"}}


class JsonHandler(BaseHTTPRequestHandler):
    """A quiet keep-alive handler that answers in JSON (this server's, and the test
    suite's scripted server's)."""

    protocol_version = "HTTP/1.1"
    # headers and body go out in two writes; with Nagle's algorithm on, the second
    # waits for the client's delayed ACK (~40 ms) on a kept-alive socket
    disable_nagle_algorithm = True

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self._send_bytes(status, json.dumps(payload).encode())

    def _send_bytes(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)


class _Handler(JsonHandler):
    def do_GET(self) -> None:
        owner: ReplyServer = self.server.owner  # type: ignore[attr-defined]
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": owner.model, "object": "model"}]})
        else:
            self._send(404, {"error": {"message": f"no such path: {self.path}"}})

    def do_POST(self) -> None:
        owner: ReplyServer = self.server.owner  # type: ignore[attr-defined]
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY_BYTES:  # its body is not read: no keep-alive
            self.close_connection = True
            status, said = (400, "no valid Content-Length") if length < 0 else (413, "too large")
            self._send(status, {"error": {"message": f"request body: {said}"}})
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self.rfile.read(length)
            self._send(404, {"error": {"message": f"no such path: {self.path}"}})
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (UnicodeDecodeError, json.JSONDecodeError):
            self._send(400, {"error": {"message": "the request body is not JSON"}})
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send(400, {"error": {"message": "the request has no 'messages' list"}})
            return
        self._send(*owner.reply(body))


class QuietServer(ThreadingHTTPServer):
    """A threading HTTP server for loopback helpers: daemon threads, a deep accept
    queue, and no traceback for a client that hung up before its reply."""

    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request, client_address) -> None:
        # a client that hung up before its reply is no error of the server's
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)
