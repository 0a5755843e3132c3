"""A corpus read a record at a time: the same items, flags and fingerprint as the
whole-file reader (the oracle), and JSON written in pieces byte for byte as
``json_text`` writes it whole (the standard library as oracle)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from maieutic.data.files import json_text
from maieutic.data.json_stream import json_chunks, streamed_array, streamed_object
from maieutic.engines.corpus import CorpusStore
from maieutic.errors import DataError
from maieutic.tasks.cqs.corpus import stream_cq_dataset
from maieutic.tasks.cqs.data import load_cq_dataset

pytest.importorskip("ijson", reason="streaming a JSON corpus needs: pip install 'maieutic[ray]'")

VALUES = [
    {},
    [],
    {"a": {}, "b": [], "c": [{}], "d": [[]]},
    {"ü": "é — ✓", "n": [1, 2.5, -0.0, 1e300, None, True, False], "s": 'quote " \\ \n tab\t'},
    {"deep": {"deeper": {"deepest": [{"x": [1, {"y": "z"}]}]}}},
    [{"id": i, "cq": f"question {i}?"} for i in range(5)],
]


def _streamed(value, rng):
    """``value`` with some of its objects and arrays turned into ``Streamed`` ones."""
    if isinstance(value, dict):
        inner = {k: _streamed(v, rng) for k, v in value.items()}
        return streamed_object(lambda: iter(inner.items())) if rng.random() < 0.6 else inner
    if isinstance(value, list):
        inner = [_streamed(v, rng) for v in value]
        return streamed_array(lambda: iter(inner)) if rng.random() < 0.6 else inner
    return value


@pytest.mark.parametrize("value", VALUES)
def test_json_written_in_pieces_is_byte_identical_to_json_text(value):
    rng = random.Random(7)
    for _ in range(20):
        assert "".join(json_chunks(_streamed(value, rng))) == json_text(value)


def test_a_streamed_object_is_read_again_each_time_it_is_written():
    calls = []
    streamed = streamed_object(lambda: calls.append(1) or iter([("k", [1, 2])]))
    assert "".join(json_chunks({"x": streamed})) == json_text({"x": {"k": [1, 2]}})
    assert "".join(json_chunks({"x": streamed})) == json_text({"x": {"k": [1, 2]}})
    assert len(calls) == 2


def _shuffled_copy(cqs_dev: Path, tmp_path: Path, suffix: str) -> Path:
    """The dev split with its records in another order (so input order ≠ id order)."""
    records = list(json.loads(cqs_dev.read_text(encoding="utf-8")).values())
    random.Random(3).shuffle(records)
    path = tmp_path / f"dev{suffix}"
    if suffix == ".jsonl":
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    elif suffix == ".parquet":
        pa = pytest.importorskip("pyarrow")
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(records), path)
    else:
        path.write_text(json.dumps({r["intervention_id"]: r for r in records}, indent=1))
    return path


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".parquet"])
def test_a_streamed_corpus_holds_what_the_whole_file_reader_reads(cqs_dev, tmp_path, suffix):
    path = _shuffled_copy(cqs_dev, tmp_path, suffix)
    whole = load_cq_dataset(path, require_labels=False)
    streamed = stream_cq_dataset(path, CorpusStore(tmp_path / "store"))
    assert list(streamed.interventions) == list(whole.interventions)  # input order
    assert list(streamed.interventions.items()) == list(whole.interventions.items())
    assert streamed.fingerprint() == whole.fingerprint()
    assert streamed.fingerprint() == load_cq_dataset(cqs_dev, require_labels=False).fingerprint()
    assert list(whole.interventions) != sorted(whole.interventions)  # the orders differ


def test_a_limited_stream_is_the_first_items(cqs_dev, tmp_path):
    whole = load_cq_dataset(cqs_dev, require_labels=False)
    first = dict(list(whole.interventions.items())[:7])
    streamed = stream_cq_dataset(cqs_dev, CorpusStore(tmp_path / "store"), limit=7)
    assert dict(streamed.interventions.items()) == first
    assert streamed.fingerprint() == type(whole)(interventions=first).fingerprint()


def test_the_store_goes_when_it_is_dropped(tmp_path):
    store = CorpusStore(tmp_path / "corpus")
    folder = store.folder
    assert folder.is_dir()
    del store
    import gc

    gc.collect()
    assert not folder.exists() and not (tmp_path / "corpus").exists()


def _record(key: str, text: str = "A because B.") -> dict:
    return {"intervention_id": key, "intervention": text, "cqs": []}


_A = json.dumps(_record("a"))
BAD = [
    ("dup.json", f'{{"a": {_A}, "a": {_A}}}',
     "duplicate id 'a'"),
    ("dup.jsonl", json.dumps(_record("a")) + "\n" + json.dumps(_record("a")) + "\n",
     "dup.jsonl:2: duplicate id 'a'"),
    ("inner.json", '{"a": {"intervention_id": "a", "intervention": "x", "intervention": "y"}}',
     'duplicate key "intervention"'),
    ("array.json", "[1, 2]", "expected a JSON object mapping ids to records"),
    ("empty.json", "   \n", "file is empty"),
    ("empty.jsonl", "\n\n", "file is empty"),
    ("cut.json", '{"a": {"intervention_id": "a", "interv', "not valid JSON"),
    ("text.jsonl", json.dumps(_record("a")) + "\nnot json\n", "text.jsonl:2: not valid JSON"),
    ("noid.jsonl", '{"intervention": "x"}\n', "missing or empty string field 'intervention_id'"),
    ("notext.json", '{"a": {"intervention_id": "a"}}', "missing field"),
    ("otherkey.json", '{"a": {"intervention_id": "b", "intervention": "x"}}',
     "differs from its key"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_corpus_files_are_refused_with_one_line(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        stream_cq_dataset(path, CorpusStore(tmp_path / "store"))
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ('{"a": 1}'.encode("utf-16"), "UTF-16 text"),
        (b'{"a": {"intervention_id": "a", "intervention": "\xff"}}', "not valid JSON"),
        (b'{"intervention_id": "a", "intervention": "\xff"}\n', "not UTF-8 text"),
    ],
)
def test_files_that_are_not_utf8_are_refused(tmp_path, data, message):
    path = tmp_path / ("x.jsonl" if data.startswith(b'{"intervention_id"') else "x.json")
    path.write_bytes(data)
    with pytest.raises(DataError, match=message):
        stream_cq_dataset(path, CorpusStore(tmp_path / "store"))


def test_a_streamed_focus_corpus_holds_what_the_whole_file_reader_reads(focus_dir, tmp_path):
    from maieutic.tasks.focus.corpus import stream_focus_arguments
    from maieutic.tasks.focus.data import load_arguments
    from maieutic.tasks.focus.write import to_jsonl

    released = load_arguments(focus_dir / "dev_gold.csv")
    lines = to_jsonl(released).splitlines()
    flagged = [  # each of the reader's flags, the cross-label ones included
        {"id": "z1", "argument": "Costs rose, so act.", "labels": [
            {"type": "OSP", "span": "Costs rose"}, {"type": "NONE", "span": ""},
            {"type": "Made-up type", "span": "act"}, {"type": "", "span": "so act"}]},
        {"id": "z2", "argument": "A because B.", "labels": [
            {"type": "OSP", "span": "A"}, {"type": "NONE", "span": ""},
            {"type": "OSP", "span": "not in it"},
            {"type": "OSP", "span": "B", "start": 0, "end": 1}]},
    ]  # fmt: skip
    lines += [json.dumps(record) for record in flagged]
    random.Random(5).shuffle(lines)
    path = tmp_path / "dev.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    whole = load_arguments(path)
    streamed = stream_focus_arguments(path, CorpusStore(tmp_path / "store"))
    assert list(streamed.items.items()) == list(whole.items.items())
    assert streamed.fingerprint() == whole.fingerprint() != released.fingerprint()
    assert len(whole.flags) >= 5
    assert [(f.code, f.item) for f in streamed.flags] == [(f.code, f.item) for f in whole.flags]
    assert streamed.warnings == whole.warnings


def test_the_released_focus_csv_is_read_whole(focus_dir, tmp_path):
    from maieutic.core import get_task
    from maieutic.core.task_io import task_io

    io = task_io(get_task("focus"))
    store = CorpusStore(tmp_path / "store")
    assert io.stream_input(get_task("focus"), focus_dir / "dev_gold.csv", store, limit=None) is None
