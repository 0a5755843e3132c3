"""Secrets never reach a message, a file or the cache: an API key echoed back by the
server (whole, cut by the server, or cut where an error message is truncated), a key
that cannot go in an HTTP header, and credentials in ``--base-url``."""

from __future__ import annotations

import base64
import json
import sys

import pytest

from maieutic.errors import DataError
from maieutic.llm.backends.openai_compat import ERROR_SNIPPET_CHARS, OpenAICompatibleBackend
from maieutic.llm.client import CallFailed, LLMClient, RetryPolicy, redact
from maieutic.llm.store import CallStore
from maieutic.llm.types import ChatRequest
from maieutic.provenance import provenance, redact_credentials, redact_url
from tests.conftest import write_json
from tests.fake_server import FakeOpenAIServer, Fault, _Handler

KEY = "sk-" + "Q7vR2mXk9T" * 3 + "p4Lw8Zc"  # 40 characters, no run of 8 repeats elsewhere
PASSWORD = "pw-Hn3Ks8Qa0Vb5Yr"
PREFIX = "server answered 401: "
ECHO = " you sent: Authorization: "


def _leaks(text: str, secret: str = KEY, size: int = 8) -> list[str]:
    """Every run of ``size`` characters of ``secret`` found in ``text``."""
    return [
        secret[i : i + size] for i in range(len(secret) - size + 1) if secret[i : i + size] in text
    ]


@pytest.fixture
def echoing(monkeypatch):
    """A fault ``Fault("status", 401, {"pad": N, "cut": M})``: the server answers 401
    with N characters of padding, then the Authorization header it got (its first M
    characters when M is given; its last -M when M is negative), as some servers do."""
    original = _Handler._fail

    def fail(self, fault) -> bool:
        if fault.kind != "status" or fault.status != 401:
            return original(self, fault)
        header = self.headers.get("Authorization", "")
        cut = int(fault.headers.get("cut", 0))
        header = header[:cut] if cut > 0 else header[cut:] if cut < 0 else header
        text = "x" * int(fault.headers["pad"]) + ECHO + header + " (rejected)"
        self._send_bytes(401, text.encode())
        return True

    monkeypatch.setattr(_Handler, "_fail", fail)


def _failed_call(tmp_path, base_url: str, api_key: str | None) -> tuple[str, str]:
    """One call that fails for good: the exception's text and the stored error."""
    backend = OpenAICompatibleBackend(base_url, model="fake", api_key=api_key)
    store = CallStore(tmp_path / "llm.sqlite")
    client = LLMClient(backend, store, retry=RetryPolicy(retries=0))
    [outcome] = client.run_all([ChatRequest.of([{"role": "user", "content": "hi"}])], lambda *_: 0)
    assert isinstance(outcome, CallFailed)
    [row] = store.rows("calls")
    return outcome.reason, row["error"]


# where the 200-character cut falls: before the key, inside it (keeping 1 to 39 of its
# characters), just after it
@pytest.mark.parametrize("kept", [0, 1, 7, 8, 20, 32, 39, 40])
def test_an_echoed_key_cut_by_the_truncation_leaves_no_piece_of_it(tmp_path, echoing, kept):
    pad = ERROR_SNIPPET_CHARS - len(ECHO) - len("Bearer ") - kept
    with FakeOpenAIServer() as server:
        server.fail_next(Fault(kind="status", status=401, headers={"pad": str(pad)}))
        reason, stored = _failed_call(tmp_path, server.base_url, KEY)
    for text in (reason, stored):
        assert text.startswith(PREFIX + "x" * pad + ECHO)
        assert not _leaks(text), text


@pytest.mark.parametrize("cut", [7 + 12, 7 + 33, -30, -9])
def test_a_key_cut_by_the_server_is_redacted_too(tmp_path, echoing, cut):
    with FakeOpenAIServer() as server:
        server.fail_next(Fault(kind="status", status=401, headers={"pad": "10", "cut": str(cut)}))
        reason, stored = _failed_call(tmp_path, server.base_url, KEY)
    assert "***" in reason and not _leaks(reason) and not _leaks(stored)


def test_redact_removes_every_run_of_eight_characters_of_a_secret():
    text = f"a {KEY[:8]} b {KEY[5:30]} c {KEY[-12:]} d {KEY[3:10]} e {KEY}."
    assert redact(text, [KEY]) == f"a *** b *** c *** d {KEY[3:10]} e ***."
    assert redact("nothing here", [KEY, ""]) == "nothing here"
    assert redact("short pw", ["pw"]) == "short ***"


@pytest.mark.parametrize(
    ("key", "position", "what"),
    [
        ("sk-abcdefghé0123456789", 12, "a non-ASCII character"),
        ("sk-abcdefgh0123456789\n", 22, "a control character"),
        ("«sk-abcdefgh0123456789»", 1, "a non-ASCII character"),
    ],
)
def test_a_key_that_cannot_go_in_a_header_is_one_line_without_the_key(key, position, what):
    with pytest.raises(DataError) as caught:
        OpenAICompatibleBackend("http://127.0.0.1:9/v1", model="fake", api_key=key)
    message = str(caught.value)
    assert f"{what}" in message and f"at position {position}" in message
    assert "abcdefgh" not in message and "0123456789" not in message


