"""End to end on the real development data (skipped when ../shared/data is absent)."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from tests.conftest import write_json

# the released data's vectors are encoded once per worker (conftest.shared_home)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("shared_home"),
    pytest.mark.xdist_group("cqs-released"),
]


def _build(dev: dict, label: str) -> dict:
    """Three references of ``label`` per intervention, avoiding texts that other
    references of the same intervention repeat under another label."""
    out = {}
    for key, item in dev.items():
        labels_of = defaultdict(set)
        for q in item["cqs"]:
            labels_of[q["cq"]].add(q["label"])
        picked = [
            q["cq"] for q in item["cqs"] if q["label"] == label and labels_of[q["cq"]] == {label}
        ]
        if len(picked) >= 3:
            out[key] = {
                "intervention_id": key,
                "cqs": [{"id": i, "cq": t} for i, t in enumerate(picked[:3])],
            }
    return out


def test_useful_references_score_one_and_invalid_score_zero(cli, cqs_dev, tmp_path):
    dev = json.loads(cqs_dev.read_text())
    useful = write_json(tmp_path / "useful.json", _build(dev, "Useful"))
    invalid = write_json(tmp_path / "invalid.json", _build(dev, "Invalid"))
    out = tmp_path / "results.json"
    result = cli("evaluate", "cqs", "--data", cqs_dev, useful, invalid, "--out", out)
    assert result.code == 0, result.err
    assert "cqs leaderboard" in result.out
    runs = {r["submission"]: r for r in json.loads(out.read_text())["results"]}
    assert runs["useful"]["summary"]["overall"] == pytest.approx(1.0)
    assert runs["useful"]["summary"]["n_interventions"] > 100
    assert runs["invalid"]["summary"]["overall"] == 0.0
    assert (
        runs["invalid"]["summary"]["labels"]["Invalid"]
        == 3 * runs["invalid"]["summary"]["n_interventions"]
    )
    assert runs["useful"]["signature"]["n_references"] == 3022


def test_chrf_on_dev_matches_identical_text(cli, cqs_dev, tmp_path):
    dev = json.loads(cqs_dev.read_text())
    first = dict(list(_build(dev, "Useful").items())[:5])
    sub = write_json(tmp_path / "five.json", first)
    out = tmp_path / "r.json"
    result = cli(
        "evaluate",
        "cqs",
        "--evaluator",
        "chrf",
        "--data",
        cqs_dev,
        sub,
        "--skip-unknown",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    run = json.loads(out.read_text())["results"][0]
    assert run["summary"]["overall"] == pytest.approx(1.0)
    assert run["summary"]["n_not_submitted"] == 127
