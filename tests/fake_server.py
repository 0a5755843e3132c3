"""A fake OpenAI-compatible server for tests and benchmarks (loopback only); it serves
no user, so it lives with the tests and is not in the wheel.

It answers chat completions after a fixed delay with a deterministic reply, and can
be scripted to misbehave for the next requests: an HTTP status (with headers such as
``Retry-After``), a connection reset half-way through the body, malformed JSON, empty
content, or a stall longer than the client's timeout. It records every request.
"""

from __future__ import annotations

import hashlib
import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from maieutic.llm.reply_server import JsonHandler, QuietServer


@dataclass(kw_only=True)
class Fault:
    """One scripted misbehaviour, used for one request."""

    kind: str  # "status" | "reset" | "malformed" | "empty" | "stall"
    status: int = 500
    headers: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0


def default_reply(body: dict) -> str:
    """Three numbered questions that depend on the prompt (so distinct prompts differ)."""
    prompt = body["messages"][-1]["content"]
    tag = hashlib.sha256((prompt + str(body.get("seed"))).encode()).hexdigest()[:6]
    return (
        "Here are three critical questions:\n"
        f"1. What evidence supports the main claim of case {tag}?\n"
        f"2. Could another cause explain the outcome of case {tag}?\n"
        f"3. Is the proposed action the best way to reach the goal of case {tag}?"
    )


def echo_request(text: str, *, request_line: str, headers: dict[str, str], body: dict) -> str:
    """``text`` with the path and Authorization header of the request written into each
    of its question lines (so a parser that keeps questions keeps the echo too), and the
    whole request (request line, headers, body) on a line of its own at the end."""
    path = request_line.split()[1].replace("?", " query ")  # a "?" would end the question
    said = f"sent to {path} with {headers.get('Authorization', 'no key')}"
    lines = [f"{line[:-1]}, {said}?" if line.endswith("?") else line for line in text.splitlines()]
    sent = f"{request_line} {json.dumps(headers)} {json.dumps(body)}"
    return "\n".join([*lines, f"Request: {sent}"])


POLL = 0.01
"""Seconds between the serving loop's checks for a stop."""


class FakeOpenAIServer:
    """Serve ``POST /v1/chat/completions`` on a free loopback port in a background thread."""

    def __init__(
        self,
        reply: Callable[[dict], str] = default_reply,
        delay_s: float = 0.0,
        *,
        echo: bool = False,
    ) -> None:
        self.reply = reply
        self.delay_s = delay_s
        self.echo = echo
        """Put the whole request (request line, headers, body) into every reply, as a
        careless proxy or a misbehaving model may: what a client stores must not hold
        the credentials it sent."""
        self.faults: deque[Fault] = deque()
        self.targeted: dict[str, deque[Fault]] = {}
        self.requests: list[dict] = []
        self.headers_seen: list[dict[str, str]] = []
        self.paths_seen: list[str] = []
        self._lock = threading.Lock()
        self._server: QuietServer | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def fail_next(self, *faults: Fault) -> None:
        """Misbehave for the next ``len(faults)`` requests, in order."""
        self.faults.extend(faults)

    def fail_matching(self, marker: str, *faults: Fault) -> None:
        """Misbehave for the next requests whose prompt contains ``marker``, in order
        (independent of arrival order, which retries and concurrency shuffle)."""
        self.targeted.setdefault(marker, deque()).extend(faults)

    def _next_fault(self, body: dict) -> Fault | None:
        prompt = json.dumps(body.get("messages", []))
        with self._lock:
            for marker, queue in self.targeted.items():
                if queue and marker in prompt:
                    return queue.popleft()
            return self.faults.popleft() if self.faults else None

    def start(self) -> FakeOpenAIServer:
        """Start serving."""
        self._server = QuietServer(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        # stop() waits for the serving loop to notice: poll often, so that it returns
        # in a few milliseconds rather than the default half second
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": POLL}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        """Stop serving."""
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> None:
    """``python -m tests.fake_server --delay 0.2`` (from the repository root): serve until
    killed; prints the URL."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each reply")
    args = parser.parse_args()
    server = FakeOpenAIServer(delay_s=args.delay).start()
    print(server.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
        sys.exit(0)


def _completion(body: dict, text: str) -> dict:
    """An OpenAI chat completion carrying ``text``."""
    return {
        "id": "fake",
        "object": "chat.completion",
        "model": body.get("model"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": len(text.split())},
    }


class _Handler(JsonHandler):
    def do_GET(self) -> None:
        self._send(200, {"object": "list", "data": [{"id": "fake"}]})

    def do_POST(self) -> None:
        owner: FakeOpenAIServer = self.server.owner  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        with owner._lock:
            owner.requests.append(body)
            owner.headers_seen.append(dict(self.headers))
            owner.paths_seen.append(self.path)
        fault = owner._next_fault(body)
        if owner.delay_s:
            time.sleep(owner.delay_s)
        if fault and fault.kind == "stall":
            time.sleep(fault.seconds)
        if fault and self._fail(fault):
            return
        text = "" if fault and fault.kind == "empty" else owner.reply(body)
        if text and owner.echo:
            text = echo_request(
                text, request_line=self.requestline, headers=dict(self.headers), body=body
            )
        self._send(200, _completion(body, text))

    def _fail(self, fault) -> bool:
        """Answer as the scripted fault says; False when it alters no response."""
        if fault.kind == "status":
            text = json.dumps({"error": {"message": "scripted failure"}})
            self._send_bytes(fault.status, text.encode(), fault.headers)
        elif fault.kind == "reset":
            # promise a long body, send part of it, then drop the connection
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"choices": [{"mess')
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        elif fault.kind == "malformed":
            self._send_bytes(200, b'{"choices": [ this is not json', {})
        else:
            return False
        return True


if __name__ == "__main__":
    main()
