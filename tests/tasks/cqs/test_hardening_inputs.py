"""Bad scheme files and plot paths: one line and exit 2 (or 1 for a failed write),
never a traceback, never a silent fallback."""

from __future__ import annotations

import json

import pytest

from maieutic.errors import DataError
from maieutic.tasks.cqs.schemes import SchemeLibrary
from tests.conftest import one_reference

SCHEME = {"name": "Argument From Sign", "cq": ["Is <eventA> a sign of <eventB>?"]}


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _generate(cli, tmp_path, *scheme_args):
    data = one_reference(tmp_path)
    out = tmp_path / "out.json"
    return cli("generate", "cqs", "--data", data, "--generator", "template", "--out", out,
               *scheme_args)  # fmt: skip


@pytest.fixture
def schemes(tmp_path):
    path = tmp_path / "walton.jsonl"
    path.write_text(json.dumps(SCHEME) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("content", ["", "\n\n  \n"])
def test_an_empty_schemes_file_is_refused(cli, tmp_path, content):
    path = tmp_path / "walton.jsonl"
    path.write_text(content, encoding="utf-8")
    result = _generate(cli, tmp_path, "--schemes", path)
    assert result.code == 2
    assert "no schemes" in _one_line(result.err)


def test_a_mapping_without_the_schemes_json_column_is_refused(cli, tmp_path, schemes):
    mapping = tmp_path / "mapping.csv"
    mapping.write_text("my_labels,other\nSign,x\n", encoding="utf-8")
    result = _generate(cli, tmp_path, "--schemes", schemes, "--scheme-mapping", mapping)
    assert result.code == 2
    assert "'schemes_json'" in _one_line(result.err)


def test_an_empty_mapping_is_refused(tmp_path, schemes):
    mapping = tmp_path / "mapping.csv"
    mapping.write_text("", encoding="utf-8")
    with pytest.raises(DataError, match="schemes_json"):
        SchemeLibrary.from_walton(schemes, mapping)


@pytest.mark.parametrize("which", ["--schemes", "--scheme-mapping"])
def test_a_file_that_is_not_utf8_is_one_line(cli, tmp_path, schemes, which):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("schemes_json,my_labels\nSign,Señal\n".encode("latin-1"))
    args = ["--schemes", bad] if which == "--schemes" else ["--schemes", schemes, which, bad]
    result = _generate(cli, tmp_path, *args)
    assert result.code == 2
    assert "not UTF-8" in _one_line(result.err)


def test_a_mapping_maps_labels_to_its_schemes_json(tmp_path, schemes):
    mapping = tmp_path / "mapping.csv"
    mapping.write_bytes(b"\xef\xbb\xbfmy_labels,N,schemes_json\r\nERSign,7,Argument From Sign\r\n")
    library = SchemeLibrary.from_walton(schemes, mapping)
    assert library.aliases == {"ERSign": "Argument From Sign"}
    assert library.resolve("ERSign").name == "Argument From Sign"


def test_meta_eval_plot_must_be_svg(cli, tmp_path):
    data = one_reference(tmp_path)
    result = cli("meta-eval", "cqs", "--data", data, "--evaluator", "chrf", "--sweep",
                 "--plot", tmp_path / "x.json")  # fmt: skip
    assert result.code == 2 and "name the file .svg" in result.err
    assert "Traceback" not in result.err


def test_an_unwritable_plot_keeps_the_results(cli, tmp_path):
    cqs = [
        {"id": "a", "cq": "Why act now?", "label": "Useful"},
        {"id": "b", "cq": "Why act at all now?", "label": "Invalid"},
    ]
    data = one_reference(tmp_path, cqs)
    out = tmp_path / "meta.json"
    plot = data / "x.svg"  # a file where the plot's folder should be
    result = cli("meta-eval", "cqs", "--data", data, "--evaluator", "chrf", "--sweep",
                 "--plot", plot, "--out", out)  # fmt: skip
    assert result.code != 0
    assert str(plot) in _one_line(result.err)
    assert json.loads(out.read_text())["sweep"]["rows"]  # --out was written first
