"""Parquet inputs: one row per record, read like the JSON Lines layout of each task."""

from __future__ import annotations

import json
import sys

import pytest

from maieutic.errors import DataError
from tests.conftest import SHARED_DATA

pa = pytest.importorskip("pyarrow", reason="Parquet needs pyarrow: pip install 'maieutic[ray]'")
pq = pytest.importorskip("pyarrow.parquet")


def _parquet(path, rows):
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_a_cqs_dataset_reads_the_same_from_parquet_as_from_json(tmp_path):
    from maieutic.tasks.cqs.data import load_cq_dataset

    dev = SHARED_DATA / "cqs" / "validation-dev.json"
    if not dev.exists():
        pytest.skip(f"shared data not found at {dev}")
    rows = list(json.loads(dev.read_text()).values())
    parquet = _parquet(tmp_path / "dev.parquet", rows)
    assert load_cq_dataset(parquet).fingerprint() == load_cq_dataset(dev).fingerprint()


def test_a_column_a_row_leaves_empty_is_an_absent_field(tmp_path):
    from maieutic.tasks.cqs.data import load_cq_dataset

    rows = [
        {"intervention_id": "A", "intervention": "We must act.", "cqs": [], "dataset": "x"},
        {"intervention_id": "B", "intervention": "Taxes should fall."},  # null cqs, dataset
    ]
    data = load_cq_dataset(_parquet(tmp_path / "d.parquet", rows), require_labels=False)
    assert data.interventions["B"].cqs == () and data.interventions["B"].dataset == ""


def test_focus_native_records_read_from_parquet(tmp_path, focus_dir):
    from maieutic.tasks.focus.data import load_focus
    from maieutic.tasks.focus.write import write_focus

    gold = load_focus(focus_dir / "dev_gold.csv")
    jsonl = tmp_path / "gold.jsonl"
    write_focus(gold, jsonl, predictions=False)
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert load_focus(_parquet(tmp_path / "gold.parquet", rows)).items == load_focus(jsonl).items


def test_repeated_ids_and_missing_ids_in_parquet_say_which_row(tmp_path):
    from maieutic.tasks.cqs.data import load_cq_dataset

    rows = [{"intervention_id": "A", "intervention": "x", "cqs": []}] * 2
    with pytest.raises(DataError, match="duplicate intervention_id 'A'") as caught:
        load_cq_dataset(_parquet(tmp_path / "dup.parquet", rows), require_labels=False)
    assert "row 2" in str(caught.value)
    rows = [{"intervention": "x", "cqs": []}]
    with pytest.raises(DataError, match="row 1"):
        load_cq_dataset(_parquet(tmp_path / "noid.parquet", rows), require_labels=False)


def test_a_damaged_parquet_file_is_one_line_exit_2(cli, tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 this is not parquet")
    result = cli("generate", "cqs", "--data", bad, "--out", tmp_path / "o.json")
    assert result.code == 2
    assert "not a readable Parquet file" in result.err and "Traceback" not in result.err


def test_parquet_without_pyarrow_says_what_to_install(cli, monkeypatch, tmp_path):
    parquet = _parquet(tmp_path / "d.parquet", [{"intervention_id": "A", "intervention": "x"}])
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    result = cli("generate", "cqs", "--data", parquet, "--out", tmp_path / "o.json")
    assert result.code == 2 and "pip install 'maieutic[ray]'" in result.err


def test_a_partitioned_parquet_folder_reads_like_one_file(tmp_path):
    from maieutic.tasks.cqs.data import load_cq_dataset

    rows = [{"intervention_id": f"I{i}", "intervention": f"Text {i}.", "cqs": []} for i in range(5)]
    folder = tmp_path / "corpus.parquet"
    folder.mkdir()
    _parquet(folder / "part-0.parquet", rows[:3])
    _parquet(folder / "part-1.parquet", rows[3:])
    single = _parquet(tmp_path / "one.parquet", rows)
    both = [load_cq_dataset(p, require_labels=False) for p in (folder, single)]
    assert both[0].fingerprint() == both[1].fingerprint()
    assert list(both[0].interventions) == [f"I{i}" for i in range(5)]


def test_a_hive_partitioned_folder_keeps_the_columns_it_was_split_by(tmp_path):
    """``write_to_dataset(partition_cols=...)`` (pandas, Spark and Ray write the same)
    keeps a partition column's value in the folder names (``dataset=US2016/``): both
    readers, the whole-file one and the one the Ray engine streams with, give it back."""
    from maieutic.data.files import read_keyed_records
    from maieutic.data.streaming import stream_keyed_records
    from maieutic.tasks.cqs.data import load_cq_dataset

    rows = [
        {"intervention_id": f"I{i}", "intervention": f"Text {i}.", "cqs": [],
         "dataset": ("US2016", "moral maze")[i % 2]}
        for i in range(5)
    ]  # fmt: skip
    folder = tmp_path / "corpus.parquet"
    pq.write_to_dataset(pa.Table.from_pylist(rows), folder, partition_cols=["dataset"])
    single = _parquet(tmp_path / "one.parquet", rows)
    read = load_cq_dataset(folder, require_labels=False)
    assert read.interventions["I1"].dataset == "moral maze"
    assert read.fingerprint() == load_cq_dataset(single, require_labels=False).fingerprint()
    whole = read_keyed_records(folder, "intervention_id")
    streamed = {key: record for _, key, record in stream_keyed_records(folder, "intervention_id")}
    assert whole == streamed == {row["intervention_id"]: row for row in rows}


def test_part_files_that_disagree_are_one_line(cli, tmp_path):
    folder = tmp_path / "corpus.parquet"
    (folder / "dataset=US2016").mkdir(parents=True)
    row = {"intervention_id": "I0", "intervention": "We must act.", "dataset": 5}
    _parquet(folder / "dataset=US2016" / "part-0.parquet", [row])
    from maieutic.tasks.cqs.data import load_cq_dataset

    with pytest.raises(DataError, match="not a readable Parquet file") as caught:
        load_cq_dataset(folder, require_labels=False)
    assert str(caught.value).startswith(str(folder))


@pytest.mark.parametrize("engine", ["local", "ray"])
def test_the_command_line_refuses_a_folder_with_one_line_whatever_the_engine(cli, tmp_path,
                                                                             engine):  # fmt: skip
    """``--data`` is a file for every command (the option table): a folder is refused
    before anything starts, with the same line for either engine (no Ray is started)."""
    folder = tmp_path / "corpus.parquet"
    pq.write_to_dataset(
        pa.Table.from_pylist([{"intervention_id": "I0", "intervention": "We must act."}]), folder
    )
    result = cli("generate", "cqs", "--engine", engine, "--data", folder,
                 "--out", tmp_path / "o.json")  # fmt: skip
    assert result.code == 2
    assert f"Invalid value for '--data': File '{folder}' is a directory." in result.err
    assert "Traceback" not in result.err and not (tmp_path / "o.json").exists()
