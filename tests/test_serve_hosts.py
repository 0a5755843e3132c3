"""``maieutic serve`` keeps a Host allow-list on every address it listens on: loopback
names always, ``--allow-host`` names, and a specific address it is bound to; any other
Host (what DNS rebinding sends) is refused, also with ``--host 0.0.0.0``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from maieutic.web import Settings, create_app
from maieutic.web.guard import allowed_hosts, normalize_host
from maieutic.web.server import host_warning


@pytest.fixture
def served(monkeypatch):
    """``maieutic serve`` runs recorded instead of served: the app it built, and the
    port (the socket is still bound)."""
    built: list = []
    real_create_app = create_app

    def recording(settings):
        built.append(real_create_app(settings))
        return built[-1]

    monkeypatch.setattr("maieutic.web.app.create_app", recording)
    monkeypatch.setattr("uvicorn.Server.run", lambda self, sockets=None: None)
    return built


def _status(app, host: str) -> int:
    with TestClient(app, base_url="http://127.0.0.1") as client:
        return client.get("/healthz", headers={"host": host}).status_code


def test_a_wildcard_bind_still_refuses_foreign_hosts(cli, served):
    result = cli("serve", "--host", "0.0.0.0", "--port", "0")
    assert result.code == 0, result.err
    app = served[-1]
    assert _status(app, "rebound.example") == 400
    assert _status(app, "rebound.example:8000") == 400
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000", "LOCALHOST."):
        assert _status(app, host) == 200, host


def test_allow_host_names_are_answered_and_others_refused(cli, served):
    result = cli(
        "serve", "--host", "0.0.0.0", "--port", "0",
        "--allow-host", "Box.LAN", "--allow-host", "10.0.0.5",
    )  # fmt: skip
    assert result.code == 0, result.err
    app = served[-1]
    for host in ("box.lan", "box.lan:8000", "BOX.lan.", "10.0.0.5:8000", "localhost"):
        assert _status(app, host) == 200, host
    with TestClient(app, base_url="http://evil.box.lan") as foreign:
        page = foreign.get("/")
    assert page.status_code == 400
    assert "--allow-host NAME" in page.text and "box.lan" in page.text


def test_the_warning_says_which_names_are_answered_and_how_to_add_one(cli, served):
    result = cli("serve", "--host", "0.0.0.0", "--port", "0", "--allow-host", "box.lan")
    warning = " ".join(result.err.split())
    assert "warning: --host 0.0.0.0 is not a loopback address" in warning
    assert "Only requests whose Host is one of localhost, 127.0.0.1, [::1], box.lan" in warning
    assert "--allow-host NAME" in warning
    assert "maieutic: serving http://127.0.0.1:" in result.out  # a URL the app answers to
    assert host_warning("127.0.0.1") is None


def test_a_specific_bind_address_is_answered_as_a_host():
    assert allowed_hosts("0.0.0.0") == () and allowed_hosts("::") == ()
    assert allowed_hosts("127.0.0.1") == () and allowed_hosts("localhost") == ()
    assert allowed_hosts("192.168.1.5", ["box.lan", "BOX.lan"]) == ("box.lan", "192.168.1.5")
    assert allowed_hosts("[fe80::0:1]") == ("fe80::1",)
    app = create_app(Settings(allowed_hosts=allowed_hosts("192.168.1.5")))
    assert _status(app, "192.168.1.5:8000") == 200 and _status(app, "192.168.1.6") == 400


def test_a_request_without_host_is_refused():
    app = create_app(Settings(allowed_hosts=("box.lan",)))
    assert _status(app, "") == 400


@pytest.mark.parametrize("name", ["*", "", "a b", "http://box.lan", "u@box.lan"])
def test_allow_host_takes_a_name_not_a_pattern(cli, served, name):
    result = cli("serve", "--port", "0", "--allow-host", name)
    assert result.code == 2 and "--allow-host" in result.err and not served


def test_normalize_host():
    assert normalize_host("[::1]:8000") == "::1"
    assert normalize_host("Example.COM.:80") == "example.com"
    assert normalize_host("127.000.0.1") == "127.000.0.1"  # no address: compared as a name
    assert normalize_host("[0:0::1]") == "::1"


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:80@evil.com",
        "localhost:evil.com",
        "localhost:80:80",
        "localhost:",
        "localhost:8x",
        "::1",
        "[::1",
        "[::1]x",
        "[localhost]",
        "localhost@evil.com",
        "evil.com#localhost",
        "box.lan:80@evil.com",
    ],
)
def test_a_host_that_is_not_one_name_and_port_is_refused(host):
    """A Host header is one name or address with an optional port of digits, an IPv6
    address in brackets; anything else is refused whatever name it starts with."""
    app = create_app(Settings(allowed_hosts=("box.lan",)))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        page = client.get("/healthz", headers={"host": host})
    assert page.status_code == 400, host
    assert "--allow-host NAME" in page.text


def test_well_formed_hosts_are_still_answered():
    app = create_app(Settings(allowed_hosts=("box.lan", "fe80::1")))
    for host in ("127.0.0.1", "localhost:8000", "[::1]", "[0:0::1]:80", "box.lan:65535"):
        assert _status(app, host) == 200, host
    assert _status(app, "[FE80::0:1]:8000") == 200
    assert allowed_hosts("fe80::1", ["::2", "[::3]:80"]) == ("::2", "::3", "fe80::1")
