"""maieutic serve: the web app's pages, jobs, limits and defaults, through FastAPI's
TestClient (and one real uvicorn server on a loopback port for responsiveness)."""

from __future__ import annotations

import io
import json
import re
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from maieutic.samples import sample_path
from maieutic.web import Settings, create_app
from maieutic.web.app import get_asker
from maieutic.web.highlight import segments
from maieutic.web.server import DEFAULT_HOST, BackgroundServer, build_config, host_warning

ARGUMENT = (
    "We should ban cars downtown because pollution harms children. Every city that did "
    "this saw asthma rates fall, so it will work here too."
)
SCRIPT = "<script>alert(1)</script>"
BASE = "http://127.0.0.1"


def fake_result(text: str, source: str) -> dict:
    """An ``ask`` result in the library's JSON layout, echoing the text into every field."""
    return {
        "format": "maieutic.ask/1",
        "text": text,
        "source": source,
        "cqs": [{"question": f"Q{n}: is {text[:30]} true?", "schemes": ["X"]} for n in range(3)],
        "focus": [
            {
                "type": "IE",
                "type_name": f"type {SCRIPT}",
                "span": text[:10],
                "start": 0,
                "end": min(10, len(text)),
                "question": f"Why {text[:20]}?",
            }
        ],
        "aura": None,
        "signatures": {"cqs": f"sig {SCRIPT}", "focus": "f"},
        "warnings": [f"careful: {SCRIPT}"],
        "failures": [],
        "seconds": 0.0,
    }


def fake_asker(text: str, source: str, step) -> dict:
    step("pretending")
    return fake_result(text, source)


@pytest.fixture
def app():
    return create_app()


@pytest.fixture
def client(app):
    with TestClient(app, base_url=BASE) as test_client:
        yield test_client


@pytest.fixture
def faked(app, client):
    """The client with the Ask page's pipeline replaced by ``fake_asker`` (no model)."""
    app.dependency_overrides[get_asker] = lambda: fake_asker
    yield client
    app.dependency_overrides.clear()


