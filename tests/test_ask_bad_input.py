"""What ``ask`` (and the commands around it) do with hostile or odd input: rich markup
and HTML in the text, names of missing files, endless standard input, a damaged PDF,
languages other than English, documents too long or too bare to assess — one line and
the right exit code, or a warning with every other result kept."""

from __future__ import annotations

import io
import json
import socket
import sys

import pytest

from maieutic.ask import reading
from maieutic.errors import DataError
from maieutic.language.english import looks_english


def test_names_of_missing_files_and_folders_are_refused(cli, tmp_path):
    missing = cli("ask", tmp_path / "essay.md")
    assert missing.code == 2 and "essay.md: file not found" in missing.err
    assert cli("ask", "op-ed.txt").code == 2  # a bare file name, too
    folder = cli("ask", tmp_path)
    assert folder.code == 2 and "is a directory" in folder.err


def test_endless_standard_input_is_refused(monkeypatch):
    monkeypatch.setattr(reading, "MAX_ASK_CHARS", 1000)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"We should. " * 1000)))
    with pytest.raises(DataError, match="standard input is over the 1,000-character limit"):
        reading.read_input("-")


def test_a_damaged_pdf_is_one_line(cli, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = plt.figure()
    figure.text(0.1, 0.5, "We should ban cars because pollution harms children.")
    good = tmp_path / "good.pdf"
    figure.savefig(good)
    plt.close(figure)
    damaged = tmp_path / "damaged.pdf"
    data = bytearray(good.read_bytes())
    damaged.write_bytes(bytes(data[: len(data) // 3]))
    result = cli("ask", damaged)
    assert result.code == 2 and "damaged.pdf: not a readable PDF" in result.err
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("Wir sollten Autos in der Innenstadt verbieten, weil die Luft Kindern schadet.", False),
        ("我们应该禁止市中心的汽车，因为污染会导致儿童哮喘。", False),
        ("Nous devons interdire les voitures dans le centre parce que la pollution nuit.", False),
        ("We should ban cars because pollution harms children.", True),
        ("The café serves crème brûlée, and the naïve résumé is fine.", True),
    ],
)
def test_language_check_on_short_texts(text, english):
    assert looks_english(text) is english


def test_quiet_is_accepted_after_the_subcommand(cli):
    assert cli("ask", "   ", "--quiet").code == 2  # refused for the empty text, not the option


def test_a_serve_port_in_use_is_a_runtime_error(cli):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = cli("serve", "--port", taken.getsockname()[1])
    assert result.code == 1 and "cannot listen on 127.0.0.1" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_deeply_nested_json_is_refused_by_report(cli, tmp_path):
    nested = tmp_path / "deep.json"
    nested.write_text('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = cli("report", nested, "--out", tmp_path / "r.html")
    assert result.code == 2 and "nested too deeply" in result.err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.slow
def test_markup_and_html_in_the_text_stay_text(cli):
    text = (
        "We should [bold]ban cars[/bold] [/x] downtown <script>alert(1)</script> because "
        "<!-- pollution --> harms children."
    )
    terminal = cli("ask", text)
    assert terminal.code == 0, terminal.err
    assert "[bold]ban cars[/bold] [/x]" in terminal.out  # printed as written
    markdown = cli("ask", text, "--format", "markdown").out
    assert "<script>" not in markdown and "&lt;script&gt;" in markdown
    assert "<!--" not in markdown and "\\[bold\\]" in markdown


@pytest.mark.slow
def test_documents_too_bare_or_too_long_to_assess_keep_the_other_parts(cli, tmp_path):
    bare = cli("ask", "Cars pollute.", "--document", "--format", "json")
    assert bare.code == 0, bare.err
    data = json.loads(bare.out)
    # two words claim too little to challenge: fewer critical questions, said in a note
    assert data["aura"] is None and len(data["cqs"]) < 3
    assert any("instead of 3" in w for w in data["warnings"])
    assert any("no question set assessed" in w for w in data["warnings"])
    long_text = tmp_path / "long.md"
    paragraph = "The city should plant trees because shade cools the streets in summer. "
    long_text.write_text("\n\n".join([paragraph * 4] * 200))  # 57,600 characters
    result = cli("ask", long_text, "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["aura"] is None and len(data["cqs"]) == 3
    assert any("over the 50,000" in w for w in data["warnings"])
