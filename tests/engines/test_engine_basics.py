"""Shard files and the dataclass codec of the Ray engine (no Ray needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from maieutic.engines.codec import from_plain, to_plain
from maieutic.engines.shards import finished, open_folder, read_rows, write_shard
from maieutic.errors import DataError
from maieutic.tasks.cqs.data import Intervention
from maieutic.tasks.cqs.outcomes import ItemOutcome
from maieutic.tasks.focus.generate import FocusOutcome
from maieutic.tasks.focus.type_labels import SpanLabel


def test_task_objects_survive_the_codec_as_json():
    outcome = ItemOutcome(
        intervention_id="I1", questions=["Why?", "How?"], rejected={"x": ["fragment"]}, note="fewer"
    )
    plain = to_plain(outcome)
    assert json.loads(json.dumps(plain)) == plain  # plain JSON
    assert from_plain(json.loads(json.dumps(plain))) == outcome
    label = to_plain(
        FocusOutcome(id="a", labels=[SpanLabel(type="TC", text="a span")], problems=["p"])
    )
    assert from_plain(label) == FocusOutcome(
        id="a", labels=[SpanLabel(type="TC", text="a span")], problems=["p"]
    )
    assert from_plain(to_plain((1, [2, (3,)]))) == (1, [2, (3,)])  # tuples stay tuples
    intervention = Intervention(intervention_id="I", intervention="We must act.", dataset=[])
    assert from_plain(to_plain(intervention)) == intervention


def test_the_codec_builds_no_class_from_outside_maieutic():
    with pytest.raises(DataError, match="outside"):
        from_plain({"__class__": "subprocess:Popen", "args": ["true"]})
    with pytest.raises(DataError, match="no dataclass"):
        from_plain({"__class__": "maieutic.errors:DataError"})


def _row(index: int, key: str, error: str | None) -> dict:
    return {"index": index, "id": key, "outcome": None if error else [], "error": error,
            "failed": False, "trace": None, "stats": [0, 0, 0],
            "warnings": [], "notes": []}  # fmt: skip


def test_shards_are_whole_or_absent_and_a_resume_keeps_what_succeeded(tmp_path):
    folder = tmp_path / "out.json.shards" / "run1"
    open_folder(folder, {"signature": "s1"})
    write_shard(folder, [_row(0, "a", None), _row(1, "b", "boom")])
    write_shard(folder, [_row(1, "b", None), _row(2, "c", "x")])
    (folder / ".part-0000000009-00002.tmp").write_text('{"index": 9, "id": "half')  # killed
    kept = finished(read_rows(folder, dict(enumerate("abc")).get))
    assert sorted(kept) == [0, 1, 2]
    assert kept[1]["error"] is None  # the retry that succeeded wins over the failure
    assert kept[2]["error"] == "x"  # still failed: a resumed run tries it again
    assert not list(folder.glob(".part-*"))  # the half-written temporary is gone
    # a later failure never replaces an earlier success
    assert finished([{"index": 0, "error": None, "v": 1}, {"index": 0, "error": "e"}])[0]["v"] == 1


def test_shards_made_for_another_run_are_refused(tmp_path):
    folder = tmp_path / "s"
    open_folder(folder, {"signature": "s1"})
    open_folder(folder, {"signature": "s1"})  # the same run: fine
    with pytest.raises(DataError, match="another generator or for other data"):
        open_folder(folder, {"signature": "s2"})


def test_a_damaged_shard_line_is_left_out_with_one_line_naming_its_shard(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    path = folder / "part-0000000000-00000.jsonl"
    path.write_text('{"index": 0}\n{broken\n')
    said: list[str] = []
    assert list(read_rows(folder, {0: "a"}.get, said.append)) == []  # both generated again
    assert said == [f"{path}: 2 damaged or foreign row(s) left out and generated again"]


def test_a_row_that_raises_is_recorded_and_its_batch_goes_on():
    """In the actor: a batch whose generation raises is generated row by row, and only
    the row that raises is recorded as failed, with its reason."""
    from maieutic.core import get_task
    from maieutic.core.task_io import task_io
    from maieutic.engines.ray_generate import _decoded, _GenerateBatch, _merged_run
    from maieutic.registry import create
    from maieutic.tasks.cqs.data import CQDataset

    generator = create("generator", task="cqs", name="template")
    good = Intervention(
        intervention_id="G",
        intervention='SPEAKER: "Taxes must rise because schools are failing."',
        dataset=[],
    )
    rows = [
        {"index": 0, "id": "G", "item": json.dumps(to_plain(good))},
        {"index": 1, "id": "B", "item": json.dumps({"__class__": "maieutic.nope:X"})},
    ]
    io = task_io(get_task("cqs"))
    actor = _GenerateBatch(
        io,
        spec=generator.spec,
        template=to_plain(CQDataset(interventions={})),
        run_index=0,
        env={},
        whole=None,
    )
    done = [_decoded(r) for r in actor(pd.DataFrame(rows)).to_dict("records")]
    assert done[0]["error"] is None and "ModuleNotFoundError" in done[1]["error"]
    kept = {row["index"]: row for row in done}
    run = _merged_run(io, component=generator, items={"G": good, "B": None}, kept=kept)
    assert run.outcomes[0].questions and not run.outcomes[0].failed
    assert run.outcomes[1].failed and "ModuleNotFoundError" in run.outcomes[1].reason


def test_the_default_install_does_not_pull_ray_and_the_extra_does():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    core = project["project"]["dependencies"]
    assert not [d for d in core if d.lower().startswith("ray")]
    # psutil: the watchdog that stops a local instance whose driver was killed
    assert project["project"]["optional-dependencies"]["ray"] == [
        "ray[data]>=2.50",
        "ijson>=3.2",
        "psutil>=5.9",
    ]
    assert not [d for d in core if d.lower().startswith("ijson")]  # streaming needs the extra


def test_the_ray_engine_without_ray_is_one_line(cli, monkeypatch, tmp_path):
    import sys

    from tests.conftest import one_reference

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    data = one_reference(tmp_path)
    result = cli("generate", "cqs", "--data", data, "--out", tmp_path / "o.json", "--engine", "ray")
    assert result.code == 2
    assert "pip install 'maieutic[ray]'" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "o.json").exists()


def test_ray_options_without_the_ray_engine_are_refused(cli, tmp_path):
    from tests.conftest import one_reference

    data = one_reference(tmp_path)
    result = cli("generate", "cqs", "--data", data, "--out", tmp_path / "o.json",
                 "--ray-actors", "4")  # fmt: skip
    assert result.code == 2 and "--ray-actors applies to --engine ray only" in result.err


def test_a_task_whose_input_is_not_rows_says_so(tmp_path):
    import maieutic

    pytest.importorskip("ray")
    document = tmp_path / "doc.txt"
    document.write_text("A short document. It has two sentences.")
    with pytest.raises(DataError, match="one document at a time"):
        maieutic.generate("aura", document, generator="llm", llm="fake", base_url="http://127.0.0.1:9/v1",
                          engine="ray")  # fmt: skip


def test_shards_are_matched_to_what_changes_outputs_not_to_speed_settings():
    from maieutic.registry import Spec
    from maieutic.run.engine import shard_manifest

    class Context:
        signature = "cqs|gen:llm"

    def manifest(ids=("a", "b"), **args):
        component = type(
            "G", (), {"spec": Spec(kind="generator", task="cqs", name="llm", args=args)}
        )()
        return shard_manifest(Context(), component=component, items=dict.fromkeys(ids), run_index=0)

    base = manifest(max_tokens=256, concurrency=4, timeout=120.0)
    assert manifest(max_tokens=256, concurrency=32, timeout=5.0) == base  # speed only
    assert manifest(max_tokens=16, concurrency=4, timeout=120.0) != base  # outputs change
    assert manifest(("b", "a"), max_tokens=256, concurrency=4, timeout=120.0) != base  # order


def test_the_shard_folder_of_a_folder_output_named_dot(tmp_path, monkeypatch):
    from maieutic.engines.shards import shard_folder

    monkeypatch.chdir(tmp_path)
    assert shard_folder(Path("."), 0) == tmp_path.parent / f"{tmp_path.name}.shards" / "run1"


def test_ray_without_its_data_part_is_one_line(monkeypatch):
    import sys

    from maieutic.engines import check_engine

    monkeypatch.setitem(sys.modules, "ray.data", None)
    with pytest.raises(DataError, match=r"pip install 'maieutic\[ray\]'"):
        check_engine("ray")
