"""Every page at a desktop width (1280 px) and a phone width (390 px) in a real browser:
the web app's pages (Ask, a result, a running job, Leaderboard, Report, the error page)
and the standalone report of each task. No page scrolls sideways, no table cell is
cut off outside a box that scrolls, no table needs sideways scrolling on a desktop,
a signature wraps only between its fields, and the web Report page's frame takes the
width and grows to the whole report. Each page is saved as a PNG screenshot (in the
test's tmp_path, and in $MAIEUTIC_SCREENSHOTS when set) and checked to be one.
Chromium and playwright as in test_web_browser.py (skips without them); the markup
the layout rests on, and the Leaderboard's warnings naming their file, are checked
without a browser too."""

from __future__ import annotations

import json
import os
import re
import struct
import threading
import time
from pathlib import Path

import httpx
import pytest

from maieutic.cli.main import run
from maieutic.samples import sample_path
from maieutic.web import create_app
from maieutic.web.app import get_asker
from maieutic.web.server import BackgroundServer
from tests.conftest import SHARED_DATA
from tests.test_report import FOCUS_GOLD, FOCUS_PRED, _compqa_result, _jsonl
from tests.test_web import fake_result, finish
from tests.test_web_browser import ARGUMENT, not_blank

WIDTHS = (1280, 390)
DESKTOP = 1280
HOLD = "Hold this job. "
"""An Ask text starting so stays a running job until the module's tests are done."""
SIGNATURES = {
    "cqs": "task:cqs|eval:sts|model:stsb-mpnet-base-v2|thr:0.6|data:59c6a7579127|refs:28|v:0.1.0",
    "aura": "task:aura|eval:aura|model:all-MiniLM-L6-v2|backend:torch|thr:0.5|data:ddf04d2dbf15"
    "|refs:15|v:0.1.0|entropy:paper|link:0.85|retriever:all-MiniLM-L6-v2|rule:gt|top_k:5",
}
LAYOUT_JS = r"""({ desktop }) => {
  const problems = [], view = window.innerWidth, root = document.documentElement;
  const where = (el) => `"${el.textContent.trim().replace(/\s+/g, " ").slice(0, 50)}"`;
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  if (root.scrollWidth > view + 1) {
    problems.push(`${location.pathname}: the page is ${root.scrollWidth} px wide in ${view} px`);
  }
  const scroller = (el) => {  // the nearest box that clips or scrolls sideways
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") return box;
    }
    return null;
  };
  for (const cell of document.querySelectorAll("td, th")) {
    const r = cell.getBoundingClientRect(), box = scroller(cell);
    if (!r.width && !r.height) continue;
    if (!box) {
      if (r.right > view + 1 || r.left < -1) problems.push(`cell ${where(cell)} off the page`);
      continue;
    }
    const b = box.getBoundingClientRect(), how = getComputedStyle(box).overflowX;
    if ((how === "hidden" || how === "clip") && r.right > b.right + 1) {
      problems.push(`cell ${where(cell)} cut off by a box that does not scroll`);
    } else if (b.right > view + 1) {
      problems.push(`cell ${where(cell)} in a scrolling box that reaches off the page`);
    }
  }
  let tables = 0;
  for (const table of document.querySelectorAll("table")) {
    if (!table.getBoundingClientRect().width) continue;
    tables += 1;
    const box = scroller(table);
    if (desktop && box && box.scrollWidth > box.clientWidth + 1) {
      problems.push(`table ${where(table.rows[0])}: ${box.scrollWidth} px in a ` +
                    `${box.clientWidth} px box, columns cut off on a desktop`);
    }
  }
  let signatures = 0;
  for (const sig of document.querySelectorAll("code.sig, code.signature")) {
    const text = sig.textContent;
    if (!text.includes("|") || !sig.getBoundingClientRect().width) continue;
    signatures += 1;
    const nodes = [], walker = document.createTreeWalker(sig, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(), at = 0; n; at += n.data.length, n = walker.nextNode()) {
      nodes.push([n, at]);
    }
    const point = (i, inside) => {  // the text node and offset of character i
      const [n, at] = nodes.findLast(([, a]) => inside(a, i));
      return [n, i - at];
    };
    let start = 0;
    for (const field of text.split("|")) {
      if (field) {
        const range = document.createRange();
        range.setStart(...point(start, (a, i) => a <= i));
        range.setEnd(...point(start + field.length, (a, i) => a < i));
        const tops = [...range.getClientRects()].filter((r) => r.width).map((r) => r.top);
        if (Math.max(...tops) - Math.min(...tops) > 4) {
          problems.push(`signature field "${field}" broken across lines`);
        }
      }
      start += field.length + 1;
    }
  }
  return { problems, tables, signatures };
}"""


