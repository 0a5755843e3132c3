"""``maieutic evaluate focus`` and ``maieutic focus convert|agreement`` end to end on the
released files: results, signatures, the golden span scores, and every bad input with
its one line and exit code."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest


def _released_jaccard(focus_dir: Path) -> list[tuple[float, float]]:
    with open(focus_dir / "dev_span_scores_released.csv", encoding="utf-8") as handle:
        return [
            (float(r["Jaccard_FSQType1"]), float(r["Jaccard_FSQType2"]))
            for r in csv.DictReader(handle)
        ]


def test_positional_pairing_reproduces_the_released_jaccard_through_the_cli(
    cli, focus_dir, tmp_path
):
    out = tmp_path / "r.json"
    result = cli(
        "evaluate",
        "focus",
        "--gold",
        focus_dir / "dev_gold.csv",
        focus_dir / "dev_span_scores_released.csv",
        "--pairing",
        "positional",
        "--no-span-embedding",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    [record] = json.loads(out.read_text())["results"]
    by_slot = {}
    for item in record["items"]:
        for span in item["spans"]:
            by_slot[(item["id"], span["slot"])] = span["jaccard"]
    released = _released_jaccard(focus_dir)
    assert len(by_slot) == 280
    for row, (j1, j2) in enumerate(released, start=1):
        assert by_slot[(str(row), 1)] == pytest.approx(j1, abs=1e-12)
        assert by_slot[(str(row), 2)] == pytest.approx(j2, abs=1e-12)
    assert record["signature"]["mode"] == "category"
    assert record["signature"]["pairing"] == "positional"
    assert "pairing:positional" in record["signature_string"]
    assert record["signature"]["dataset"].startswith("sha256:")


def test_leaderboard_of_the_released_predictions(cli, focus_dir, tmp_path):
    out = tmp_path / "r.json"
    result = cli(
        "evaluate",
        "focus",
        "--gold",
        focus_dir / "dev_gold.csv",
        "--annotators",
        focus_dir,
        focus_dir / "dev_pred_gpt4.csv",
        focus_dir / "dev_pred_gpt35.csv",
        "--no-span-embedding",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    assert "focus leaderboard" in result.out and "dev_pred_gpt4" in result.out
    results = {r["submission"]: r for r in json.loads(out.read_text())["results"]}
    gpt4 = results["dev_pred_gpt4"]
    assert round(gpt4["score"], 4) == 0.3095
    # the best match over every annotator's span is never below the gold-only score
    assert (
        gpt4["summary"]["spans_all"]["jaccard"]["mean"]
        >= gpt4["summary"]["spans"]["jaccard"]["mean"]
    )
    assert "span-without-type" in {f["code"] for f in gpt4["flags"]}


def test_one_submission_prints_a_per_type_table(cli, focus_dir):
    result = cli(
        "evaluate",
        "focus",
        "--gold",
        focus_dir / "dev_gold.csv",
        focus_dir / "dev_pred_gpt4.csv",
        "--no-span-embedding",
        "--mode",
        "open",
    )
    assert result.code == 0, result.err
    assert "per type" in result.out and "Causality Flipped" in result.out
    # the score is the chosen mode's macro-F1, the other mode's beside it
    assert re.search(r"│ score +│ +0\.1377 │", result.out) and "mode:open" in result.out
    assert re.search(r"│ other-mode macro-F1 +│ +0\.3095 │", result.out)


def test_strict_refuses_flagged_predictions(cli, focus_dir):
    result = cli(
        "evaluate",
        "focus",
        "--gold",
        focus_dir / "dev_gold.csv",
        focus_dir / "dev_pred_gpt4.csv",
        "--no-span-embedding",
        "--strict",
    )
    assert result.code == 2
    assert "a span with no type" in result.err and "--strict" in result.err


def _write(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


GOLD_HEADER = ["Argument", "category", "FSQType1", "FSQType2", "Span_FSQType1", "Span_FSQType2"]
PRED_HEADER = [
    *GOLD_HEADER,
    "Predicted_Type1",
    "Predicted_Type2",
    "Span_PredictedType1",
    "Span_PredictedType2",
]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["Other text.", "clarity", "", "", "", "", "Bias", "", "Other", ""]], "argument differs"),
        (
            [
                ["All cats are grey.", "clarity", "", "", "", "", "Bias", "", "x", ""],
                ["Extra.", "clarity", "", "", "", "", "Bias", "", "Extra", ""],
            ],
            "not in the gold data",
        ),
    ],
)
def test_mismatched_predictions_are_one_line(cli, tmp_path, rows, message):
    gold = _write(
        tmp_path / "g.csv",
        GOLD_HEADER,
        [["All cats are grey.", "clarity", "", "Overgeneralized Statement", "", "All cats"]],
    )
    pred = _write(tmp_path / "p.csv", PRED_HEADER, rows)
    result = cli("evaluate", "focus", "--gold", gold, pred, "--no-span-embedding")
    assert result.code == 2
    assert message in result.err and len(result.err.strip().splitlines()) == 1


def test_unknown_types_and_missing_spans_are_flagged_and_scored(cli, tmp_path):
    gold = _write(
        tmp_path / "g.csv",
        GOLD_HEADER,
        [["All cats are grey.", "clarity", "", "Overgeneralized Statement", "", "All cats"]],
    )
    pred = _write(
        tmp_path / "p.csv",
        PRED_HEADER,
        [
            [
                "All cats are grey.",
                "clarity",
                "",
                "",
                "",
                "",
                "Telepathy",
                "Overgeneralizing statement",
                "x",
                "All dogs bark",
            ]
        ],
    )
    out = tmp_path / "r.json"
    result = cli("evaluate", "focus", "--gold", gold, pred, "--no-span-embedding", "--out", out)
    assert result.code == 0, result.err
    assert "unknown weakness type 'Telepathy'" in result.err
    [record] = json.loads(out.read_text())["results"]
    assert {f["code"] for f in record["flags"]} == {"unknown-type", "span-not-found"}
    assert record["items"][0]["predicted"] == ["OG"]
    assert record["summary"]["classification"]["category"]["without_none"]["micro"]["f1"] == 1.0


def test_annotator_file_that_does_not_join_is_one_line(cli, focus_dir, tmp_path):
    lines = (focus_dir / "dev_annotators_clarity.csv").read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "dev_annotators_clarity.csv"
    bad.write_text("\n".join(lines[:20]) + "\n", encoding="utf-8")
    result = cli(
        "evaluate",
        "focus",
        "--gold",
        focus_dir / "dev_gold.csv",
        "--annotators",
        bad,
        focus_dir / "dev_pred_gpt4.csv",
        "--no-span-embedding",
    )
    assert result.code == 2
    assert "19 rows" in result.err and "'clarity'" in result.err


def test_convert_round_trip_through_the_cli(cli, focus_dir, tmp_path):
    native = tmp_path / "dev.jsonl"
    assert (
        cli("focus", "convert", focus_dir / "dev_gold.csv", native, "--annotators", focus_dir).code
        == 0
    )
    back = tmp_path / "back.csv"
    result = cli("focus", "convert", native, back)
    assert result.code == 0, result.err
    assert (tmp_path / "back_annotators_clarity.csv").exists()
    with back.open(encoding="utf-8") as a, (focus_dir / "dev_gold.csv").open(encoding="utf-8") as b:
        mine, theirs = list(csv.DictReader(a)), list(csv.DictReader(b))
    for column in GOLD_HEADER:
        assert [r[column] for r in mine] == [r[column] for r in theirs]
    preds = tmp_path / "gpt4.jsonl"
    assert (
        cli(
            "focus", "convert", focus_dir / "dev_pred_gpt4.csv", preds, "--role", "predictions"
        ).code
        == 0
    )
    assert (
        cli("focus", "convert", focus_dir / "dev_gold.csv", preds, "--role", "predictions").code
        == 2
    )


def test_agreement_command(cli, focus_dir, tmp_path):
    out = tmp_path / "agreement.json"
    result = cli(
        "meta-eval",
        "focus-humans",
        "--gold",
        focus_dir / "dev_gold.csv",
        "--annotators",
        focus_dir,
        "--no-span-embedding",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    report = json.loads(out.read_text())
    assert set(report["types"]) == {"OSP", "TC", "VAT", "OG", "IE", "BS", "QCE", "CF", "LE", "WE"}
    assert "annotation agreement" in result.out
    assert cli("meta-eval", "focus-humans", "--gold", focus_dir / "dev_gold.csv").code == 2


def test_a_csv_with_a_missing_column_is_one_line(cli, tmp_path):
    gold = _write(tmp_path / "g.csv", GOLD_HEADER[:4], [["A b.", "clarity", "", ""]])
    result = cli("evaluate", "focus", "--gold", gold, gold, "--no-span-embedding")
    assert result.code == 2
    assert "missing column(s) Span_FSQType1, Span_FSQType2" in result.err
    assert len(result.err.strip().splitlines()) == 1
