"""Loading and validating the dataset and submission formats."""

from __future__ import annotations

import json

import pytest

from maieutic.errors import DataError
from maieutic.tasks.cqs.data import MISSING_CQS, load_cq_dataset, load_submission
from tests.conftest import write_json

DATASET = {
    "A_1": {
        "intervention_id": "A_1",
        "intervention": "We should do X because Y.",
        "dataset": "toy",
        "schemes": ["CauseToEffect"],
        "cqs": [
            {"id": 0, "cq": "Does Y really lead to X?", "label": "Useful"},
            {"id": 1, "cq": "What is X?", "label": "Invalid"},
        ],
    },
    "B_2": {
        "intervention_id": "B_2",
        "intervention": "Z is true, experts say.",
        "dataset": "toy",
        "schemes": [],
        "cqs": [{"id": "b0", "cq": "Which experts?", "label": "Unhelpful"}],
    },
}


def test_loads_official_layout_and_normalises_ids(tmp_path):
    ds = load_cq_dataset(write_json(tmp_path / "d.json", DATASET))
    assert list(ds.interventions) == ["A_1", "B_2"]
    assert [q.id for q in ds.interventions["A_1"].cqs] == ["0", "1"]
    assert ds.interventions["A_1"].schemes == ("CauseToEffect",)
    assert ds.n_references == 3


def test_jsonl_reads_the_same_data_with_the_same_fingerprint(tmp_path):
    json_ds = load_cq_dataset(write_json(tmp_path / "d.json", DATASET))
    lines = "\n".join(json.dumps(v) for v in DATASET.values()) + "\n"
    (tmp_path / "d.jsonl").write_text(lines, encoding="utf-8")
    jsonl_ds = load_cq_dataset(tmp_path / "d.jsonl")
    assert jsonl_ds.interventions == json_ds.interventions
    assert jsonl_ds.fingerprint() == json_ds.fingerprint()
    changed = json.loads(json.dumps(DATASET))
    changed["A_1"]["cqs"][0]["label"] = "Unhelpful"
    assert load_cq_dataset(write_json(tmp_path / "e.json", changed)).fingerprint() != (
        json_ds.fingerprint()
    )


def _broken(mutate):
    data = json.loads(json.dumps(DATASET))
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d["A_1"].pop("intervention"), "\"A_1\": missing field 'intervention'"),
        (lambda d: d["A_1"]["cqs"][1].pop("label"), "\"A_1\".cqs[1]: missing field 'label'"),
        (lambda d: d["A_1"]["cqs"][1].update(label="Useless"), "unknown label 'Useless'"),
        (lambda d: d["A_1"]["cqs"][1].update(cq="   "), '"A_1".cqs[1].cq: empty question'),
        (lambda d: d["A_1"].update(intervention_id="A_2"), "differs from its key"),
        (lambda d: d["A_1"].update(cqs="none"), "expected an array, found a string"),
        (lambda d: d["B_2"].update(intervention=""), '"B_2".intervention: empty text'),
        (lambda d: d["A_1"]["cqs"][0].update(cq=7), "expected a string, found a number"),
        (lambda d: d["A_1"]["cqs"][0].update(cq="x" * 6000), "over the 5000 limit"),
    ],
)
def test_dataset_errors_name_the_key_and_problem(tmp_path, mutate, expected):
    path = write_json(tmp_path / "d.json", _broken(mutate))
    with pytest.raises(DataError) as info:
        load_cq_dataset(path)
    assert expected in str(info.value)
    assert str(path) in str(info.value)


def test_repeated_reference_ids_are_tolerated_with_a_warning(tmp_path):
    # the released validation data repeats a few reference ids within an intervention
    def same_string_id(d):
        d["A_1"]["cqs"][0].update(id="A_1_q")
        d["A_1"]["cqs"][1].update(id="A_1_q")

    ds = load_cq_dataset(write_json(tmp_path / "d.json", _broken(same_string_id)))
    assert ds.warnings == ["\"A_1\".cqs[1].id: duplicate reference id 'A_1_q'"]
    assert [q.cq for q in ds.interventions["A_1"].cqs] == ["Does Y really lead to X?", "What is X?"]


