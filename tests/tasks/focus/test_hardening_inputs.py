"""Bad FOCUS CSVs: a header with no rows, a column named twice, a very long cell —
one line and exit 2, never a run over nothing and never a traceback."""

from __future__ import annotations

import csv
import json

import pytest

from maieutic.tasks.focus.data import MAX_ARGUMENT_CHARS, load_gold

HEADER = ["Argument", "category", "FSQType1", "FSQType2", "Span_FSQType1", "Span_FSQType2"]
ROW = ["We should ban cars because they pollute.", "clarity", "", "", "", ""]


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _run(cli, tmp_path, command, data):
    if command == "generate":
        return cli("generate", "focus", "--data", data, "--out", tmp_path / "out.jsonl")
    return cli("focus", "convert", data, tmp_path / "out.jsonl")


@pytest.mark.parametrize("command", ["generate", "convert"])
def test_a_header_only_file_is_refused(cli, tmp_path, command):
    data = _csv(tmp_path / "header.csv", HEADER, [])
    result = _run(cli, tmp_path, command, data)
    assert result.code == 2 and "no rows" in _one_line(result.err)
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("command", ["generate", "convert"])
def test_a_header_with_blank_rows_only_is_refused(cli, tmp_path, command):
    data = tmp_path / "blank.csv"
    data.write_text(",".join(HEADER) + "\n,,,,,\n\n", encoding="utf-8")
    result = _run(cli, tmp_path, command, data)
    assert result.code == 2 and "no rows" in _one_line(result.err)


@pytest.mark.parametrize("command", ["generate", "convert", "evaluate"])
def test_a_column_named_twice_is_refused(cli, tmp_path, command):
    data = _csv(tmp_path / "dup.csv", [*HEADER, "Span_FSQType1"], [[*ROW, "pollute"]])
    if command == "evaluate":
        result = cli("evaluate", "focus", "--gold", data, data)
    else:
        result = _run(cli, tmp_path, command, data)
    assert result.code == 2
    assert "column 'Span_FSQType1' appears twice" in _one_line(result.err)


def test_a_cell_over_the_csv_modules_limit_is_read(tmp_path):
    question = "Why? " * 60_000  # 300,000 characters, over csv's own 131,072 limit
    data = _csv(tmp_path / "long.csv", [*HEADER, "FSQQuestion1"], [[*ROW, question]])
    gold = load_gold(data)
    assert len(gold.items) == 1


def test_a_cell_over_the_old_field_limit_converts(cli, tmp_path):
    question = "Why? " * 200_000  # a million characters: was "field larger than field limit"
    data = _csv(tmp_path / "long.csv", [*HEADER, "FSQQuestion1"], [[*ROW, question]])
    result = cli("focus", "convert", data, tmp_path / "out.jsonl")
    assert result.code == 0, result.err
    [record] = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert record["argument"] == ROW[0]


def test_an_overlong_argument_is_one_line(cli, tmp_path):
    argument = "Cars pollute. " * (MAX_ARGUMENT_CHARS // 10)
    data = _csv(tmp_path / "long.csv", HEADER, [[argument, *ROW[1:]]])
    result = cli("focus", "convert", data, tmp_path / "out.jsonl")
    assert result.code == 2 and "Argument of" in _one_line(result.err)


UNCLOSED = (
    "Argument,category,FSQType1,FSQType2,Span_FSQType1,Span_FSQType2\n"
    '"Cars pollute,\nso we should ban them.",clarity,,,,\n'  # a quoted cell over two lines
    '"We should tax meat because it harms the climate.,clarity,,,,\n'
    "Schools should start later.,clarity,,,,\n"
)


@pytest.mark.parametrize("command", ["generate", "convert", "evaluate"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_unclosed_quote_is_refused_naming_its_line(cli, tmp_path, command, newline):
    data = tmp_path / "quote.csv"
    data.write_bytes(UNCLOSED.replace("\n", newline).encode())
    if command == "evaluate":
        result = cli("evaluate", "focus", "--gold", data, data)
    else:
        result = _run(cli, tmp_path, command, data)
    assert result.code == 2
    line = _one_line(result.err)
    assert f"{data}:4: a quote opens a cell that is never closed" in line
    assert not (tmp_path / "out.jsonl").exists()


def test_a_closed_quote_at_the_end_of_the_file_is_read(tmp_path):
    data = tmp_path / "closed.csv"
    data.write_text(UNCLOSED.replace("climate.,", 'climate.",'), encoding="utf-8")
    assert len(load_gold(data).items) == 3
    data.write_text(UNCLOSED.replace("climate.,", 'climate.",').rstrip("\n"), encoding="utf-8")
    assert len(load_gold(data).items) == 3