def finish(client: TestClient, response, timeout: float = 180.0):
    """Follow a submitted job to its result page (polling its JSON like the page does)."""
    assert response.status_code == 303, response.text[:500]
    view = response.headers["location"]
    job = view.split("/")[2]
    deadline = time.monotonic() + timeout
    while client.get(f"/jobs/{job}").json()["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, "the job did not finish"
        time.sleep(0.05)
    return client.get(view)


def test_serve_with_a_model_asks_it_and_shows_its_questions_first(tmp_path):
    """``maieutic serve --llm NAME --base-url URL``: the Ask page runs ``ask --llm``'s
    model-first route (here on a replayed model that wrote three questions)."""
    from maieutic.llm.reply_server import ReplyServer
    from maieutic.tasks.cqs.candidates import load_candidates
    from maieutic.tasks.cqs.replay import ReplayIndex

    model = [
        "Did asthma rates fall in those cities because of the ban, or for other reasons?",
        "Is this city like the ones that banned cars downtown?",
        "How much of the pollution downtown comes from cars?",
    ]
    stored = {"A": {"intervention_id": "A", "intervention": ARGUMENT,
                    "cqs": [{"id": str(n), "cq": q} for n, q in enumerate(model)]}}  # fmt: skip
    (tmp_path / "c.json").write_text(json.dumps(stored))
    index = ReplayIndex(load_candidates(tmp_path / "c.json"))
    with ReplyServer(index.answer, model=index.model) as server:
        app = create_app(Settings(llm=index.model, base_url=server.base_url))
        with TestClient(app, base_url=BASE) as client:
            posted = client.post("/ask", data={"text": ARGUMENT}, follow_redirects=False)
            page = finish(client, posted).text
            job = posted.headers["location"].split("/")[2]
            result = client.get(f"/jobs/{job}/result.json").json()
    assert [q["question"] for q in result["cqs"]] == model
    assert {q["written_by"] for q in result["cqs"]} == {"model"}
    assert f'Critical questions <span class="muted">(language model {index.model})' in page
    assert "(offline)" not in page


def sample_files(evaluator: str = "sts") -> tuple[list, dict]:
    files = [
        ("dataset", ("sample_dataset.json", sample_path("cqs/sample_dataset.json").read_bytes())),
        (
            "submissions",
            ("sample_submission.json", sample_path("cqs/sample_submission.json").read_bytes()),
        ),
    ]
    return files, {"evaluator": evaluator}


def shown(html: str) -> str:
    """The page's text without its tags (a signature is drawn one span per field)."""
    return re.sub(r"<[^>]+>", "", html)


def only_our_scripts(html: str) -> bool:
    tags = re.findall(r"<script[^>]*>", html, flags=re.IGNORECASE)
    return tags == ['<script src="/static/app.js" defer>']


@pytest.mark.slow
def test_ask_shows_three_critical_questions_and_a_highlighted_span(client):
    page = finish(client, client.post("/ask", data={"text": ARGUMENT}, follow_redirects=False))
    assert page.status_code == 200
    assert page.text.count('<li class="cq">') == 3
    marked = re.findall(r'<mark class="hl[^"]*"[^>]*>([^<]+)</mark>', page.text)
    spans = re.findall(r'<span class="span-text">([^<]+)</span>', page.text)
    assert marked and spans and marked[0] in spans
    assert marked[0] in ARGUMENT
    job = re.search(r"/jobs/([\w-]+)/result.json", page.text).group(1)
    data = client.get(f"/jobs/{job}/result.json").json()
    assert data["format"] == "maieutic.ask/1" and len(data["cqs"]) == 3
    assert data["signatures"]["cqs"] in shown(page.text)


def test_user_text_is_escaped_everywhere(faked):
    text = f"{SCRIPT} We must act now because experts say so. <img src=x onerror=alert(2)>"
    page = finish(faked, faked.post("/ask", data={"text": text}, follow_redirects=False))
    assert page.status_code == 200
    assert SCRIPT not in page.text and "<img src=x" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert "&lt;img src=x onerror=alert(2)&gt;" in page.text
    assert only_our_scripts(page.text)
    assert "default-src 'none'" in page.headers["content-security-policy"]


def test_empty_text_is_refused_with_its_message(client):
    page = client.post("/ask", data={"text": "   \n "})
    assert page.status_code == 400
    assert "the text is empty: nothing to ask about" in page.text


def test_binary_upload_is_refused_with_a_clear_message(faked):
    page = faked.post("/ask", files={"file": ("photo.txt", b"\x89PNG\x00\x00\x01")})
    assert page.status_code == 400
    assert "photo.txt: binary data, expected text, Markdown or PDF" in page.text
    assert "Traceback" not in page.text and "maieutic-web-" not in page.text
    broken = faked.post("/ask", files={"file": ("paper.pdf", b"%PDF-1.4 not really")})
    assert broken.status_code == 400 and "paper.pdf: not a readable PDF" in broken.text


def test_text_and_pdf_uploads_are_read_and_named(faked, tmp_path):
    page = finish(
        faked,
        faked.post(
            "/ask",
            files={"file": ("../../etc/notes.md", b"We must act now.")},
            follow_redirects=False,
        ),
    )
    assert "(notes.md)" in page.text and "We must act now." in page.text
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(4, 2))
    figure.text(0.05, 0.5, "Experts agree, so we must act.")
    figure.savefig(tmp_path / "essay.pdf")
    plt.close(figure)
    with open(tmp_path / "essay.pdf", "rb") as pdf:
        response = faked.post("/ask", files={"file": ("essay.pdf", pdf)}, follow_redirects=False)
    page = finish(faked, response)
    assert "(essay.pdf)" in page.text and "Experts agree, so we must act." in page.text


def test_a_failing_job_says_so_in_one_line(app, client):
    def broken(text, source, step):
        raise RuntimeError("boom")

    app.dependency_overrides[get_asker] = lambda: broken
    page = finish(client, client.post("/ask", data={"text": "x"}, follow_redirects=False))
    assert page.status_code == 500 and "failed unexpectedly (RuntimeError: boom)" in page.text
    assert "Traceback" not in page.text


def test_text_and_file_together_are_ambiguous(faked):
    page = faked.post("/ask", data={"text": "abc"}, files={"file": ("a.txt", b"def")})
    assert page.status_code == 400 and "not both" in page.text


def test_an_upload_over_the_limit_gets_413(client):
    page = client.post("/ask", files={"file": ("big.txt", b"a" * 10_500_000)})
    assert page.status_code == 413
    assert "over this server's limit of 10 MB" in page.text.replace("&#39;", "'")
    assert "--max-upload-mb" in page.text


def test_the_limit_is_configurable_and_holds_without_a_declared_length():
    with TestClient(create_app(Settings(max_upload_bytes=1000)), base_url=BASE) as small:
        assert small.post("/ask", files={"file": ("a.txt", b"a" * 2000)}).status_code == 413
        assert "up to 0.001 MB" in small.get("/").text  # the form says so
        chunks = iter([b"--x\r\n", b"a" * 1500, b"\r\n--x--\r\n"])  # sent chunked
        streamed = small.post(
            "/ask", content=chunks, headers={"content-type": "multipart/form-data; boundary=x"}
        )
        assert streamed.status_code == 413 and "over this server" in streamed.text