def ask_result(text: str, source: str) -> dict:
    """An Ask result with everything the page can show: a document's question table
    (with a long unbroken link) and the real shape of long signatures."""
    result = fake_result(text, source)
    link = "https://example.org/a/very/long/path/that/never/breaks/anywhere/at/all"
    question = {"question": f"What does {link} say?", "answerable": True, "score": 0.8}
    result["aura"] = {
        "origin": "paragraph templates",
        "score": 0.61,
        "scores": {"answerability": 0.9, "coverage": 0.5, "non_redundancy": 0.7, "entropy": 0.3},
        "questions": [{**question, "span": "Everyone agrees on it. " * 6}] * 3,
    }
    result["signatures"] = dict(SIGNATURES)
    return result


def held_asker(gate: threading.Event):
    def asker(text: str, source: str, step) -> dict:
        step("pretending")
        if text.startswith(HOLD):
            gate.wait(300)
        return ask_result(text, source)

    return asker


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, Path]:
    """Results files of every task, made as the report tests make them: the command
    line on the bundled samples (chrF, FOCUS without embeddings), a judge-scored CompQA
    result, and AURA on the shared sample when it is there."""
    folder = tmp_path_factory.mktemp("layout-results")
    gold = _jsonl(folder / "gold.jsonl", FOCUS_GOLD)
    predictions = _jsonl(folder / "pred.jsonl", FOCUS_PRED)
    data = sample_path("cqs/sample_dataset.json")
    submission = sample_path("cqs/sample_submission.json")
    commands = {
        "cqs": ["evaluate", "cqs", "--data", data, submission, "--evaluator", "chrf"],
        "focus": ["evaluate", "focus", "--gold", gold, predictions, "--no-span-embedding"],
    }
    aura_input = SHARED_DATA / "aura" / "sample_input.json"
    if aura_input.exists():
        commands["aura"] = ["evaluate", "aura", aura_input]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAIEUTIC_HOME", str(folder / "home"))
        for name, argv in commands.items():
            assert run([str(a) for a in [*argv, "--out", folder / f"{name}.json"]]) == 0, name
    ones = {c: 1 for c in range(1, 16)}
    judged = [ones, {**ones, 9: 2, 10: 2}, dict.fromkeys(range(1, 16), 0)]
    compqa = {"format": "maieutic.results/2", "task": "compqa", "provenance": {}}
    compqa["results"] = [_compqa_result(judged)]
    (folder / "compqa.json").write_text(json.dumps(compqa), encoding="utf-8")
    return {p.stem: p for p in folder.glob("*.json")}


@pytest.fixture(scope="module")
def reports(results, tmp_path_factory) -> dict[str, Path]:
    """The standalone report of each task's results, as ``maieutic report`` writes it."""
    folder = tmp_path_factory.mktemp("layout-reports")
    for task, path in results.items():
        assert run(["report", str(path), "--out", str(folder / f"{task}.html")]) == 0
    return {p.stem: p for p in folder.glob("*.html")}