def test_a_bad_key_from_the_environment_exits_2_naming_the_variable(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("MAIEUTIC_API_KEY", "sk-ünïcode-0123456789abcdef")
    result = _generate(cli, tmp_path, "http://127.0.0.1:9/v1")
    assert result.code == 2
    assert "the API key (MAIEUTIC_API_KEY) contains a non-ASCII character at position 4" in (
        result.err
    )
    assert "0123456789" not in result.err and "Traceback" not in result.err


def _generate(cli, tmp_path, base_url: str, *more: str):
    data = {"I": {"intervention_id": "I", "intervention": "A: We must act now.", "cqs": []}}
    data_path = write_json(tmp_path / "d.json", data)
    out = tmp_path / "out.json"
    return cli(
        "generate", "cqs", "--data", data_path, "--generator", "llm", "--llm", "fake",
        "--base-url", base_url, "--retries", "0", "--out", out, *more,
    )  # fmt: skip


def _with_userinfo(url: str) -> str:
    return url.replace("http://", f"http://user:{PASSWORD}@")


def _stored_bytes(home) -> bytes:
    """The cache database as it is on disk, its write-ahead log included."""
    return b"".join(path.read_bytes() for path in sorted(home.glob("llm.sqlite*")))


def test_a_key_in_the_base_url_is_used_but_never_recorded(
    cli, tmp_path, echoing, isolated_home, monkeypatch
):
    monkeypatch.delenv("MAIEUTIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    token = base64.b64encode(f"user:{PASSWORD}".encode()).decode()
    with FakeOpenAIServer() as server:
        server.fail_next(Fault(kind="status", status=401, headers={"pad": "10"}))
        result = _generate(cli, tmp_path, _with_userinfo(server.base_url))
        # the request still carries the credentials (httpx sends them as Basic auth)
        assert server.headers_seen[0]["Authorization"] == f"Basic {token}"
    assert result.code == 1 and "Authorization: Basic ***" in result.err
    meta = json.loads((tmp_path / "out.meta.json").read_text())
    assert meta["provenance"]["options"]["base_url"] == server.base_url.replace(
        "http://", "http://***@"
    )
    stored = _stored_bytes(isolated_home)
    assert b"http://***@127.0.0.1" in stored
    for secret in (PASSWORD, token):
        assert not _leaks(result.err, secret)
        assert not _leaks(json.dumps(meta["provenance"]), secret)
        assert not _leaks(stored.decode("utf-8", "replace"), secret)


def test_the_generator_spec_in_the_meta_file_has_no_credentials(cli, tmp_path):
    with FakeOpenAIServer() as server:
        _generate(cli, tmp_path, _with_userinfo(server.base_url))
    assert PASSWORD not in (tmp_path / "out.meta.json").read_text()


def test_a_connection_error_shows_the_url_without_its_credentials(tmp_path):
    url = _with_userinfo("http://127.0.0.1:9/v1")
    reason, stored = _failed_call(tmp_path, url, None)
    assert "cannot connect to http://***@127.0.0.1:9/v1/chat/completions" in reason
    assert PASSWORD not in reason and PASSWORD not in stored


def test_an_invalid_base_url_is_one_line_without_its_credentials():
    with pytest.raises(DataError) as caught:
        OpenAICompatibleBackend(_with_userinfo("http://127.0.0.1:port/v1"), model="fake")
    assert "http://***@127.0.0.1:port/v1" in str(caught.value)
    assert PASSWORD not in str(caught.value)


def test_the_model_identity_and_cache_key_hold_no_credentials():
    backend = OpenAICompatibleBackend(_with_userinfo("http://h:1/v1"), model="m", api_key=KEY)
    assert backend.model_identity == "m@http://***@h:1/v1"
    assert PASSWORD in backend.secrets and KEY in backend.secrets


def test_provenance_redacts_urls_in_the_options_and_the_command(monkeypatch):
    url = f"https://user:{PASSWORD}@api.example/v1"
    monkeypatch.setattr(sys, "argv", ["maieutic", "generate", "--base-url", url, "-x"])
    record = provenance({"base_url": url, "nested": [{"u": f"--base-url={url}"}], "n": 3})
    assert record["command"] == ["maieutic", "generate", "--base-url", redact_url(url), "-x"]
    assert record["options"] == {
        "base_url": "https://***@api.example/v1",
        "nested": [{"u": "--base-url=https://***@api.example/v1"}],
        "n": 3,
    }
    assert PASSWORD not in json.dumps(record)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("http://KEY@host/v1", "http://***@host/v1"),
        ("http://u:p@ss@host/v1?q=a@b", "http://***@host/v1?q=a@b"),
        ("HTTPS://u:p@host", "HTTPS://***@host"),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
        ("mail me at a@b.example, see http://h/x@y", "mail me at a@b.example, see http://h/x@y"),
    ],
)
def test_redact_url(text, shown):
    assert redact_url(text) == shown
    assert redact_credentials((text, 1)) == (shown, 1)


@pytest.mark.parametrize(
    "name",
    ["subscription-key", "Ocp-Apim-Subscription-Key", "authorization", "bearer", "jwt",
     "id_jwt", "aws_access_key", "secret_key", "private-key", "session", "sessionid"],
)  # fmt: skip
def test_more_credential_names_in_the_query_string_are_hidden(name):
    assert redact_url(f"http://h/v1?{name}=Zq8Xv3Lm&api-version=2024") == (
        f"http://h/v1?{name}=***&api-version=2024"
    )


@pytest.mark.parametrize("name", ["api-version", "monkey", "sortkey", "model", "keyword"])
def test_ordinary_query_names_stay_visible(name):
    assert redact_url(f"http://h/v1?{name}=abc") == f"http://h/v1?{name}=abc"
