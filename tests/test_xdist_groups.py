"""The tests that must share a pytest-xdist worker (``XDIST_GROUPS`` in conftest, and
``xdist_group`` marks) are marked, and xdist does keep each group together.

pytest-xdist puts a group on one worker by adding ``@GROUP`` to each test's node id; a
pytest that no longer reads the renamed id (9.2 with xdist 3.8) silently spreads the
group over the workers, and the probe matrices then run once per worker."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO, XDIST_GROUPS


def _group(item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    return None if mark is None else str(mark.args[0] if mark.args else mark.kwargs["name"])


def test_every_test_of_a_grouped_file_carries_its_group(request):
    items = request.session.items
    checked = 0
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(REPO).as_posix()
        wanted = next((g for prefix, g in XDIST_GROUPS.items() if where.startswith(prefix)), None)
        if wanted is not None and _group(item) in (wanted, None):
            assert _group(item) == wanted, item.nodeid
            checked += 1
    # the table names files that exist (a renamed file would leave its tests ungrouped)
    for prefix in XDIST_GROUPS:
        assert (REPO / prefix).exists(), prefix
    assert checked or len(items) < 50  # run alone, this file holds no grouped test


def test_xdist_keeps_a_group_on_one_worker(request):
    if not getattr(request.config.option, "loadgroup", False):
        return  # not on xdist workers with --dist loadgroup: nothing to schedule
    for item in request.session.items:
        group = _group(item)
        if group is not None:
            assert item.nodeid.endswith(f"@{group}"), (
                f"{item.nodeid}: pytest-xdist did not tag it with its group; this pytest "
                "may not read the node id xdist renames (see the pin in pyproject.toml)"
            )
