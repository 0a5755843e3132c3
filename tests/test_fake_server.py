"""The fake OpenAI-compatible server the tests use: a client that hangs up before a slow
reply is no error of its (no traceback on the process's stderr, which by then may be
another test's)."""

from __future__ import annotations

import json
import socket
import struct
import time

from tests.fake_server import FakeOpenAIServer


def test_a_client_that_hangs_up_before_a_slow_reply_prints_nothing(capfd):
    with FakeOpenAIServer(delay_s=0.3) as server:
        host, port = server.base_url.split("//")[1].split("/")[0].split(":")
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        request = (
            f"POST /v1/chat/completions HTTP/1.1\r\nHost: {host}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}"
        )
        client = socket.create_connection((host, int(port)))
        # the reply cannot be written: the client resets the connection at once
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.sendall(request.encode())
        client.close()
        time.sleep(0.6)  # the handler wakes and writes to the closed connection
        assert server.requests
    assert "Traceback" not in capfd.readouterr().err