def test_leaderboard_from_the_bundled_samples(client):
    files, data = sample_files("chrf")
    page = finish(
        client, client.post("/leaderboard", files=files, data=data, follow_redirects=False)
    )
    assert page.status_code == 200
    assert '<td class="system">sample_submission</td>' in page.text
    assert '<td class="num score">0.4667</td>' in page.text  # as maieutic evaluate cqs scores it
    assert "task:cqs|eval:chrf|thr:30|" in shown(page.text)
    assert '<code class="signature"><span>task:cqs|</span><wbr><span>eval:chrf|</span>' in page.text
    job = re.search(r"/jobs/([\w-]+)/result.json", page.text).group(1)
    download = client.get(f"/jobs/{job}/result.json")
    assert "maieutic-web-" not in download.text  # sources are the uploads' names
    payload = download.json()
    assert payload["format"] == "maieutic.results/2"
    assert payload["results"][0]["source"] == "sample_submission.json"
    assert payload["results"][0]["submission"] == "sample_submission"


@pytest.mark.slow
def test_leaderboard_with_the_default_embedding_evaluator(client):
    files, data = sample_files("sts")
    page = finish(
        client, client.post("/leaderboard", files=files, data=data, follow_redirects=False)
    )
    assert '<td class="system">sample_submission</td>' in page.text
    score = re.search(r'<td class="num score">([0-9.]+)</td>', page.text).group(1)
    assert 0 <= float(score) <= 1 and "eval:sts" in page.text


@pytest.mark.slow
def test_leaderboard_with_the_usefulness_judge(client):
    page = client.get("/leaderboard")
    assert re.search(r'<option value="usefulness"\s*>usefulness — judge, no references<', page.text)
    files, data = sample_files("usefulness")
    board = finish(
        client, client.post("/leaderboard", files=files, data=data, follow_redirects=False)
    )
    assert '<td class="system">sample_submission</td>' in board.text
    assert "eval:usefulness" in board.text and "scorer:" in board.text


def test_leaderboard_refuses_swapped_files_before_any_work(client):
    dataset = sample_path("cqs/sample_dataset.json").read_bytes()
    page = client.post(
        "/leaderboard",
        files=[("dataset", ("d.json", dataset)), ("submissions", ("s.json", dataset))],
    )
    assert page.status_code == 400 and "this is the labelled dataset" in page.text
    assert "maieutic-web-" not in page.text


def test_report_page_shows_the_html_report(client):
    files, data = sample_files("chrf")
    board = finish(
        client, client.post("/leaderboard", files=files, data=data, follow_redirects=False)
    )
    job = re.search(r"/jobs/([\w-]+)/result.json", board.text).group(1)
    results = client.get(f"/jobs/{job}/result.json").content
    page = finish(
        client,
        client.post(
            "/report",
            files={"results": ("results.json", results)},
            data={"title": f"My {SCRIPT} report"},
            follow_redirects=False,
        ),
    )
    assert page.status_code == 200
    src = re.search(r'<iframe class="report" src="([^"]+)" sandbox="allow-scripts', page.text)
    report = client.get(src.group(1))
    assert report.status_code == 200 and "sample_submission" in report.text
    assert report.headers["content-security-policy"].startswith("sandbox allow-scripts")
    assert SCRIPT not in report.text and "maieutic-web-" not in report.text
    bad = client.post("/report", files={"results": ("x.json", b"[1, 2]")}, follow_redirects=False)
    failed = finish(client, bad)
    assert failed.status_code == 422 and "x.json" in failed.text and "Traceback" not in failed.text


def test_server_stays_responsive_while_a_job_runs(app):
    release, started = threading.Event(), threading.Event()

    def slow_asker(text, source, step):
        step("thinking very slowly")
        started.set()
        release.wait(timeout=30)
        return fake_result(text, source)

    app.dependency_overrides[get_asker] = lambda: slow_asker
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=5) as http:
        view = http.post("/ask", data={"text": ARGUMENT}).headers["location"]
        assert started.wait(timeout=10)
        job = view.split("/")[2]
        assert http.get("/healthz").json()["jobs_busy"] == 1
        assert http.get("/").status_code == 200
        state = http.get(f"/jobs/{job}").json()
        # the job cannot end before ``release`` is set: an answer saying it is running
        # was given while it ran, not after it (a count of states, not a timing)
        assert state["status"] == "running" and state["step"] == "thinking very slowly"
        assert 'data-poll="/jobs/' in http.get(view).text  # the pending page polls
        release.set()
        while http.get(f"/jobs/{job}").json()["status"] != "done":
            time.sleep(0.05)
        assert http.get(view).text.count('<li class="cq">') == 3


