"""``maieutic serve`` does not keep half-open connections: a request head (request
line and headers) that is not complete within ``--header-timeout`` seconds closes its
connection, whether nothing, part of a head, or a head drip-fed a byte at a time has
arrived, and connections past ``--max-connections`` are answered 503 and closed. Run
against a real ``maieutic serve`` process on a free loopback port, with raw sockets."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

CEILING_S = 30  # generous: only a server that never closes its side fails it


@pytest.fixture
def serve(tmp_path):
    """Start ``maieutic serve --port 0`` with the given extra options; yields a
    function giving (host, port) of the running server."""
    procs: list[subprocess.Popen] = []

    def start(*options: str) -> tuple[str, int]:
        env = dict(os.environ, MAIEUTIC_HOME=str(tmp_path / "home"))
        proc = subprocess.Popen(
            [sys.executable, "-m", "maieutic", "serve", "--port", "0", *options],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        procs.append(proc)
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, f"no URL printed: {line!r}"
        return "127.0.0.1", int(match.group(1))

    yield start
    for proc in procs:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _connect(address: tuple[str, int]) -> socket.socket:
    return socket.create_connection(address, timeout=CEILING_S)


def _closed_by_server(sock: socket.socket) -> bytes:
    """Everything the server sent until it closed the connection (recv gave b'');
    fails if it is still open after the ceiling."""
    received = b""
    while True:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            pytest.fail(f"the server kept the connection open; got {received!r}")
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


def _get(address: tuple[str, int]) -> bytes:
    with _connect(address) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return _closed_by_server(sock)


def test_partial_idle_and_drip_fed_heads_are_closed(serve):
    address = serve("--header-timeout", "1")
    idle = _connect(address)
    partial = _connect(address)
    partial.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line
    drip = _connect(address)
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    sent = 0
    drip.settimeout(0.2)
    start = time.monotonic()
    # A byte about every 0.2 s keeps data flowing well past the timeout: the head as a
    # whole is timed, not the gap between bytes.
    while time.monotonic() - start < CEILING_S and sent < len(head):
        try:
            drip.sendall(head[sent : sent + 1])
        except (BrokenPipeError, ConnectionResetError):
            break
        sent += 1
        try:
            if drip.recv(1) == b"":
                break
        except TimeoutError:
            continue
        except ConnectionResetError:
            break
    assert sent < len(head), "the drip-fed head was never cut off"
    for sock in (idle, partial):
        sock.settimeout(CEILING_S)
        assert _closed_by_server(sock) == b""
        sock.close()
    drip.close()
    # A whole request is still answered, so the timer only ends unfinished heads.
    assert b" 200 " in _get(address).split(b"\r\n")[0] + b" "


def test_connections_past_the_cap_are_refused_with_503(serve):
    address = serve("--max-connections", "3", "--header-timeout", "60")
    held = [_connect(address) for _ in range(3)]
    try:
        reply = _get(address)
        assert reply.startswith(b"HTTP/1.1 503 "), reply
        head, _, body = reply.partition(b"\r\n\r\n")
        assert body == b"too many open connections to this server; retry in a second\n"
        assert f"content-length: {len(body)}".encode() in head.lower()
        assert b"retry-after: 1" in head.lower()
    finally:
        for sock in held:
            sock.close()
    # Once they are gone, requests are answered again.
    deadline = time.monotonic() + CEILING_S
    while (reply := _get(address)).startswith(b"HTTP/1.1 503 ") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reply.startswith(b"HTTP/1.1 200 "), reply


def test_a_burst_past_the_cap_is_answered_not_reset(serve):
    """Many clients at once, each sending its request as soon as it connects: every one
    reads an answer, 200 or 503. A connection closed with its request unread sends a
    reset, which the client reports instead of the 503 written before it."""
    import threading

    address = serve("--max-connections", "5", "--header-timeout", "60")
    clients = 60
    answers: list[bytes] = []
    failures: list[str] = []
    start = threading.Barrier(clients)

    def one() -> None:
        start.wait()
        try:
            with _connect(address) as sock:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                received = b""
                while chunk := sock.recv(65536):
                    received += chunk
            answers.append(received.split(b"\r\n", 1)[0])
        except OSError as error:
            failures.append(repr(error))

    threads = [threading.Thread(target=one) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures[:3]
    assert {a.split(b" ")[1] for a in answers} <= {b"200", b"503"}
    assert len(answers) == clients and b"HTTP/1.1 503 Service Unavailable" in answers


def test_a_chunked_upload_past_the_limit_reads_its_413(serve):
    """An upload with no Content-Length, sent in chunks past --max-upload-mb: the client
    sends all of it and reads the 413 page, with no reset (the server reads the rest
    before answering, as for a declared length)."""
    address = serve("--max-upload-mb", "1")
    boundary = "x"
    with _connect(address) as sock:
        sock.sendall(
            b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\nConnection: close\r\n\r\n"
        )
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                 'filename="a.txt"\r\n\r\n'.encode()]  # fmt: skip
        parts += [b"a" * 65536] * 48  # 3 MB
        parts += [f"\r\n--{boundary}--\r\n".encode(), b""]
        for part in parts:
            sock.sendall(b"%x\r\n%s\r\n" % (len(part), part))
        received = b""
        while chunk := sock.recv(65536):  # a reset raises here
            received += chunk
    assert received.startswith(b"HTTP/1.1 413 "), received[:200]
    assert b"over this server&#39;s limit of 1 MB" in received or b"limit of 1 MB" in received


def test_the_limits_are_options(cli):
    result = cli("serve", "--help")
    assert "--header-timeout" in result.out and "--max-connections" in result.out
    result = cli("serve", "--header-timeout", "0", "--port", "0")
    assert result.code == 2 and "--header-timeout" in result.err