def _finished(client: httpx.Client, response: httpx.Response) -> str:
    """The view of a submitted job once it is over."""
    assert response.status_code == 303, response.text[:300]
    view = response.headers["location"]
    deadline = time.monotonic() + 120
    while client.get(f"/jobs/{view.split('/')[2]}").json()["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, f"{view} did not finish"
        time.sleep(0.05)
    return view


def _duplicate_reference(folder: Path) -> Path:
    """The bundled dataset with one reference question repeated (a dataset warning)."""
    dataset = json.loads(sample_path("cqs/sample_dataset.json").read_text(encoding="utf-8"))
    first = next(iter(dataset.values()))
    first["cqs"].append(dict(first["cqs"][0]))
    path = folder / "repeated_reference.json"
    path.write_text(json.dumps(dataset), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def site(results, tmp_path_factory):
    """The web app with a finished job of each page and one job still running."""
    gate = threading.Event()
    app = create_app()
    app.dependency_overrides[get_asker] = lambda: held_asker(gate)
    dataset = _duplicate_reference(tmp_path_factory.mktemp("layout-data"))
    submission = sample_path("cqs/sample_submission.json")
    board = [("dataset", (dataset.name, dataset.read_bytes()))] + [
        ("submissions", (name, submission.read_bytes())) for name in ("first.json", "second.json")
    ]
    uploads = [("results", (p.name, p.read_bytes())) for p in results.values()]
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        urls = {"ask": "/", "leaderboard": "/leaderboard", "report": "/report"}
        urls["error"] = "/jobs/no-such-job/view"
        urls["ask-result"] = _finished(client, client.post("/ask", data={"text": ARGUMENT}))
        posted = client.post("/leaderboard", files=board, data={"evaluator": "chrf"})
        urls["leaderboard-result"] = _finished(client, posted)
        urls["report-result"] = _finished(client, client.post("/report", files=uploads))
        held = client.post("/ask", data={"text": HOLD + ARGUMENT})
        urls["job"] = held.headers["location"]
        try:
            yield server.url, urls
        finally:
            gate.set()


@pytest.fixture
def open_page(browser):
    """A page opener at a given width; every context is closed after the test."""
    contexts = []

    def opener(width: int, base_url: str | None = None):
        context = browser.new_context(viewport={"width": width, "height": 900}, base_url=base_url)
        contexts.append(context)
        return context.new_page()

    yield opener
    for context in contexts:
        context.close()


def layout(frame, desktop: bool) -> dict:
    """What the layout probe finds in one document (all its details opened first)."""
    return frame.evaluate(LAYOUT_JS, {"desktop": desktop})


def check_layout(page, width: int) -> list[dict]:
    """Every document of the page (the page and its frames) has no layout problem."""
    found = [layout(frame, width >= DESKTOP) for frame in page.frames]
    problems = [p for f in found for p in f["problems"]]
    assert not problems, f"at {width} px:\n" + "\n".join(problems[:20])
    return found


def png_width(png: bytes) -> int:
    """The width a PNG declares in its header."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", "not a PNG"
    return struct.unpack(">I", png[16:20])[0]


MAX_SHOT_HEIGHT = 12_000
"""The tallest picture taken, in CSS pixels (Chromium refuses much taller ones)."""


def screenshot(page, name: str, width: int, folder: Path) -> None:
    """A screenshot of the whole page, saved and checked to be a non-blank PNG."""
    if page.locator("iframe").count():
        # a frame paints only inside the viewport: make the viewport the page's height
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": width, "height": min(height, MAX_SHOT_HEIGHT)})
        page.wait_for_timeout(300)
        png = page.screenshot()
    else:
        # Chromium cannot capture a surface taller than its texture limit (a long report
        # at 390 px passes it): the picture stops there; the layout checks above read
        # the whole page
        height = page.evaluate("document.documentElement.scrollHeight")
        clip = {"x": 0, "y": 0, "width": width, "height": min(height, MAX_SHOT_HEIGHT)}
        png = page.screenshot(full_page=True, clip=clip)
    assert png_width(png) == width and not_blank(png), name
    file = f"{name}-{width}.png"
    (folder / file).write_bytes(png)
    if target := os.environ.get("MAIEUTIC_SCREENSHOTS"):
        Path(target).mkdir(parents=True, exist_ok=True)
        (Path(target) / file).write_bytes(png)


WEB_PAGES = (
    "ask", "ask-result", "job", "leaderboard", "leaderboard-result", "report",
    "report-result", "error",
)  # fmt: skip
WITH_SIGNATURES = {"ask-result", "leaderboard-result", "report-result"}


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", WEB_PAGES)
def test_every_web_page_fits_its_width(site, open_page, name, width, tmp_path):
    base_url, urls = site
    page = open_page(width, base_url)
    page.goto(urls[name])
    page.wait_for_load_state("load")
    if name == "report-result":
        page.frame_locator("iframe.report").locator("footer").wait_for(timeout=30_000)
    if name == "job":
        assert page.locator("#job").is_visible()  # still running: the pending page
    found = check_layout(page, width)
    if name in WITH_SIGNATURES:
        assert sum(f["signatures"] for f in found) >= 2, "no signature was checked"
    screenshot(page, name, width, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("task", ["cqs", "focus", "aura", "compqa"])
def test_every_task_report_fits_its_width(reports, open_page, task, width, tmp_path):
    if task not in reports:
        pytest.skip(f"shared data not found under {SHARED_DATA} (clone ../shared beside the repo)")
    page = open_page(width)
    page.goto(reports[task].as_uri())
    [found] = check_layout(page, width)
    assert found["tables"] >= 3 and found["signatures"] >= 1
    screenshot(page, f"report-{task}", width, tmp_path)


def frame_fit(page) -> tuple[float, float, dict]:
    """The frame's width and height on the page, and the report's size inside it."""
    box = page.locator("iframe.report").bounding_box()
    [frame] = [f for f in page.frames if f.url.endswith("/report.html")]
    inner = frame.evaluate(
        "() => ({height: Math.ceil(document.documentElement.getBoundingClientRect().height),"
        " scrollHeight: document.documentElement.scrollHeight, innerHeight: window.innerHeight})"
    )
    return box["width"], box["height"], inner


def wait_for_fit(page) -> tuple[float, dict]:
    """The frame's width once its height has followed the report's (a few seconds)."""
    deadline = time.monotonic() + 10
    while True:
        width, height, inner = frame_fit(page)
        if abs(height - inner["height"]) <= 4 or time.monotonic() > deadline:
            return width, inner
        page.wait_for_timeout(100)


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
def test_the_report_frame_takes_the_width_and_grows_to_the_report(site, open_page, width):
    base_url, urls = site
    page = open_page(width, base_url)
    page.goto(urls["report-result"])
    page.frame_locator("iframe.report").locator("footer").wait_for(timeout=30_000)
    frame_width, inner = wait_for_fit(page)
    assert frame_width >= min(width - 80, 1180), f"a {frame_width:.0f} px frame at {width} px"
    # the whole report shows: the frame does not scroll inside the page
    assert inner["scrollHeight"] <= inner["innerHeight"] + 2, inner
    closed = inner["height"]
    [frame] = [f for f in page.frames if f.url.endswith("/report.html")]
    frame.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    _, inner = wait_for_fit(page)
    assert inner["height"] > closed and inner["scrollHeight"] <= inner["innerHeight"] + 2


def test_the_leaderboards_dataset_warnings_name_the_file(tmp_path):
    from fastapi.testclient import TestClient

    dataset = _duplicate_reference(tmp_path)
    files = [
        ("dataset", (dataset.name, dataset.read_bytes())),
        ("submissions", ("s.json", sample_path("cqs/sample_submission.json").read_bytes())),
    ]
    with TestClient(create_app(), base_url="http://127.0.0.1", follow_redirects=False) as client:
        posted = client.post("/leaderboard", files=files, data={"evaluator": "chrf"})
        page = finish(client, posted).text
    warnings = re.findall(r'<p class="warning">Warning: ([^<]*)</p>', page)
    assert warnings and all(w.startswith(f"{dataset.name}: ") for w in warnings), warnings
    assert any("duplicate reference id" in w for w in warnings)


def test_signatures_and_field_names_are_drawn_to_wrap_only_where_meant():
    from maieutic.report.html.tables import Header, code
    from maieutic.web.pages import signature_html

    fields = ("<span>task:x|</span><wbr><span>model:all-MiniLM-L6-v2|</span><wbr>"
              "<span>v:&lt;1&gt;</span>")  # fmt: skip
    assert str(signature_html("task:x|model:all-MiniLM-L6-v2|v:<1>")) == fields
    cell = code("task:x|model:all-MiniLM-L6-v2|v:<1>")
    assert cell.cls == "signature" and str(cell.content) == f'<code class="sig">{fields}</code>'
    assert str(Header("not_able_to_evaluate").markup) == "not_<wbr>able_<wbr>to_<wbr>evaluate"
    assert str(Header("a<b").markup) == "a&lt;b"
