"""What the web app refuses at the door (issue 50): a form posted from the same host
under another scheme (another origin), a request head over the size limit (431, on a
real server: the limit is in the HTTP protocol, below the app), and a body with no
declared length that grows past the upload limit whatever its content type (413, not
the 400 of an empty form)."""

from __future__ import annotations

import contextlib
import socket
import time

import pytest
from fastapi.testclient import TestClient

from maieutic.web import Settings, create_app
from maieutic.web.server import MAX_HEAD_BYTES, BackgroundServer

BASE = "http://127.0.0.1"


@pytest.fixture
def client():
    with TestClient(create_app(), base_url=BASE) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "origin", ["https://127.0.0.1", "ftp://127.0.0.1", "HTTPS://127.0.0.1", "//127.0.0.1"]
)
def test_the_same_host_under_another_scheme_is_another_origin(client, origin):
    page = client.post("/ask", data={"text": " "}, headers={"origin": origin})
    assert page.status_code == 403
    same = client.post("/ask", data={"text": " "}, headers={"origin": "http://127.0.0.1"})
    assert same.status_code == 400  # the form ran: an empty text


def test_a_body_without_a_length_past_the_limit_is_too_large_whatever_its_type():
    with TestClient(create_app(Settings(max_upload_bytes=1000)), base_url=BASE) as small:
        for kind in ("text/plain", "application/octet-stream", ""):
            chunks = iter([b"a" * 600, b"a" * 600])  # sent chunked: no Content-Length
            page = small.post("/ask", content=chunks, headers={"content-type": kind})
            assert page.status_code == 413, kind
            assert "over this server" in page.text.replace("&#39;", "'")
        # under the limit, a body that is no form is still read as an empty one
        page = small.post("/ask", content=iter([b"a" * 10]), headers={"content-type": "text/plain"})
        assert page.status_code == 400


def _exchange(address: tuple[str, int], request: bytes) -> bytes:
    with socket.create_connection(address, timeout=30) as sock:
        # refused before all was sent: the answer is still there to read
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(request)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                return received
            if not chunk:
                return received
            received += chunk


def _get(address: tuple[str, int], extra: bytes) -> bytes:
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\nConnection: close\r\n\r\n" % extra
    return _exchange(address, head)


def test_a_request_head_over_the_limit_is_refused_with_431():
    with BackgroundServer(create_app()) as server:
        host, port = server.sock.getsockname()[:2]
        address = (host, port)
        refused = _get(address, b"X-Big: " + b"a" * 70_000)
        assert refused.startswith(b"HTTP/1.1 431 ")
        assert b"over this server's limit of 32 KB" in refused
        # many headers adding up past the limit, too
        many = b"\r\n".join(b"X-%d: %s" % (n, b"a" * 1000) for n in range(40))
        assert _get(address, many).startswith(b"HTTP/1.1 431 ")
        # a head under the limit is answered, and so is a large body sent with its head
        assert _get(address, b"X-Big: " + b"a" * (MAX_HEAD_BYTES // 2)).startswith(b"HTTP/1.1 200")
        body = b"text=" + b"a" * 200_000
        post = (
            b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        assert not _exchange(address, post).startswith(b"HTTP/1.1 431")


def _in_pieces(address: tuple[str, int], request: bytes, size: int = 1024) -> bytes:
    with socket.create_connection(address, timeout=30) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for start in range(0, len(request), size):
                sock.sendall(request[start : start + size])
                time.sleep(0.002)  # each piece its own read on the server
        received = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                received += chunk
        return received


def test_a_head_sent_in_pieces_is_answered_as_the_same_head_sent_whole():
    with BackgroundServer(create_app()) as server:
        address = server.sock.getsockname()[:2]
        for size, status in ((20_000, b"200"), (MAX_HEAD_BYTES - 200, b"200"), (40_000, b"431")):
            head = (
                b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: %s\r\n"
                b"Connection: close\r\n\r\n" % (b"a" * size)
            )
            whole, pieces = _exchange(address, head), _in_pieces(address, head)
            assert whole.startswith(b"HTTP/1.1 " + status), (size, whole[:60])
            assert pieces.startswith(b"HTTP/1.1 " + status), (size, pieces[:60])


def test_a_request_naming_another_host_in_its_target_is_not_served():
    with BackgroundServer(create_app()) as server:
        address = server.sock.getsockname()[:2]
        head = (
            b"GET http://evil.example/healthz HTTP/1.1\r\n"
            b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        assert _exchange(address, head).startswith(b"HTTP/1.1 404 ")
