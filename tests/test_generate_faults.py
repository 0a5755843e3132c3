"""Generation against a misbehaving OpenAI-compatible server, through the CLI."""

from __future__ import annotations

import json

import pytest

from maieutic.llm.store import CallStore
from tests.conftest import write_json
from tests.fake_server import FakeOpenAIServer, Fault, default_reply

MARKERS = ["RESET", "LIMITED", "ERROR500", "STALL", "MALFORMED", "EMPTY", "TERSE", "PLAIN"]


def _dataset(tmp_path):
    data = {
        f"ITEM_{m}": {
            "intervention_id": f"ITEM_{m}",
            "intervention": f'SPEAKER: "We must act now ({m}) because prices keep rising."',
            "cqs": [],
        }
        for m in MARKERS
    }
    return write_json(tmp_path / "items.json", data)


def _generate(cli, tmp_path, *args):
    """``maieutic generate cqs --generator llm`` over the fault dataset."""
    return cli("generate", "cqs", "--data", _dataset(tmp_path), "--generator", "llm", *args)


def _reply(body):
    if "TERSE" in json.dumps(body["messages"]):
        return "Only one question here, is it enough?"
    return default_reply(body)


@pytest.fixture
def server():
    with FakeOpenAIServer(reply=_reply) as fake:
        yield fake


def test_each_fault_is_handled_and_failures_are_listed(cli, tmp_path, server):
    server.fail_matching("RESET", Fault(kind="reset"))
    server.fail_matching(
        "LIMITED", Fault(kind="status", status=429, headers={"Retry-After": "0.2"})
    )
    server.fail_matching("ERROR500", Fault(kind="status", status=500))
    # the stall outlasts the client's timeout by far, and the timeout is long enough
    # that no other request on a loaded machine comes near it
    server.fail_matching("STALL", Fault(kind="stall", seconds=30))
    server.fail_matching("MALFORMED", *[Fault(kind="malformed")] * 3)
    server.fail_matching("EMPTY", *[Fault(kind="empty")] * 3)
    out = tmp_path / "sub.json"
    result = _generate(
        cli,
        tmp_path,
        "--base-url",
        server.base_url,
        "--llm",
        "fake",
        "--retries",
        "2",
        "--timeout",
        "3",
        "--concurrency",
        "4",
        "--out",
        out,
    )
    assert result.code == 1
    sub = json.loads(out.read_text())
    ok = {k for k, v in sub.items() if isinstance(v["cqs"], list)}
    full = {"ITEM_RESET", "ITEM_LIMITED", "ITEM_ERROR500", "ITEM_STALL", "ITEM_PLAIN"}
    assert ok == full | {"ITEM_TERSE"}
    assert all(len(sub[k]["cqs"]) == 3 for k in full)
    # the one usable question the model gave is kept, with a note: never "Missing CQs"
    assert len(sub["ITEM_TERSE"]["cqs"]) == 1
    assert sub["ITEM_MALFORMED"]["cqs"] == "Missing CQs"
    err = result.err
    assert "2 intervention(s) failed" in err
    assert "ITEM_MALFORMED: model call failed: malformed reply" in err and "after 3 attempts" in err
    assert "ITEM_EMPTY: model call failed: empty content in the reply after 3 attempts" in err
    assert "ITEM_TERSE: model output: only 1 distinct usable question, written instead of 3" in err
    # 8 calls: 6 answered (some after retries), 2 failed for good, none cached; "made"
    # counts the requests the server received, retries included (issue 50)
    assert len(server.requests) == 16
    assert "model calls: 16 made, 0 served from the cache, 2 failed" in err
    meta = json.loads((tmp_path / "sub.meta.json").read_text())
    assert set(meta["failed"]) == {"ITEM_MALFORMED", "ITEM_EMPTY"}
    assert (
        meta["notes"]["ITEM_TERSE"]
        == "model output: only 1 distinct usable question, written instead of 3"
    )
    # retried exactly as scripted, counted per item: one retry after each one-off fault,
    # three attempts (retries 2) for the persistent ones, one request for the rest
    per_item = {
        m: sum(f"({m})" in json.dumps(r["messages"]) for r in server.requests) for m in MARKERS
    }
    assert per_item == {
        "RESET": 2,
        "LIMITED": 2,
        "ERROR500": 2,
        "STALL": 2,
        "MALFORMED": 3,
        "EMPTY": 3,
        "TERSE": 1,
        "PLAIN": 1,
    }


def test_unreachable_server_is_one_clear_line_and_exit_1(cli, tmp_path):
    from maieutic.llm.server import free_port

    url = f"http://127.0.0.1:{free_port()}/v1"
    out = tmp_path / "sub.json"
    result = _generate(
        cli,
        tmp_path,
        "--base-url",
        url,
        "--retries",
        "0",
        "--out",
        out,
    )
    assert result.code == 1
    lines = [line for line in result.err.splitlines() if "cannot connect" in line]
    assert lines == [
        f"all 8 interventions failed: model call failed: cannot connect to "
        f"{url}/chat/completions (is the server running?)"
    ]
    assert json.loads(out.read_text())["ITEM_PLAIN"]["cqs"] == "Missing CQs"


def test_api_key_never_reaches_cache_log_outputs_or_messages(
    cli, tmp_path, server, monkeypatch, isolated_home
):
    secret = "sk-test-DO-NOT-LEAK-1234567890"
    monkeypatch.setenv("MAIEUTIC_API_KEY", secret)
    server.fail_matching("MALFORMED", *[Fault(kind="status", status=401)] * 5)
    out = tmp_path / "sub.json"
    result = _generate(
        cli,
        tmp_path,
        "--base-url",
        server.base_url,
        "--retries",
        "0",
        "--out",
        out,
        "--debug",
    )
    assert server.headers_seen[0]["Authorization"] == f"Bearer {secret}"  # it was sent
    assert "server answered 401" in result.err
    for path in [out, tmp_path / "sub.meta.json", *isolated_home.rglob("*")]:
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    assert secret not in result.err + result.out
    rows = CallStore().rows("calls")
    assert rows and all(secret not in json.dumps(r) for r in rows)
