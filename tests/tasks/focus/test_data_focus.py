"""FOCUS formats: the released CSVs as they are, the annotator join, native JSONL, type
spellings, span snapping, and every malformed shape with its one-line error."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from maieutic.errors import DataError
from maieutic.tasks.focus.annotators import attach_annotators
from maieutic.tasks.focus.data import load_gold, load_predictions
from maieutic.tasks.focus.span_snap import snap_span
from maieutic.tasks.focus.typology import typology
from maieutic.tasks.focus.write import to_jsonl, to_released_csv, write_focus

HEADER = ["Argument", "category", "FSQType1", "FSQType2", "Span_FSQType1", "Span_FSQType2"]
PRED = ["Predicted_Type1", "Predicted_Type2", "Span_PredictedType1", "Span_PredictedType2"]


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


@pytest.mark.parametrize(
    ("spelling", "type_id"),
    [
        ("Vague or Ambiguous Terms for General Public?", "VAT"),
        ("Overgeneralizing statement", "OG"),
        ("Others Stakeholder Perspective", "OSP"),
        ("Lack of Evidence", "LE"),
        ("Implicit Assumption", "IE"),
        ("None of the Above", "NONE"),
        ("Bias and Subjectivity ", "BS"),
        ("Questionable Cause–Effect Relationship", "QCE"),
        ("causality flipped", "CF"),
        ("Overgeneralizd Statement", "OG"),  # a typo
    ],
)
def test_type_spellings_map_to_ids(spelling, type_id):
    assert typology().resolve(spelling) == type_id


@pytest.mark.parametrize("spelling", ["Causality", "Evidence", "banana", "", "   "])
def test_names_of_no_type_do_not_map(spelling):
    assert typology().resolve(spelling) is None


ARGUMENT = "Taxes are theft. Everyone knows the government wastes money, so cut them."


@pytest.mark.parametrize(
    ("span", "expected", "how"),
    [
        ("Taxes are theft", "Taxes are theft", "exact"),
        (
            " Everyone knows the government wastes money.",
            "Everyone knows the government wastes money",
            "trimmed",
        ),
        ("everyone  knows the GOVERNMENT", "Everyone knows the government", "trimmed"),
        (
            "Everyone know the goverment wastes money",
            "Everyone knows the government wastes money",
            "fuzzy",
        ),
        ("Taxes are theft / cut them", "Taxes are theft", "exact"),
    ],
)
def test_spans_snap_to_the_closest_exact_substring(span, expected, how):
    snap = snap_span(ARGUMENT, span=span)
    assert snap is not None
    assert ARGUMENT[snap.start : snap.end] == expected
    assert snap.how == how or (how == "exact" and snap.how == "first-part")


@pytest.mark.parametrize("span", ["", "Null", "Penguins dance on Tuesdays in Peru"])
def test_spans_not_in_the_text_do_not_snap(span):
    assert snap_span(ARGUMENT, span=span) is None


def test_released_gold_loads_as_it_is(focus_dir):
    gold = load_gold(focus_dir / "dev_gold.csv")
    assert len(gold) == 140 and not gold.flags
    by_category = {}
    for item in gold.items.values():
        by_category[item.category] = by_category.get(item.category, 0) + 1
        for label in item.labels:  # each slot holds its category's type
            assert label.type == typology().category_types(item.category)[label.slot - 1]
            assert item.argument[label.start : label.end].strip()
    assert set(by_category.values()) == {28}
    # both cells empty = None of the Above
    assert sum(item.type_set() == {"NONE"} for item in gold.items.values()) > 0


def test_released_predictions_are_flagged_not_refused(focus_dir):
    gpt4 = load_predictions(focus_dir / "dev_pred_gpt4.csv")
    assert len(gpt4) == 140
    codes = [(f.item, f.code) for f in gpt4.flags]
    # three rows of the released file have a span in slot 2 with no type
    assert codes == [
        ("31", "span-without-type"),
        ("134", "span-without-type"),
        ("135", "span-without-type"),
    ]
    gpt35 = load_predictions(focus_dir / "dev_pred_gpt35.csv")
    assert ("114", "none-with-types") in [(f.item, f.code) for f in gpt35.flags]
    assert gpt35.items["114"].type_set() == {"BS", "NONE"}  # as a binarizer counts it


def test_a_gold_file_given_as_predictions_says_so(focus_dir, tmp_path):
    # the released gold file has the Predicted_* columns, all empty
    with pytest.raises(DataError, match=r"every Predicted_\* cell is empty .is this a gold file"):
        load_predictions(focus_dir / "dev_gold.csv")
    only_gold = write_csv(tmp_path / "g.csv", HEADER, [["A b.", "clarity", "", "", "", ""]])
    with pytest.raises(DataError, match=r"missing column.*is this a gold file"):
        load_predictions(only_gold)


def test_annotators_join_by_order_within_category(focus_dir):
    gold = attach_annotators(load_gold(focus_dir / "dev_gold.csv"), [focus_dir])
    first = gold.items["1"]
    assert first.category == "alternate_viewpoints_perspectives"
    assert first.annotators() == ["A1", "A2", "A3"]
    osp = [a for a in first.annotations if a.type == "OSP"]
    assert osp[0].text == "trump's policies (and other things) are extremely at odds with theirs"
    # three spans of the released files are in no argument: flagged, kept
    assert sorted(f.code for f in gold.flags) == ["span-not-found"] * 3


def test_annotator_row_count_mismatch_is_one_clear_error(focus_dir, tmp_path):
    lines = (focus_dir / "dev_annotators_clarity.csv").read_text(encoding="utf-8").splitlines()
    short = tmp_path / "dev_annotators_clarity.csv"
    short.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"27 rows, but .* has 28 arguments of category 'clarity'"):
        attach_annotators(load_gold(focus_dir / "dev_gold.csv"), [short])


def test_annotator_rows_in_another_order_are_refused(focus_dir, tmp_path):
    lines = (
        (focus_dir / "dev_annotators_reasons_evidence.csv").read_text(encoding="utf-8").splitlines()
    )
    shuffled = tmp_path / "dev_annotators_reasons_evidence.csv"
    shuffled.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="do not follow the order"):
        attach_annotators(load_gold(focus_dir / "dev_gold.csv"), [shuffled])


def test_round_trips_keep_everything(focus_dir, tmp_path):
    gold = attach_annotators(load_gold(focus_dir / "dev_gold.csv"), [focus_dir])
    write_focus(gold, tmp_path / "gold.jsonl", predictions=False)
    native = load_gold(tmp_path / "gold.jsonl")
    assert native.fingerprint() == gold.fingerprint()
    assert native.items["7"].labels == gold.items["7"].labels
    written = write_focus(native, tmp_path / "back.csv", predictions=False)
    assert len(written) == 6  # the gold CSV and five per-annotator files
    back = attach_annotators(load_gold(tmp_path / "back.csv"), [tmp_path])
    assert back.fingerprint() == gold.fingerprint()


def test_predictions_round_trip_through_the_released_layout(focus_dir, tmp_path):
    gold = load_gold(focus_dir / "dev_gold.csv")
    gpt4 = load_predictions(focus_dir / "dev_pred_gpt4.csv")
    (tmp_path / "p.csv").write_text(
        to_released_csv(gpt4, predictions=True, gold=gold), encoding="utf-8"
    )
    again = load_predictions(tmp_path / "p.csv")
    assert {k: i.labels for k, i in again.items.items()} == {
        k: i.labels for k, i in gpt4.items.items()
    }
    assert load_gold(tmp_path / "p.csv").fingerprint() == gold.fingerprint()


def test_native_jsonl_labels_and_flags(tmp_path):
    records = [
        {
            "id": "a",
            "argument": ARGUMENT,
            "category": "clarity",
            "labels": [
                {"type": "Overgeneralizing statement", "span": "Everyone knows"},
                {"type": "Vague Terms", "span": "theft", "annotator": "A1"},
            ],
        },
        {
            "id": "b",
            "argument": "One.",
            "labels": [
                {"type": "Lacks Evidence", "span": "One"},
                {"type": "Weak Evidence", "span": "One"},
                {"type": "Bias", "span": "One"},
                {"type": "Telepathy", "span": "One"},
                {"type": "Temporal Contrast", "span": "Two"},
            ],
        },
    ]
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    data = load_predictions(path)
    assert data.items["a"].labels[0].type == "OG"
    assert data.items["a"].annotations[0].annotator == "A1"
    codes = sorted(f.code for f in data.flags)
    assert codes == ["more-than-two-types", "span-not-found", "unknown-type"]
    assert "Telepathy" in next(f.message for f in data.flags if f.code == "unknown-type")
    assert json.loads(to_jsonl(data).splitlines()[0])["labels"][0]["type"] == "OG"


def test_long_and_one_word_arguments_load(tmp_path):
    long_argument = ("Every rule has a cost. " * 2200)[:50_000]
    path = write_csv(
        tmp_path / "g.csv",
        HEADER,
        [
            [
                long_argument,
                "clarity",
                "",
                "Overgeneralized Statement",
                "",
                "Every rule has a cost",
            ],
            ["No.", "clarity", "", "", "", ""],
        ],
    )
    gold = load_gold(path)
    assert gold.items["1"].labels[0].start == 0
    assert gold.items["2"].type_set() == {"NONE"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("Argument,category\nA,clarity\n", "missing column"),
        ('{"a": 1}', "this is JSON"),
        ("", "file is empty"),
        (
            'Argument,category,FSQType1,FSQType2,Span_FSQType1,Span_FSQType2\n"",clarity,,,,\n',
            "empty Argument",
        ),
        (
            "Argument,category,FSQType1,FSQType2,Span_FSQType1,Span_FSQType2\nA,b,c,d,e,f,g,h\n",
            "row 1 has 8 cells",
        ),
    ],
)
def test_malformed_csv_is_one_line(tmp_path, content, message):
    path = tmp_path / "g.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError, match=message):
        load_gold(path)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"id": "a"}, "argument: expected a string"),
        ({"id": "a", "argument": "x", "labels": {}}, "labels: expected an array"),
        ({"id": "a", "argument": "x", "labels": [{"span": "x"}]}, "type: expected a string"),
        (
            {"id": "a", "argument": "x", "labels": [{"type": "Bias", "span": 3}]},
            "span: expected a string",
        ),
        (
            {"id": "a", "argument": "x", "labels": [{"type": "Bias", "span": "x", "slot": 3}]},
            "slot: expected 1 or 2",
        ),
    ],
)
def test_malformed_jsonl_is_one_line(tmp_path, record, message):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(DataError, match=message):
        load_gold(path)


def test_the_released_test_files_lower_case_argument_column_reads(tmp_path):
    from maieutic.tasks.focus.data import load_arguments

    # test_master.csv as released: "argument", where every other file has "Argument"
    path = write_csv(
        tmp_path / "test_master.csv",
        ["argument", "Categories", "Topic"],
        [["We should act now because costs rise every year.", "assumptions", "0: Policy"]],
    )
    items = list(load_arguments(path).items.values())
    assert [i.argument for i in items] == ["We should act now because costs rise every year."]
    # two spellings of one column are never merged: the usual one is read, as before
    both = write_csv(tmp_path / "both.csv", ["argument", "Argument"], [["other", "this one"]])
    assert [i.argument for i in load_arguments(both).items.values()] == ["this one"]
