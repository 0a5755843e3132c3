"""A server that echoes the whole request (request line, headers, body) into its reply,
as a careless proxy or a misbehaving model may: neither the API key nor credentials
in ``--base-url`` (its query string or its user part) may reach any file written, the
cache included, whole or as a piece of ``MIN_SECRET_PIECE`` characters."""

from __future__ import annotations

import base64
import json

import pytest

from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend, url_secrets
from maieutic.llm.client import MIN_SECRET_PIECE, LLMClient, redact_reply
from maieutic.llm.store import CallStore
from maieutic.llm.types import BackendReply, ChatRequest
from maieutic.provenance import redact_url
from tests.conftest import write_json
from tests.fake_server import FakeOpenAIServer, default_reply

KEY = "sk-" + "Jd4Wq8Rz1N" * 3 + "m6Xh2Tb"  # 40 characters, no run of 8 repeats elsewhere
URL_KEY = "qk-Fy7Lp3Vc9Gs5Bn1Me"
PASSWORD = "pw-Ut6Yo2Ia8Sd4Hj"


def _pieces(secret: str) -> list[bytes]:
    size = MIN_SECRET_PIECE
    return [secret[i : i + size].encode() for i in range(len(secret) - size + 1)]


def _basic(user: str, password: str) -> str:
    return base64.b64encode(f"{user}:{password}".encode()).decode()


def _leaks(folder, secrets: list[str]) -> list[str]:
    """Every file under ``folder`` (as bytes: SQLite pages, its write-ahead log) holding
    a secret or a piece of one."""
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        for secret in secrets:
            if any(piece in data for piece in _pieces(secret)):
                found.append(f"{path.name}: a piece of {secret[:3]}…")
    return found


def _reply_with_a_piece(body: dict) -> str:
    # a model may repeat part of the key on its own, cut where it likes
    return default_reply(body) + f"\n4. Is {KEY[11:24]} the code that was meant?"


def _generate(cli, tmp_path, base_url: str):
    data = {"I": {"intervention_id": "I", "intervention": "A: We must act now.", "cqs": []}}
    out = tmp_path / "out" / "cqs.json"
    out.parent.mkdir()
    result = cli(
        "generate", "cqs", "--data", write_json(tmp_path / "d.json", data), "--generator",
        "llm", "--llm", "fake", "--base-url", base_url, "--retries", "0", "--out", out,
    )  # fmt: skip
    return result, out


@pytest.fixture
def echoing_server():
    with FakeOpenAIServer(_reply_with_a_piece, echo=True) as server:
        yield server


@pytest.mark.parametrize("userinfo", [False, True])
def test_nothing_written_holds_a_piece_of_the_key_a_server_echoes(
    cli, tmp_path, isolated_home, monkeypatch, echoing_server, userinfo
):
    monkeypatch.setenv("MAIEUTIC_API_KEY", KEY)
    base = echoing_server.base_url
    if userinfo:  # then httpx sends these as Basic auth, in place of the key
        base = base.replace("http://", f"http://user:{PASSWORD}@")
    result, out = _generate(cli, tmp_path, f"{base}?api_key={URL_KEY}&x=1")
    assert result.code == 0, result.err
    # the server got the credentials, at the right path
    assert echoing_server.paths_seen == [f"/v1/chat/completions?api_key={URL_KEY}&x=1"]
    sent = f"Basic {_basic('user', PASSWORD)}" if userinfo else f"Bearer {KEY}"
    assert echoing_server.headers_seen[0]["Authorization"] == sent
    secrets = [KEY, URL_KEY, PASSWORD, _basic("user", PASSWORD)]
    assert not _leaks(isolated_home, secrets)
    assert not _leaks(out.parent, secrets)
    # the questions are kept, the credentials in them hidden, and the reason said
    questions = [q["cq"] for q in json.loads(out.read_text())["I"]["cqs"]]
    assert len(questions) == 3 and all("query api_key=*" in q for q in questions), questions
    assert "replaced by ***" in result.err
    meta = json.loads(out.with_name("cqs.meta.json").read_text())
    assert "api_key=***&x=1" in meta["provenance"]["options"]["base_url"]


