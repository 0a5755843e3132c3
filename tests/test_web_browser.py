"""maieutic serve in a real browser: the app on a loopback port (uvicorn on a thread),
driven by playwright with Debian's Chromium. Nothing is downloaded: without playwright
or /usr/bin/chromium these tests skip.

With MAIEUTIC_SAVE_SCREENSHOTS=1 the screenshots are also saved for the README as
docs/images/app.png and docs/images/app-leaderboard.png.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from maieutic.samples import sample_path
from maieutic.web import create_app
from maieutic.web.server import BackgroundServer

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
DOCS_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
SAVE = os.environ.get("MAIEUTIC_SAVE_SCREENSHOTS") == "1"
ARGUMENT = (
    "We should ban cars downtown because pollution harms children. Every city that did "
    "this saw asthma rates fall, so it will work here too."
)
RESULT_TIMEOUT_MS = 180_000  # the first ask loads the embedding model


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """Debian's Chromium driven by playwright (the test skips without either)."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
    )
    if not Path(CHROMIUM).exists() or not shutil.which("chromium"):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def server():
    with BackgroundServer(create_app()) as running:
        yield running


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.url)
    opened = context.new_page()
    dialogs: list[str] = []
    opened.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    opened.dialogs = dialogs  # type: ignore[attr-defined]
    yield opened
    context.close()


def not_blank(png: bytes) -> bool:
    """Whether a screenshot has more than a handful of colours (a blank page has one)."""
    try:
        from PIL import Image

        with Image.open(io.BytesIO(png)) as image:
            colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
        return colours is None or len(colours) > 20
    except ImportError:
        import matplotlib.image
        import numpy as np

        pixels = matplotlib.image.imread(io.BytesIO(png), format="png")
        return len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 20


def screenshot(page, name: str) -> bytes:
    png = page.screenshot(full_page=False)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and not_blank(png)
    if SAVE:
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        (DOCS_IMAGES / name).write_bytes(png)
    return png


def ask(page, text: str) -> None:
    page.goto("/")
    page.fill("textarea#text", text)
    page.click("button[type=submit]")
    page.wait_for_selector("#result", timeout=RESULT_TIMEOUT_MS)


def test_asking_shows_three_questions_and_the_span_highlighted(page):
    ask(page, ARGUMENT)
    assert page.locator("li.cq").count() == 3
    spans = page.locator("ol.socratic .span-text").all_inner_texts()
    marked = page.locator(".text-view mark.hl").all_inner_texts()
    assert spans and marked and spans[0] in marked
    assert page.locator("mark.hl").first.is_visible()
    page.locator("#result").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "app.png")
    assert page.dialogs == []


def test_a_script_in_the_argument_is_shown_and_never_run(page):
    text = "<script>alert(1)</script> We must act now because experts say so."
    ask(page, text)
    page.wait_for_timeout(300)  # time for anything that would run to run
    assert page.dialogs == []
    assert "<script>alert(1)</script>" in page.locator(".text-view").inner_text()
    assert page.locator("main script").count() == 0


def test_the_leaderboard_of_the_bundled_samples(page):
    page.goto("/leaderboard")
    page.set_input_files("#dataset", str(sample_path("cqs/sample_dataset.json")))
    page.set_input_files("#submissions", str(sample_path("cqs/sample_submission.json")))
    page.click("button[type=submit]")
    page.wait_for_selector("table.leaderboard", timeout=RESULT_TIMEOUT_MS)
    assert page.locator("td.system").all_inner_texts() == ["sample_submission"]
    score = float(page.locator("td.score").first.inner_text())
    assert 0 <= score <= 1
    assert "eval:sts" in page.locator("code.signature").first.inner_text()
    screenshot(page, "app-leaderboard.png")


def test_the_report_of_the_leaderboard_results(page, tmp_path):
    page.goto("/leaderboard")
    page.set_input_files("#dataset", str(sample_path("cqs/sample_dataset.json")))
    page.set_input_files("#submissions", str(sample_path("cqs/sample_submission.json")))
    page.select_option("#evaluator", "chrf")
    page.click("button[type=submit]")
    page.wait_for_selector("table.leaderboard", timeout=RESULT_TIMEOUT_MS)
    with page.expect_download() as download:
        page.click("text=Download the results file")
    results = tmp_path / "results.json"
    download.value.save_as(results)
    page.goto("/report")
    page.set_input_files("#results", str(results))
    page.click("button[type=submit]")
    page.wait_for_selector("iframe.report", timeout=RESULT_TIMEOUT_MS)
    report = page.frame_locator("iframe.report")
    report.locator("text=sample_submission").first.wait_for(timeout=30_000)
    assert page.dialogs == []


def test_a_file_over_the_limit_is_stopped_before_sending(page, tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"a" * 10_500_000)
    page.goto("/")
    page.set_input_files("#file", str(big))
    page.click("button[type=submit]")
    note = page.locator(".size-error")
    note.wait_for(state="visible", timeout=5_000)
    assert "over this server's limit of 10 MB" in note.inner_text()
    assert page.url.endswith("/")  # nothing was sent
