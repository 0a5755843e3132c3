"""A word that may be text or a path (``ask TEXT|FILE``, ``--llm``, ``--embedding-model``):
text that cannot be a path is text, never ``OSError: File name too long``; text that is
no UTF-8 (a lone surrogate, from a JSON escape or an argument in another encoding) is
one line saying where, as undecodable bytes in a file are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.data.files import read_keyed_records
from maieutic.errors import DataError
from maieutic.path_text import cannot_be_a_path, is_folder, is_regular_file, path_exists
from tests.conftest import one_reference

REPO = Path(__file__).resolve().parents[1]
PASTED = (
    "City councils across the country are debating whether to close their downtown "
    "streets to private cars. Supporters point to cleaner air, safer crossings and busier "
    "shops; opponents say deliveries, disabled residents and people who live far from a "
    "bus line will pay the price. Our city should follow Ghent and Oslo and ban cars "
    "downtown, because pollution harms children."
)
WITH_A_LINE_BREAK = PASTED + "\nA second paragraph: buses or bikes is a 50-50 question for now."
WITH_A_SLASH = (  # a part between two slashes longer than a file name may be, too
    "Our city should ban cars downtown, as the mayor told the council last spring in a "
    "speech that most of the people who live and work in the centre welcomed, and that "
    "the shop keepers of the old market square, who had feared for their trade, also "
    "praised, and and/or toll them, because pollution harms children: "
    "studies from 2019/2020 in Ghent and Oslo show asthma visits fell by a third after the "
    "ban, and shop owners/residents reported busier streets within a year of the change."
)


@pytest.mark.parametrize("text", [PASTED, WITH_A_LINE_BREAK, WITH_A_SLASH])
def test_a_pasted_paragraph_is_asked_about(cli, text):
    assert len(text.encode()) > 255
    result = cli("ask", text, "--format", "json")
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    assert answer["text"] == text and answer["source"] == "<argument>" and answer["cqs"]


def test_a_megabyte_of_text_is_refused_by_its_length_not_as_a_path(cli):
    result = cli("ask", "We should ban cars. " * 52_429)  # 1 MB
    assert result.code == 2
    assert "over the 200,000 limit" in result.err and "Traceback" not in result.err


def test_a_long_single_word_is_text_too(cli):
    word = "x" * 300 + ".md"  # a suffix ask reads, but no file can have this name
    result = cli("ask", word, "--format", "json")
    assert "File name too long" not in result.err and "file not found" not in result.err


def test_words_that_cannot_be_paths():
    assert cannot_be_a_path("a" * 256) and cannot_be_a_path("dir/" + "é" * 128)
    assert cannot_be_a_path("") and cannot_be_a_path("a\x00b") and cannot_be_a_path("\ud800")
    assert cannot_be_a_path("a/" * 2048)
    assert not cannot_be_a_path("a" * 255) and not cannot_be_a_path("notes/essay.md")
    assert not cannot_be_a_path("\udcff.md")  # a byte of another encoding: a real name


def test_asking_the_file_system_about_text_never_raises(tmp_path):
    for text in ("a" * 300, "b/" * 3000, "a\x00b", "\ud800", "~nobody-at-all/x.md"):
        assert not path_exists(text, home=True)
        assert not is_folder(text) and not is_regular_file(text)
    (tmp_path / "f.txt").write_text("x")
    assert path_exists(str(tmp_path / "f.txt")) and is_regular_file(str(tmp_path / "f.txt"))
    assert is_folder(str(tmp_path)) and not is_regular_file(str(tmp_path))


def test_a_long_model_name_is_one_line(cli, tmp_path):
    one_reference(tmp_path)
    (tmp_path / "s.json").write_text(json.dumps({"I": {"cqs": [{"id": 0, "cq": "Why?"}]}}))
    long = "x" * 300
    embedding = cli(
        "evaluate", "cqs", "--data", tmp_path / "d.json", tmp_path / "s.json",
        "--evaluator", "sts", "--embedding-model", long,
    )  # fmt: skip
    assert embedding.code in (1, 2) and "cannot load the embedding model" in embedding.err
    gguf = cli("generate", "cqs", "--data", tmp_path / "d.json", "--out", tmp_path / "o.json",
               "--generator", "llm", "--llm", long + ".gguf")  # fmt: skip
    assert gguf.code in (1, 2) and "GGUF model not found" in gguf.err
    for result in (embedding, gguf):
        assert "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1


def test_an_argument_in_another_encoding_is_one_line(tmp_path):
    # bytes that are no UTF-8 reach Python as lone surrogates (surrogateescape)
    argv = [sys.executable, "-m", "maieutic", "ask", b"We should ban cars \xff downtown."]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "MAIEUTIC_HOME": str(tmp_path)}
    done = subprocess.run(argv, capture_output=True, env=env, timeout=120)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and "Traceback" not in err
    said = "maieutic: error: <argument>: not UTF-8 text (character 19 is a lone surrogate)"
    assert err.strip() == said


def test_a_lone_surrogate_in_a_json_file_is_one_line_naming_where(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"I1": {"cqs": [{"id": 0, "cq": "Why \\ud800 now?"}]}}')
    with pytest.raises(DataError) as caught:
        read_keyed_records(path, "intervention_id")
    assert str(caught.value) == (
        f"{path}: not UTF-8 text: a lone surrogate (a \\u escape of half a character) in "
        "I1.cqs[0].cq, at character 4"
    )
    pair = tmp_path / "pair.json"  # both halves: one character, read as it is
    pair.write_text('{"I1": {"cq": "Why \\ud83d\\ude00 now?"}}')
    assert read_keyed_records(pair, "intervention_id")["I1"]["cq"] == "Why \U0001f600 now?"


@pytest.mark.parametrize(
    "evaluator",
    [["--evaluator", "usefulness"], ["--evaluator", "sts", "--nae-fallback", "usefulness"]],
)
def test_a_submitted_question_with_a_lone_surrogate_is_refused(cli, tmp_path, evaluator):
    one_reference(tmp_path)
    (tmp_path / "s.json").write_text('{"I": {"cqs": [{"id": 0, "cq": "Why \\ud800 now?"}]}}')
    result = cli("evaluate", "cqs", "--data", tmp_path / "d.json", tmp_path / "s.json", *evaluator)
    assert result.code == 2 and "Traceback" not in result.err
    assert "s.json: not UTF-8 text: a lone surrogate" in result.err