def test_the_url_key_goes_to_the_server_in_the_query_string(echoing_server, tmp_path):
    url = f"{echoing_server.base_url}?api_key={URL_KEY}"
    backend = OpenAICompatibleBackend(url, model="fake", api_key="")
    client = LLMClient(backend, CallStore(tmp_path / "llm.sqlite"))
    [result] = client.run_all([ChatRequest.of([{"role": "user", "content": "hi"}])], lambda *_: 0)
    assert echoing_server.paths_seen == [f"/v1/chat/completions?api_key={URL_KEY}"]
    assert URL_KEY not in result.text and result.redacted
    assert not _leaks(tmp_path, [URL_KEY])


def test_two_keys_in_the_url_share_one_cache_entry(tmp_path):
    # the cache key is computed from the URL with its credentials hidden
    keys = {
        LLMClient(OpenAICompatibleBackend(f"http://h/v1?token={k}", model="m")).key(
            ChatRequest.of([{"role": "user", "content": "hi"}])
        )
        for k in ("tok-11111111", "tok-22222222")
    }
    assert len(keys) == 1


@pytest.mark.parametrize(
    ("url", "shown", "secrets"),
    [
        ("http://h/v1?api_key=K1234567", "http://h/v1?api_key=***", ["K1234567"]),
        ("http://h/v1?key=abc&model=m", "http://h/v1?key=***&model=m", ["abc"]),
        ("https://h/v1?a=1&token=T%2B9#f", "https://h/v1?a=1&token=***#f", ["T+9", "T%2B9"]),
        ("http://h/v1?Access_Token=zz;X-Api-Key=yy", "http://h/v1?Access_Token=***;X-Api-Key=***",
         ["zz", "yy"]),
        ("http://u:p@h/v1?sig=s", "http://***@h/v1?sig=***", ["p", _basic("u", "p"), "s"]),
        ("http://h/v1?monkey=banana&q=1", "http://h/v1?monkey=banana&q=1", []),
    ],
)  # fmt: skip
def test_credentials_in_the_query_string(url, shown, secrets):
    assert redact_url(url) == shown
    assert redact_url(f"see {url} now") == f"see {shown} now"
    assert sorted(url_secrets(url)) == sorted(secrets)


def test_a_reply_keeps_its_words_when_a_credential_is_a_placeholder():
    # a short credential is a placeholder: replacing it would blank every "x" or "test"
    reply = "Is x the key? Let x be the test; none of the above (pw: p4ss, p4ssword)."
    assert redact_reply(reply, ["x", "test", "none", "p4ss"]) == reply
    # a wordy placeholder key: the whole key is hidden, its word pieces are not
    dummy = "sk-no-key-required"
    shown = redact_reply(f"Is evidence required? key {dummy}, sk-no-key-req", [dummy])
    assert shown == "Is evidence required? key ***, sk-no-key-req"
    # pieces of real key material (digits, mixed case) are hidden wherever they appear
    assert redact_reply(f"a {KEY[2:14]} b", [KEY]) == "a *** b"
    assert redact_reply("use password123 or password", ["password123"]) == "use *** or password"


def test_a_reply_cached_with_the_key_is_scrubbed_when_read(tmp_path):
    # a cache row written before replies were scrubbed: read, hidden and rewritten
    backend = OpenAICompatibleBackend("http://127.0.0.1:9/v1", model="m", api_key=KEY)
    store = CallStore(tmp_path / "llm.sqlite")
    client = LLMClient(backend, store)
    request = ChatRequest.of([{"role": "user", "content": "hi"}])
    store.put(client.key(request), BackendReply(text=f"1. Is {KEY} yours?", model="m"))
    [result] = client.run_all([request], lambda *_: 0)
    assert result.cached and result.redacted and result.text == "1. Is *** yours?"
    assert store.get(client.key(request)).text == "1. Is *** yours?"
    assert client.backend_calls == 0


def test_a_signature_never_carries_url_credentials():
    # a signature is written into every output (results, .meta.json, Ray manifests)
    from maieutic.signature import Signature

    url = "http://user:pw-SECRET-1@h:1/v1?api_key=SECRETKEY123&x=1"
    signature = Signature(task="focus", seed=1, extra={"base_url": url, "zz": "after"})
    for text in (str(signature), repr(signature.as_dict())):
        assert "SECRET" not in text and "pw-" not in text
    assert "base_url:http://***@h:1/v1?api_key=***&x=1|zz:after" in str(signature)
    assert signature.as_dict()["base_url"] == "http://***@h:1/v1?api_key=***&x=1"
