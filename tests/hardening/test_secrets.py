"""E: no command that calls a language model writes or shows a piece of its API key.

Generated from the command table: every command with a ``--base-url`` option calls a
model, and is run (its valid calls of ``valid_calls.CALLS`` that run a model, or the
calls of ``MODEL_CALLS`` below for a command whose table call runs none) against a
server that echoes the whole request (request line, headers, body) into its reply, as
a careless proxy or a misbehaving model may, and whose reply also repeats a piece of
the key on its own. The key is given each way a user gives it: ``OPENAI_API_KEY``,
``MAIEUTIC_API_KEY``, or the query string of ``--base-url`` (``?api_key=…``). No piece
of ``MIN_SECRET_PIECE`` (8) characters of it may be in any file written (outputs, the
model-call cache and its SQLite write-ahead log) or on standard output or error.
"""

from __future__ import annotations

import pytest

from maieutic.llm.client import MIN_SECRET_PIECE
from tests.cli_commands import leaves
from tests.fake_server import FakeOpenAIServer, default_reply
from tests.hardening.valid_calls import CALLS, EXEMPT, write_files

ENV_KEY = "sk-" + "Jd4Wq8Rz1N" * 3 + "m6Xh2Tb"  # 40 characters, no run of 8 repeats elsewhere
URL_KEY = "qk-Fy7Lp3Vc9Gs5Bn1Me"
KEY_VARIABLES = ("OPENAI_API_KEY", "MAIEUTIC_API_KEY")
GIVEN = (*KEY_VARIABLES, "base-url query")

# commands whose table call runs no model: a call that does (the table's calls stay
# offline and cheap for the bad-input matrix)
MODEL_CALLS: dict[str, tuple[tuple[str, ...], ...]] = {
    "evaluate cqs": (("--data", "@cqs_data.json", "@cqs_sub.json", "--evaluator", "llm-label"),),
    "meta-eval cqs": (("--data", "@cqs_data.json", "--evaluator", "llm-label"),),
    "meta-eval cqs-compare": (
        (
            "--data",
            "@cqs_data.json",
            "--outputs",
            "@cqs_outputs.json",
            "--evaluator",
            "chrf",
            "--evaluator",
            "llm-label",
        ),
    ),
    "ask": (CALLS["ask"][0].argv,),  # --llm makes all three parts ask the model
}
SLOW = {"ask"}  # its long-document part loads AURA's bi-encoder


def model_commands() -> list[str]:
    """The commands that can call a language model: those with ``--base-url`` (but the
    servers the table exempts: ``serve`` asks through ``ask``'s pipeline, run here)."""
    return sorted(
        path
        for path, command in leaves()
        if any("--base-url" in p.opts for p in command.params) and path not in EXEMPT
    )


def model_calls(command: str) -> list[tuple[str, ...]]:
    """The argv (after the command path) of each call of ``command`` that runs a model."""
    calls = [c.argv for c in CALLS.get(command, ()) if c.model == "llm"]
    calls += MODEL_CALLS.get(command, ())
    if command.startswith("evaluate"):  # its results file too
        calls = [(*argv, "--out", "@results.json") for argv in calls]
    return calls


def _cases():
    for command in model_commands():
        for number, argv in enumerate(model_calls(command)):
            marks = [pytest.mark.slow] if command in SLOW else []
            for given in GIVEN:
                name = f"{command}-{number}-{given}"
                yield pytest.param(command, argv, given, id=name, marks=marks)


def pieces(secret: str) -> list[bytes]:
    """Every run of ``MIN_SECRET_PIECE`` characters of ``secret``."""
    size = MIN_SECRET_PIECE
    return [secret[i : i + size].encode() for i in range(len(secret) - size + 1)]


def leaks(folder, secret: str) -> list[str]:
    """Every file under ``folder`` (read as bytes: SQLite pages, its write-ahead log)
    holding a piece of ``secret``."""
    return [
        str(path.relative_to(folder))
        for path in sorted(p for p in folder.rglob("*") if p.is_file())
        if any(piece in path.read_bytes() for piece in pieces(secret))
    ]


def test_every_command_that_calls_a_model_has_a_call_that_does():
    # a new command with --base-url fails here until it has a call that runs its model
    missing = [command for command in model_commands() if not model_calls(command)]
    assert not missing, f"give these a call that runs a model (MODEL_CALLS): {missing}"
    assert len(model_commands()) >= 9  # the table is found, not empty


@pytest.mark.parametrize(("command", "argv", "given"), list(_cases()))
def test_no_piece_of_the_key_is_written_or_shown(
    cli, tmp_path, isolated_home, monkeypatch, command, argv, given
):
    secret = URL_KEY if given == "base-url query" else ENV_KEY
    for variable in KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    if given in KEY_VARIABLES:
        monkeypatch.setenv(given, secret)

    def reply(body: dict) -> str:  # a model may repeat part of the key on its own
        return default_reply(body) + f"\n4. Is {secret[3:16]} the code that was meant?"

    work = tmp_path / "work"
    work.mkdir()
    write_files(work)
    words = [str(work / w[1:]) if w.startswith("@") else w for w in argv]
    retries = () if command == "ask" else ("--retries", "0")
    with FakeOpenAIServer(reply, echo=True) as server:
        url = server.base_url + (f"?api_key={secret}" if given == "base-url query" else "")
        result = cli(*command.split(), *words, "--llm", "fake", "--base-url", url, *retries)
    assert "Traceback" not in result.err, result.err
    assert server.requests, result.err  # the model was called
    if given in KEY_VARIABLES:  # the key was sent, so the echo carries it
        assert {h.get("Authorization") for h in server.headers_seen} == {f"Bearer {secret}"}
    else:
        assert all(f"api_key={secret}" in path for path in server.paths_seen)
    assert not leaks(isolated_home, secret), "a piece of the key in the cache"
    assert not leaks(work, secret), "a piece of the key in a file written"
    shown = (result.out + result.err).encode()
    assert not [p for p in pieces(secret) if p in shown], "a piece of the key on screen"


def _fragment_cases():
    for command in model_commands():
        argv = model_calls(command)[0]
        marks = [pytest.mark.slow] if command in SLOW else []
        yield pytest.param(command, argv, id=command, marks=marks)


@pytest.mark.parametrize(("command", "argv"), list(_fragment_cases()))
def test_a_key_in_the_url_fragment_is_refused_and_never_stored(
    cli, tmp_path, isolated_home, monkeypatch, command, argv
):
    # a fragment is never sent: a key there would only reach the cache and the records
    for variable in KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    work = tmp_path / "work"
    work.mkdir()
    write_files(work)
    before = sorted(p.name for p in work.iterdir())
    words = [str(work / w[1:]) if w.startswith("@") else w for w in argv]
    with FakeOpenAIServer(default_reply) as server:
        url = f"{server.base_url}#key={URL_KEY}"
        result = cli(*command.split(), *words, "--llm", "fake", "--base-url", url)
    assert result.code == 2 and "Traceback" not in result.err, result.err
    [line] = result.err.strip().splitlines()[-1:]
    assert line == (
        f"maieutic: error: --base-url {server.base_url}#…: a base URL has no fragment (nothing "
        "after '#' is ever sent to the server); leave it out, and give a key in MAIEUTIC_API_KEY"
    )
    assert not server.requests
    assert sorted(p.name for p in work.iterdir()) == before
    assert not leaks(isolated_home, URL_KEY) and not leaks(work, URL_KEY)
    assert not [p for p in pieces(URL_KEY) if p in (result.out + result.err).encode()]