def test_repeated_integer_ids_are_positions_not_keys(tmp_path):
    # the released extended test file numbers each system's questions 0, 1, 2 again
    def positions(d):
        d["A_1"]["cqs"][0].update(id=0)
        d["A_1"]["cqs"][1].update(id=0)

    ds = load_cq_dataset(write_json(tmp_path / "d.json", _broken(positions)))
    assert ds.warnings == []
    assert [q.id for q in ds.interventions["A_1"].cqs] == ["0", "0"]


def test_not_json_and_wrong_top_level(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"A": [1, 2,}', encoding="utf-8")
    with pytest.raises(DataError, match=r"not valid JSON \(line 1, column"):
        load_cq_dataset(bad)
    with pytest.raises(
        DataError, match="expected a JSON object mapping ids to records, found an array"
    ):
        load_cq_dataset(write_json(tmp_path / "list.json", [DATASET["A_1"]]))
    empty = tmp_path / "empty.json"
    empty.write_text("  \n", encoding="utf-8")
    with pytest.raises(DataError, match="file is empty"):
        load_cq_dataset(empty)


def test_duplicate_json_keys_are_an_error_not_silently_merged(tmp_path):
    text = '{{"A_1": {}, "A_1": {}}}'.format(json.dumps(DATASET["A_1"]), json.dumps(DATASET["A_1"]))
    path = tmp_path / "dup.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match='duplicate key "A_1"'):
        load_cq_dataset(path)


def test_jsonl_errors_name_the_line(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(DATASET["A_1"]) + "\n" + json.dumps(DATASET["A_1"]) + "\n")
    with pytest.raises(DataError, match=r"d.jsonl:2: duplicate intervention_id 'A_1'"):
        load_cq_dataset(path)
    path.write_text(json.dumps(DATASET["A_1"]) + "\nnot json\n")
    with pytest.raises(DataError, match=r"d.jsonl:2: not valid JSON"):
        load_cq_dataset(path)


def test_submission_with_missing_cqs_and_integer_ids(tmp_path):
    sub = load_submission(
        write_json(
            tmp_path / "s.json",
            {
                "A_1": {"intervention_id": "A_1", "cqs": [{"id": 0, "cq": "Why X?"}]},
                "B_2": {"intervention_id": "B_2", "cqs": MISSING_CQS},
            },
        )
    )
    assert sub.name == "s"
    assert sub.entries["A_1"].cqs[0].id == "0"
    assert sub.entries["B_2"].missing


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"intervention_id": "A_1"}, "missing field 'cqs'"),
        ({"intervention_id": "A_1", "cqs": "missing"}, "expected an array or 'Missing CQs'"),
        ({"intervention_id": "A_1", "cqs": [{"id": 0}]}, "missing field 'cq'"),
        (
            {"intervention_id": "A_1", "cqs": [{"id": 0, "cq": None}]},
            "expected a string, found null",
        ),
        ({"intervention_id": "A_1", "cqs": [["a?"]]}, "expected an object, found an array"),
        ("not an object", "expected an object, found a string"),
    ],
)
def test_submission_errors(tmp_path, entry, expected):
    with pytest.raises(DataError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        load_submission(write_json(tmp_path / "s.json", {"A_1": entry}))


@pytest.mark.parametrize(
    ("cqs", "codes"),
    [
        # shapes shared-task participants sent, which the benchmark script scores
        ([], ["no-questions"]),
        (
            [{"id": "X_Llama-3", "cq": f"Why {n}?"} for n in "abc"],
            ["repeated-id", "repeated-id"],
        ),
        (
            [{"id": 0, "cq": ""}, {"id": 1, "cq": "Why?"}, {"id": 2, "cq": "   "}],
            ["empty-question", "empty-question"],
        ),
        (
            [{"id": 0, "cq": "Why? "}, {"id": 1, "cq": " How?"}, {"id": 2, "cq": "Who?\n"}],
            ["whitespace", "whitespace", "whitespace"],
        ),
        ([{"id": i, "cq": "Same?"} for i in range(3)], ["duplicate-questions"]),
        (
            [{"cq": "Why?"}, {"id": None, "cq": "How?"}, {"id": 2, "cq": "Who?"}],
            ["missing-id", "bad-id"],
        ),
        ([{"id": 0, "cq": "Why?"}], ["question-count"]),
    ],
)
def test_tolerated_shapes_are_read_and_flagged(tmp_path, cqs, codes):
    sub = load_submission(
        write_json(tmp_path / "s.json", {"A_1": {"intervention_id": "A_1", "cqs": cqs}})
    )
    assert [f.code for f in sub.flags] == codes
    # the text is kept exactly as submitted: the benchmark script encodes it as it is
    assert [q.cq for q in sub.entries["A_1"].cqs] == [q["cq"] for q in cqs]
    assert all(f.item == "A_1" and f.file == str(tmp_path / "s.json") for f in sub.flags)


def test_strict_refuses_the_first_flag_with_a_count(tmp_path):
    from maieutic.data.flags import refuse_flags

    cqs = [{"id": 0, "cq": ""}, {"id": 0, "cq": "Why?"}]
    sub = load_submission(
        write_json(tmp_path / "s.json", {"A_1": {"intervention_id": "A_1", "cqs": cqs}})
    )
    with pytest.raises(DataError) as info:
        refuse_flags(sub.flags)
    message = str(info.value)
    assert message.startswith(f'{tmp_path / "s.json"}: "A_1".cqs[0].cq: empty question')
    assert "and 2 more flagged problem(s)" in message and "--strict" in message


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"format": "maieutic.results/2", "results": []}', "this is a maieutic results file"),
        ('{"format": "maieutic.generation/2", "run": 1}', "this is a generation record"),
        ('{"format": "maieutic.generation/3", "task": "cqs"}', "this is a generation record"),
        ("id,cq\nA_1,Why?\n", "this looks like CSV (comma-separated values), not JSON"),
        ("id\tcq\nA_1\tWhy?\n", "this looks like TSV (tab-separated values), not JSON"),
    ],
)
def test_a_file_of_another_kind_is_named_as_such(tmp_path, content, expected):
    path = tmp_path / "s.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_submission(path)
    assert expected in str(info.value)


