"""The generator × scenario table against the paper's Table 5 (GPT-4o column, which
the released ``judged/gpt-4`` files reproduce) and a hand-worked case."""

from __future__ import annotations

import json

import pytest

from maieutic.tasks.compqa.data import Answer, check_scores
from maieutic.tasks.compqa.leaderboard import leaderboard
from tests.conftest import SHARED_DATA


def _answer(generator, scenario, value):
    scores = {str(i): value for i in range(1, 16)}
    return Answer(
        object1="a",
        object2="b",
        aspect="",
        comparison="text",
        generator=generator,
        scenario=scenario,
        check=check_scores(scores),
    )


def test_hand_worked_cell():
    broken = Answer(
        object1="a",
        object2="b",
        aspect="",
        comparison="t",
        generator="g",
        scenario="1",
        check=check_scores({"15": 1}),
    )
    [cell] = leaderboard([_answer("g", "1", 1), _answer("g", "1", 0), broken])
    assert (cell.n, cell.n_incomplete) == (3, 1)
    # totals 15 and 0: mean 7.5, sample std sqrt(((7.5)^2 * 2) / 1)
    assert cell.total == pytest.approx((7.5, 10.606601717798213))
    # relevance is criteria 8-10: 1 + 1 + 1 = 3 and 0, mean 1.5
    assert cell.groups["relevance"][0] == pytest.approx(1.5)


@pytest.mark.parametrize(
    ("generator", "scenario", "mean", "std"),
    [  # Table 5, GPT-4o column
        ("gpt3-5", "1", 16.95, 1.44),
        ("gpt3-5", "2", 14.10, 3.15),
        ("gpt4", "1", 17.59, 1.00),
        ("gpt4", "3", 18.23, 0.95),
        ("llama3-8b", "2", 14.10, 3.36),
        ("cam", "cam", 9.52, 3.81),
        ("yahoo", "yahoo", 9.32, 3.95),
    ],
)
def test_the_paper_table_5_gpt4o_column(cli, tmp_path, generator, scenario, mean, std):
    judged = SHARED_DATA / "compqa" / "judged" / "gpt-4"
    if not judged.exists():
        pytest.skip(f"shared data not found at {judged}")
    out = tmp_path / "t.json"
    assert cli("compqa", "table", "--judged", judged, "--out", out).code == 0
    cells = {(c["generator"], c["scenario"]): c for c in json.loads(out.read_text())["cells"]}
    got_mean, got_std = cells[(generator, scenario)]["total"]
    assert (round(got_mean, 2), round(got_std, 2)) == (mean, std)
