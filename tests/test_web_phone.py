"""maieutic serve and the HTML report on a phone (390 px wide, Chromium): nothing wider
than the screen, no word broken mid-word, chart labels at a legible size, captions and
the evaluator drop-down shown whole. The browser tests' Chromium, as in
test_web_browser.py (they skip without it)."""

from __future__ import annotations

import pytest

from maieutic.samples import sample_path
from tests.test_ask import DOCUMENT
from tests.test_web_browser import RESULT_TIMEOUT_MS, ask

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
LONG_DOCUMENT = "\n\n".join(
    [DOCUMENT]
    + [
        "The inspectors reported that the rivets were replaced erroneously in 1987, and the "
        "council's engineers concluded that the replacements would corrode faster."
    ]
    * 3
)


@pytest.fixture
def phone(browser, server):
    context = browser.new_context(viewport=PHONE, base_url=server.url)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture(scope="module")
def server():
    from maieutic.web import create_app
    from maieutic.web.server import BackgroundServer

    with BackgroundServer(create_app()) as running:
        yield running


def chrf_report(cli, tmp_path):
    """The HTML report of the bundled sample submission scored with chrf (no model)."""
    results, report = tmp_path / "results.json", tmp_path / "report.html"
    data, submission = (
        sample_path("cqs/sample_dataset.json"),
        sample_path("cqs/sample_submission.json"),
    )
    assert cli("evaluate", "cqs", "--data", data, submission, "--evaluator", "chrf",
               "--out", results).code == 0  # fmt: skip
    assert cli("report", results, "--out", report).code == 0
    return report


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_ask_page_fits_and_breaks_no_word(phone):
    ask(phone, LONG_DOCUMENT)
    phone.wait_for_selector("table.doc-questions", timeout=RESULT_TIMEOUT_MS)
    assert page_width(phone) <= PHONE["width"]
    # a cell may wrap between words, never inside one
    wraps = phone.evaluate(
        "[...document.querySelectorAll('table.doc-questions td')]"
        ".map(td => getComputedStyle(td).overflowWrap + ' ' + getComputedStyle(td).wordBreak)"
    )
    assert wraps and all(w == "break-word normal" for w in wraps), set(wraps)


def test_the_evaluator_drop_down_shows_each_choice_whole(phone):
    phone.goto("/leaderboard")
    assert page_width(phone) <= PHONE["width"]
    overflow = phone.evaluate(
        """() => {
          const select = document.querySelector('#evaluator');
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = getComputedStyle(select).font;
          const room = select.clientWidth - 32;  // padding and the arrow
          return [...select.options].filter(o => ctx.measureText(o.text).width > room)
                                    .map(o => o.text);
        }"""
    )
    assert overflow == []


def test_the_report_fits_with_legible_charts_and_whole_captions(phone, tmp_path, cli):
    report = chrf_report(cli, tmp_path)
    phone.goto(report.as_uri())
    assert page_width(phone) <= PHONE["width"]  # charts and tables scroll in their boxes
    smallest = phone.evaluate(
        """() => Math.min(...[...document.querySelectorAll('svg.chart text')].map(t =>
             t.ownerSVGElement.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize)))"""
    )
    assert smallest >= 10, f"chart text drawn at {smallest:.1f} px"
    captions = phone.evaluate(
        "[...document.querySelectorAll('p.caption')].map(p => p.getBoundingClientRect().right)"
    )
    assert captions and max(captions) <= PHONE["width"]


def test_the_intervention_score_chart_has_a_place_for_every_share(cli, tmp_path):
    # the chrf run of the sample scores 0, 1/3 and 2/3: 1 still has its place on the axis
    html = chrf_report(cli, tmp_path).read_text()
    chart = html[html.index("Intervention scores, per system") :]
    chart = chart[: chart.index("</svg>")]
    ticks = [t.split(">")[1].split("<")[0] for t in chart.split('anchor="middle" class="tick"')[1:]]
    assert ticks == ["0", "1/3", "2/3", "1"]
