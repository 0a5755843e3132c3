"""The one reader (regular files only, a limit counted as read, encodings refused with
one line) and the one output guard (no write over an input, by any path to it)."""

from __future__ import annotations

import codecs
import json
import os
import re
import threading
from pathlib import Path

import pytest

from maieutic.data import files, guard
from maieutic.errors import DataError
from maieutic.evaluate.results_file import ResultsFile, load_record, progress_path
from maieutic.evaluate.results_record import ResultsRecord

SAMPLES = Path(__file__).resolve().parents[1] / "src" / "maieutic" / "tasks" / "cqs" / "samples"


def _read_in_thread(path: Path) -> BaseException | str:
    """``read_text(path)`` in a thread: what it returned or raised, or "hung"."""
    outcome: list[BaseException | str] = []

    def target() -> None:
        try:
            outcome.append(files.read_text(path))
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(10)
    return outcome[0] if outcome else "hung"


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    outcome = _read_in_thread(fifo)
    assert isinstance(outcome, DataError), outcome
    assert "pipe (FIFO)" in str(outcome) and "regular file" in str(outcome)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_without_reading_it(device):
    outcome = _read_in_thread(Path(device))
    assert isinstance(outcome, DataError), outcome
    assert "character device" in str(outcome)


def test_the_limit_counts_what_is_read_not_what_stat_says(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_text("[" + "1," * 600 + "1]")
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 1000)
    with pytest.raises(DataError, match="over the 1,000-byte limit"):
        files.read_text(path)
    # the same bytes under the limit are read whole
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 5000)
    assert files.read_text(path).startswith("[1,1")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (codecs.BOM_UTF16_LE + '{"a": 1}'.encode("utf-16-le"), "UTF-16 text"),
        (codecs.BOM_UTF32_LE + '{"a": 1}'.encode("utf-32-le"), "UTF-32 text"),
        (b'{"a": "x\x00y"}', "NUL byte at byte 8"),
        (b'{"a": "\xff"}', "not UTF-8 text (byte 7)"),
    ],
)
def test_encodings_other_than_utf8_are_refused_with_one_line(tmp_path, content, message):
    path = tmp_path / "f.json"
    path.write_bytes(content)
    with pytest.raises(DataError, match=re.escape(message)) as caught:
        files.read_text(path)
    assert "\n" not in str(caught.value)


def test_a_utf8_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "f.json"
    path.write_bytes(codecs.BOM_UTF8 + b'{"a": 1}')
    assert files.read_text(path) == '{"a": 1}'


def test_json_ten_thousand_levels_deep_is_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 10_000 + "]" * 10_000)
    with pytest.raises(DataError, match="nested too deeply"):
        files.read_keyed_records(path, "id")


def _inputs(tmp_path: Path) -> tuple[Path, bytes]:
    data = tmp_path / "data.json"
    data.write_text('{"labels": "precious"}')
    return data, data.read_bytes()


@pytest.mark.parametrize("route", ["same", "symlink", "hardlink", "relative"])
def test_no_write_reaches_an_input_by_any_path(tmp_path, route, monkeypatch):
    data, before = _inputs(tmp_path)
    out = {"same": data, "symlink": tmp_path / "link.json", "hardlink": tmp_path / "hard.json"}
    if route == "symlink":
        out["symlink"].symlink_to(data)
    if route == "hardlink":
        os.link(data, out["hardlink"])
    monkeypatch.chdir(tmp_path)
    target = Path("data.json") if route == "relative" else out[route]
    with guard.command_scope():
        files.read_text(data)  # read: noted as an input
        with pytest.raises(DataError, match="input"):
            files.write_json(target, {"results": []})
    assert data.read_bytes() == before
    assert route != "symlink" or out["symlink"].is_symlink()


def test_outside_a_scope_nothing_is_refused(tmp_path):
    data, _ = _inputs(tmp_path)
    files.read_text(data)
    files.write_json(data, {"rewritten": True})  # a library caller's own choice
    assert json.loads(data.read_text()) == {"rewritten": True}


def test_an_input_folder_protects_its_files(tmp_path):
    folder = tmp_path / "judged"
    folder.mkdir()
    (folder / "a.json").write_text("{}")
    with guard.command_scope():
        guard.note_input(folder)
        with pytest.raises(DataError):
            guard.check_output(folder / "a.json", "--out")
        guard.check_output(folder / "new.json", "--out")  # a new file beside them is fine


def test_derived_names_are_the_files_a_generation_writes(tmp_path):
    out = tmp_path / "gen.json"
    assert guard.derived_outputs(out) == [out, tmp_path / "gen.meta.json"]
    assert tmp_path / "gen-run2.meta.json" in guard.derived_outputs(out, runs=2)
    assert out not in guard.derived_outputs(out, runs=2)


