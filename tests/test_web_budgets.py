"""The web app's budgets: a job stops at its next step once past its time budget (and
the page says so), and PDF uploads are read by at most ``MAX_READING`` processes at
once (one more is refused at once)."""

from __future__ import annotations

import multiprocessing
import threading
import time

import numpy as np
import pytest
from fastapi.testclient import TestClient

from maieutic.deadline import PastDeadline, check, deadline
from maieutic.embed.encoder import Encoder
from maieutic.progress import progress
from maieutic.web import Settings, create_app
from maieutic.web.app import get_asker
from maieutic.web.jobs import DONE, FAILED, JobRunner
from tests.test_pdf_bounds import slow_read
from tests.test_web import ARGUMENT, fake_asker, finish

BASE = "http://127.0.0.1"


def _until(condition, what: str) -> None:
    for _ in range(400):
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"never: {what}")


class Clock:
    """A clock that moves only when told to (no test waits on the real one)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    from maieutic import deadline as module

    fake = Clock()
    monkeypatch.setattr(module, "_clock", fake)
    return fake


def test_a_deadline_binds_only_its_block_and_stops_at_a_step(clock):
    check()  # no deadline: never raises
    with deadline(5):
        clock.now += 4.9
        check()
        clock.now += 0.2
        with pytest.raises(PastDeadline, match=r"time budget of 5 s"):
            check()
    check()  # the block is over: so is its deadline
    with deadline(None):
        clock.now += 1e6
        check()


def test_a_deadline_is_its_threads_own(clock):
    seen: list[str] = []
    with deadline(1):
        clock.now += 2
        other = threading.Thread(target=lambda: (check(), seen.append("free")))
        other.start()
        other.join()
        with pytest.raises(PastDeadline):
            check()
    assert seen == ["free"]


def test_progress_steps_and_their_updates_check_the_deadline(clock):
    with deadline(5):
        with progress("a step", 3) as update:
            update(1, 3)
            clock.now += 6
            with pytest.raises(PastDeadline):
                update(2, 3)
        with pytest.raises(PastDeadline), progress("a later step"):
            pytest.fail("a step past the deadline never starts")


def test_the_encoder_stops_between_pieces_once_past_the_deadline(monkeypatch, clock):
    encoder = Encoder()
    pieces: list[int] = []

    def encode_piece(texts):
        pieces.append(len(texts))
        clock.now += 1  # each piece takes a second
        return np.ones((len(texts), 4), dtype=np.float32)

    monkeypatch.setattr(encoder, "encode_piece", encode_piece)
    texts = ["a text"] * (encoder.piece * 40)
    with deadline(5.5), pytest.raises(PastDeadline):
        encoder.encode(texts)
    assert len(pieces) == 6  # the update after the sixth piece found the budget spent


def test_a_job_past_its_budget_stops_at_its_next_step_and_frees_the_worker():
    runner = JobRunner(seconds=0.2)
    steps: list[int] = []

    def endless(step):
        for n in range(10_000):
            step(f"step {n}")
            steps.append(n)
            time.sleep(0.01)
        return "never"

    stopped = runner.submit("ask", endless)
    after = runner.submit("ask", lambda step: "done")
    _until(lambda: after.over, "the job after the stopped one ran")
    assert stopped.status == FAILED and stopped.timed_out and stopped.failure_status == 503
    assert stopped.error == (
        "the job ran past its time budget of 0.2 s and was stopped (the server's "
        "--job-seconds sets the budget)"
    )
    assert len(steps) < 10_000
    assert after.status == DONE and after.result == "done"
    runner.shutdown()


def test_a_job_out_of_time_shows_a_page_saying_so():
    def slow_asker(text, source, step):
        step("first")
        time.sleep(0.3)
        step("second")  # past the budget: stops here
        pytest.fail("the job went on past its budget")

    app = create_app(Settings(job_seconds=0.1))
    app.dependency_overrides[get_asker] = lambda: slow_asker
    with TestClient(app, base_url=BASE) as client:
        page = finish(client, client.post("/ask", data={"text": ARGUMENT}, follow_redirects=False))
        assert page.status_code == 503
        assert "the job ran past its time budget of 0.1 s and was stopped" in page.text
        # the next job runs as usual
        app.dependency_overrides[get_asker] = lambda: fake_asker
        done = finish(client, client.post("/ask", data={"text": ARGUMENT}, follow_redirects=False))
        assert done.status_code == 200


def test_the_default_budget_lets_a_real_ask_finish():
    with TestClient(create_app(), base_url=BASE) as client:
        page = finish(client, client.post("/ask", data={"text": ARGUMENT}, follow_redirects=False))
        assert page.status_code == 200 and '<li class="cq">' in page.text


def test_a_pdf_upload_past_the_readers_in_use_is_refused_at_once(monkeypatch):
    from maieutic.web import upload_reader

    monkeypatch.setattr(upload_reader, "_reader", slow_read)
    monkeypatch.setattr(upload_reader, "READ_SECONDS", 5)
    with TestClient(create_app(), base_url=BASE) as web:
        answers: list = []

        def post(name: str) -> None:
            answers.append(web.post("/ask", files={"file": (name, b"%PDF")}))

        reading = [threading.Thread(target=post, args=(f"slow{n}.pdf",)) for n in range(2)]
        for thread in reading:
            thread.start()
        _until(lambda: web.get("/healthz").json()["uploads_reading"] == 2, "two reads at once")
        third = web.post("/ask", files={"file": ("third.pdf", b"%PDF")})
        assert web.get("/healthz").json()["uploads_reading"] == 2  # refused while both ran
        assert third.status_code == 503
        assert "2 PDF uploads are being read already (at most 2 at once)" in third.text
        for thread in reading:
            thread.join()
        assert [a.status_code for a in answers] == [400, 400]  # each stopped by its budget
        assert web.get("/healthz").json()["uploads_reading"] == 0
    assert multiprocessing.active_children() == []


def test_serve_hands_its_job_budget_to_the_runner(monkeypatch):
    from maieutic.cli.main import run
    from maieutic.web import server

    served: list = []
    monkeypatch.setattr(server, "run", lambda app, *args, **kwargs: served.append(app))
    assert run(["serve", "--port", "0", "--job-seconds", "5"]) == 0
    assert served[0].state.runner.seconds == 5.0
    assert run(["serve", "--port", "0"]) == 0
    assert served[1].state.runner.seconds == 600.0
    assert run(["serve", "--job-seconds", "0.5"]) == 2  # under a second: refused


def test_serve_refuses_a_limit_set_wrong_at_its_start(tmp_path):
    import os
    import subprocess
    import sys

    for variable in (
        "MAIEUTIC_MAX_INPUT_BYTES",
        "MAIEUTIC_ASK_MAX_CHARS",
        "MAIEUTIC_WEB_READ_SECONDS",
    ):
        env = {**os.environ, variable: "lots"}
        done = subprocess.run(
            [sys.executable, "-m", "maieutic", "serve", "--port", "0"],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2 and done.stderr.startswith(f"maieutic: error: {variable}=")
        assert len(done.stderr.splitlines()) == 1