def test_a_submission_given_as_the_dataset_says_they_were_swapped(tmp_path):
    sub = {"A_1": {"intervention_id": "A_1", "cqs": [{"id": 0, "cq": "Why?"}]}}
    with pytest.raises(DataError, match="were --data and the submission swapped"):
        load_cq_dataset(write_json(tmp_path / "s.json", sub))


def test_the_fingerprint_covers_schemes(tmp_path):
    changed = json.loads(json.dumps(DATASET))
    changed["A_1"]["schemes"] = ["PracticalReasoning"]
    before = load_cq_dataset(write_json(tmp_path / "a.json", DATASET)).fingerprint()
    after = load_cq_dataset(write_json(tmp_path / "b.json", changed)).fingerprint()
    assert before != after


def test_a_benchmark_evaluated_output_is_a_submission_flagged_as_labelled(tmp_path):
    # the benchmark's pipeline copies dataset records and its script adds labels,
    # not_able_to_evaluate among them: the script scores such a file, and so does maieutic
    copy = json.loads(json.dumps(DATASET))
    copy["A_1"]["cqs"] = [
        {"id": 0, "cq": "Is Y enough for X?", "label": "not_able_to_evaluate"},
        {"id": 1, "cq": "Why X?", "label": "Useful"},
    ]
    sub = load_submission(write_json(tmp_path / "evaluated.json", copy))
    assert "labelled-submission" in [f.code for f in sub.flags]


def test_repeated_keys_are_read_as_json_load_reads_them_and_flagged(tmp_path):
    path = tmp_path / "dup.json"
    first = json.dumps({"intervention_id": "A_1", "cqs": [{"id": 0, "cq": "First?"}]})
    last = json.dumps({"intervention_id": "A_1", "cqs": [{"id": 0, "cq": "Last?"}]})
    path.write_text(f'{{"A_1": {first}, "A_1": {last}}}', encoding="utf-8")
    sub = load_submission(path)
    assert [q.cq for q in sub.entries["A_1"].cqs] == ["Last?"]
    assert [f.code for f in sub.flags] == ["question-count", "duplicate-key"]


def test_a_byte_order_mark_and_json_lines_in_a_json_file(tmp_path):
    path = tmp_path / "bom.json"
    entry = {"A_1": {"intervention_id": "A_1", "cqs": "Missing CQs"}}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(entry).encode())
    assert load_submission(path).entries["A_1"].missing
    lines = tmp_path / "lines.json"
    lines.write_text(
        "\n".join(json.dumps({"intervention_id": k, "cqs": "Missing CQs"}) for k in "AB"),
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="looks like JSON Lines"):
        load_submission(lines)