def test_a_failed_write_leaves_the_previous_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "r.json"
    path.write_text('{"complete": true}')

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(Exception, match="No space left"):
        files.write_json(path, {"half": "written"})
    assert path.read_text() == '{"complete": true}'
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary left


OLD_RESULTS = (
    Path(__file__).parent / "fixtures" / "old_outputs" / "cqs-results-runs" / "results.json"
)


def _result(name: str):
    from maieutic.evaluate.results_file import load_results

    return load_results(OLD_RESULTS)[0]


def test_progress_over_an_existing_file_goes_beside_it_until_the_run_ends(tmp_path):
    out = tmp_path / "r.json"
    out.write_text('{"earlier": "complete run"}')
    results = ResultsFile(out, "cqs", {}, expected=3)
    assert results.progress_path == tmp_path / "r.partial.json"
    results.add(_result("a"))
    assert out.read_text() == '{"earlier": "complete run"}'  # untouched while running
    partial = load_record(results.progress_path)
    assert partial.complete is False and partial.expected == 3 and not partial.is_complete
    results.close(complete=False)  # a run that failed: the earlier file stays
    assert out.read_text() == '{"earlier": "complete run"}'
    results.close(complete=True)
    record = load_record(out)
    assert record.is_complete and record.expected is None
    assert "complete" not in json.loads(out.read_text())  # whole files as before
    assert not (tmp_path / "r.partial.json").exists()


def test_a_new_results_file_says_it_is_incomplete_while_the_run_goes_on(tmp_path):
    out = tmp_path / "r.json"
    results = ResultsFile(out, "cqs", {}, expected=2)
    assert progress_path(out) == out
    results.add(_result("a"))
    assert load_record(out).complete is False


def test_results_files_written_before_the_flag_load_as_complete():
    record = load_record(OLD_RESULTS)
    assert "complete" not in json.loads(OLD_RESULTS.read_text())
    assert isinstance(record, ResultsRecord) and record.is_complete


def test_a_generation_whose_run_file_is_the_data_is_refused_before_it_starts(cli, tmp_path):
    data = tmp_path / "gd-run1.json"
    data.write_bytes((SAMPLES / "sample_dataset.json").read_bytes())
    before = data.read_bytes()
    out = tmp_path / "gd.json"
    result = cli(
        "generate", "cqs", "--data", data, "--runs", 2, "--out", out, "--generator", "template"
    )
    assert result.code == 2 and f"writes {data}, which is one of the input files" in result.err
    assert data.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [data.name]


def test_a_choice_that_names_a_folder_here_is_no_input(cli, tmp_path, monkeypatch):
    # a folder called like a choice value (local/, template/) beside the data: the
    # choice names no file, so an output inside that folder is written as usual
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.json").write_bytes((SAMPLES / "sample_dataset.json").read_bytes())
    for folder in ("local", "template"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "cqs.json").write_text("{}", encoding="utf-8")  # an earlier run
        result = cli(
            "generate", "cqs", "--data", "data.json", "--out", f"{folder}/cqs.json",
            "--generator", "template", "--engine", "local",
        )  # fmt: skip
        assert result.code == 0, result.err
        assert json.loads((tmp_path / folder / "cqs.json").read_text(encoding="utf-8"))


def test_an_output_through_a_symlink_to_an_input_is_refused(cli, tmp_path):
    data = tmp_path / "d.json"
    data.write_bytes((SAMPLES / "sample_dataset.json").read_bytes())
    link = tmp_path / "link.json"
    link.symlink_to(data)
    sub = SAMPLES / "sample_submission.json"
    result = cli("evaluate", "cqs", "--data", data, sub, "--evaluator", "chrf", "--out", link)
    assert result.code == 2 and f"leads to the input file {data}" in result.err
    assert link.is_symlink() and data.read_bytes() == (SAMPLES / "sample_dataset.json").read_bytes()


def test_an_output_and_its_record_are_replaced_together_or_not_at_all(tmp_path, monkeypatch):
    out, meta = tmp_path / "gen.json", tmp_path / "gen.meta.json"
    out.write_text("old output")
    meta.write_text("old record")
    calls = []

    def full_on_second(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_on_second)
    with pytest.raises(Exception, match="No space left"):
        files.write_together({out: "new output", meta: "new record"})
    assert (out.read_text(), meta.read_text()) == ("old output", "old record")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen.json", "gen.meta.json"]
    monkeypatch.undo()
    files.write_together({out: "new output", meta: "new record"})
    assert (out.read_text(), meta.read_text()) == ("new output", "new record")