def test_unknown_job_and_foreign_hosts_and_origins_are_refused(app, client):
    assert client.get("/jobs/nope").status_code == 404
    assert "error" in client.get("/jobs/nope").json()
    assert client.get("/jobs/nope/view").status_code == 404
    with TestClient(app, base_url="http://rebound.example") as foreign:
        assert foreign.get("/").status_code == 400
    cross = client.post("/ask", data={"text": "x"}, headers={"origin": "http://evil.example"})
    assert cross.status_code == 403
    fetched = client.post("/ask", data={"text": " "}, headers={"sec-fetch-site": "cross-site"})
    assert fetched.status_code == 403
    same = {"sec-fetch-site": "same-origin", "origin": "null"}  # what a browser may send
    assert client.post("/ask", data={"text": " "}, headers=same).status_code == 400  # the form ran
    assert client.get("/healthz").json()["status"] == "ok"


def test_segments_cut_the_text_at_every_span_boundary():
    focus = [
        {"start": 0, "end": 5},
        {"start": 3, "end": 8},
        {"start": 50, "end": 60},  # beyond the text: not marked
        {"start": None, "end": None},
    ]
    parts = segments("abcdefghij", focus)
    assert [(s.text, s.spans) for s in parts] == [
        ("abc", (0,)),
        ("de", (0, 1)),
        ("fgh", (1,)),
        ("ij", ()),
    ]
    assert "hl-overlap" in parts[1].css and parts[3].css == ""


def test_serve_listens_on_loopback_by_default(cli):
    from maieutic.cli.serve import serve

    host = next(p for p in serve.params if p.name == "host")
    assert host.default == DEFAULT_HOST == "127.0.0.1"
    assert build_config(object()).host == "127.0.0.1"
    assert host_warning("127.0.0.1") is None and host_warning("localhost") is None
    assert host_warning("::1") is None and host_warning("0.0.0.0") is not None
    result = cli("serve", "--help")
    assert result.code == 0 and "127.0.0.1" in result.out and "--max-upload-mb" in result.out


def test_building_the_server_config_closes_no_other_library_s_stream():
    # absl (loaded by rouge-score) closes its handler's stream when the handler is
    # closed, unless that stream is the current sys.stderr; uvicorn's default logging
    # setup closes every handler in the process, so a stream swapped since was lost
    # (in a test runner: its captured output, and every later test with it)
    from absl.logging import PythonHandler

    stream = io.StringIO()
    handler = PythonHandler(stream)
    try:
        build_config(object())
        build_config(object())
        assert not stream.closed
    finally:
        handler.close()


def test_uvicorn_warnings_still_reach_stderr_in_its_own_format(capsys):
    import logging

    build_config(object())
    build_config(object())  # one handler, however many servers were configured
    logging.getLogger("uvicorn.error").warning("Invalid HTTP request received.")
    logging.getLogger("uvicorn.error").info("below the level: not shown")
    assert capsys.readouterr().err == "WARNING:  Invalid HTTP request received.\n"


@pytest.fixture
def started(monkeypatch):
    """Runs of ``maieutic serve`` recorded instead of served (the socket is still bound)."""
    calls = []

    def fake_serve(self, sockets=None):
        calls.append((self.config, sockets[0].getsockname()[1]))

    monkeypatch.setattr("uvicorn.Server.run", fake_serve)
    return calls


def test_a_non_loopback_host_is_warned_about(cli, started, monkeypatch):
    built = []
    monkeypatch.setattr("maieutic.web.app.create_app", lambda s: built.append(s) or object())
    result = cli("serve", "--host", "0.0.0.0", "--port", "0")
    assert result.code == 0, result.err
    assert "warning: --host 0.0.0.0 is not a loopback address" in result.err
    assert built[-1].allowed_hosts == ()
    result = cli("serve", "--port", "0", "--max-upload-mb", "2")
    assert "warning" not in result.err
    assert built[-1].allowed_hosts == () and built[-1].max_upload_bytes == 2_000_000


def test_port_zero_picks_a_free_port_and_prints_the_url(cli, started):
    result = cli("serve", "--port", "0")
    assert result.code == 0, result.err
    config, port = started[-1]
    assert port > 0 and config.host == "127.0.0.1"
    assert f"http://127.0.0.1:{port}/" in result.out


def test_templates_never_mark_user_content_safe():
    package = Path(__file__).resolve().parents[1] / "src" / "maieutic"
    templates = [*(package / "web" / "templates").glob("*.html")]
    templates += (package / "ask" / "templates").glob("*.html")  # the Ask page's parts
    assert len(templates) > 6
    for template in templates:
        assert "|safe" not in template.read_text().replace(" ", ""), template.name


def test_serve_refuses_a_model_it_cannot_have_before_it_starts(cli):
    result = cli("serve", "--llm", "gpt-4o", "--port", "0")
    assert result.code == 2 and "without --base-url" in result.err
    assert result.err.count("\n") == 1 and "serving" not in result.err
