"""A pytest plugin (loaded by ``conftest.py``): under CI (``MAIEUTIC_CI=1``, set by
``.ci/run``) a skipped test is a failed test, unless the skip is a fact of the machine
no CI can change (``MAY_SKIP_IN_CI``). CI has the shared data, Ray, llama.cpp and
Chromium, so a test that skips there for want of one hides a failure. On a user's
machine skips stay skips."""

from __future__ import annotations

import os

import pytest

MAY_SKIP_IN_CI = (
    "root may write into a read-only folder",  # CI runs as root
    "needs /dev/full",
)


def ci_verdict(reason: str) -> str | None:
    """Why a skip with ``reason`` fails under CI (None: it may skip)."""
    if any(allowed in reason for allowed in MAY_SKIP_IN_CI):
        return None
    return (
        f"skipped under CI ({reason}): CI has the shared data, Ray, llama.cpp and "
        "Chromium, so this skip would hide a failure"
    )


def _reason(report) -> str:
    longrepr = report.longrepr
    reason = str(longrepr[2]) if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def _fail_if_skipped(report) -> None:
    if not os.environ.get("MAIEUTIC_CI") or not report.skipped or hasattr(report, "wasxfail"):
        return
    if why := ci_verdict(_reason(report)):
        report.outcome = "failed"
        report.longrepr = why


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_if_skipped(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _fail_if_skipped(outcome.get_result())
