"""Bad AURA inputs: one line and exit 2, never a silent score of nothing."""

from __future__ import annotations

import importlib.util
import io
import json

import pytest

from maieutic.tasks.aura import data as aura_data
from maieutic.tasks.aura.data import read_questions
from tests.fake_server import FakeOpenAIServer

DOC = "The pump moves water through the pipes every morning. The filter is cleaned monthly.\n"
HEBREW = "הממשלה החליטה להעלות את המסים בשנה הבאה. האזרחים מחו נגד ההחלטה בכל הערים.\n"


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def doc(tmp_path):
    path = tmp_path / "doc.md"
    path.write_text(DOC, encoding="utf-8")
    return path


def _generate(cli, tmp_path, document):
    with FakeOpenAIServer() as server:
        result = cli("generate", "aura", "--document", document, "--out", tmp_path / "q.json",
                     "--base-url", server.base_url, "--llm", "m")  # fmt: skip
    return result, server.requests


@pytest.mark.parametrize("content", ["", "  \n\n\t\n"])
def test_generate_refuses_an_empty_document(cli, tmp_path, content):
    document = tmp_path / "empty.md"
    document.write_text(content, encoding="utf-8")
    result, requests = _generate(cli, tmp_path, document)
    assert result.code == 2
    assert "the document has no text" in _one_line(result.err)
    assert not requests and not (tmp_path / "q.json").exists()


def test_generate_refuses_a_document_of_only_headings(cli, tmp_path):
    document = tmp_path / "headings.md"
    document.write_text("# One\n## Two\n", encoding="utf-8")
    result, requests = _generate(cli, tmp_path, document)
    assert result.code == 2 and "no content" in _one_line(result.err) and not requests


def test_generate_has_the_size_limit_of_evaluate(cli, tmp_path):
    assert aura_data.MAX_DOCUMENT_CHARS == 2_000_000  # the one limit, in data.py
    document = tmp_path / "big.txt"
    document.write_text("The valve keeps the pressure steady. " * 60_000, encoding="utf-8")
    result, requests = _generate(cli, tmp_path, document)
    assert result.code == 2 and not requests  # refused before any request
    assert "over the 2,000,000 limit" in _one_line(result.err)
    questions = tmp_path / "q.txt"
    questions.write_text("What keeps the pressure steady?\n", encoding="utf-8")
    scored = cli("evaluate", "aura", document, questions)
    assert scored.code == 2 and "over the 2,000,000 limit" in _one_line(scored.err)


@pytest.mark.parametrize(
    ("name", "content"),
    [("empty.json", "[]"), ("blank.json", '["", "  "]'), ("empty.txt", "\n \n"),
     ("none.json", '{"questions": []}')],
)  # fmt: skip
def test_evaluate_refuses_a_set_with_no_questions(cli, tmp_path, doc, name, content):
    questions = tmp_path / name
    questions.write_text(content, encoding="utf-8")
    result = cli("evaluate", "aura", doc, questions)
    assert result.code == 2
    assert "no questions in the set" in _one_line(result.err)


def test_an_empty_set_inside_the_document_json_is_refused(cli, tmp_path):
    document = tmp_path / "sample.json"
    document.write_text(json.dumps({"passage": DOC, "questions1": []}), encoding="utf-8")
    result = cli("evaluate", "aura", document)
    assert result.code == 2
    assert "no questions in the set 'questions1'" in _one_line(result.err)


def test_the_questions_object_is_the_documented_json_shape(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"questions": ["What moves water?", "Why?"]}), encoding="utf-8")
    assert read_questions(path) == ["What moves water?", "Why?"]


@pytest.mark.parametrize(
    ("name", "content"),
    [("q.txt", '{"questions": ["What moves water?", "Why?"]}'),
     ("q.txt", '[\n  "What moves water?",\n  "Why?"\n]'),
     ("q.jsonl", '{"question": "What moves water?"}\n{"question": "Why?"}\n'),
     ("q.json", '{"items": ["What moves water?"]}')],
)  # fmt: skip
def test_json_that_is_not_a_question_set_is_refused_naming_the_shape(cli, tmp_path, doc, name,
                                                                     content):  # fmt: skip
    questions = tmp_path / name
    questions.write_text(content, encoding="utf-8")
    result = cli("evaluate", "aura", doc, questions)
    assert result.code == 2
    assert '{"questions": [...]}' in _one_line(result.err)


def test_a_text_set_with_brackets_is_still_questions(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text("[Intro] What moves water?\nWhy clean it?\n", encoding="utf-8")
    assert read_questions(path) == ["[Intro] What moves water?", "Why clean it?"]


def test_hebrew_is_refused_as_an_unsupported_language(cli, tmp_path):
    document = tmp_path / "he.md"
    document.write_text(HEBREW, encoding="utf-8")
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps(["מה החליטה הממשלה?"]), encoding="utf-8")
    result = cli("evaluate", "aura", document, questions)
    assert result.code == 2
    line = _one_line(result.err)
    assert "language is not supported" in line and "no content" not in line
    assert str(document) in line


def _qgeval(tmp_path, rating: str):
    passage = json.dumps(DOC)
    text = (
        f'[{{"id": "p1", "passage": {passage}, "questions": ['
        f'{{"prediction": "What moves water?", "source": "SQuAD_x", "answerability": 3.0}},'
        f'{{"prediction": "Why clean it?", "source": "SQuAD_y", "answerability": {rating}}}]}}]'
    )
    path = tmp_path / "qgeval.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("rating", ["NaN", "Infinity", "-Infinity", "99", "0", "true", '"3"'])
def test_a_qgeval_rating_off_the_scale_is_refused(cli, tmp_path, rating):
    result = cli("meta-eval", "aura", "--qgeval", _qgeval(tmp_path, rating))
    assert result.code == 2
    line = _one_line(result.err)
    assert "[0].questions[1].answerability" in line and "from 1 to 3" in line


def test_qgeval_ratings_on_the_scale_are_read(tmp_path):
    from maieutic.tasks.aura.qgeval import load_qgeval

    [item] = load_qgeval(_qgeval(tmp_path, "1"))
    assert [q["answerability"] for q in item["questions"]] == [3.0, 1]


def _aes_pdf() -> bytes:
    """A one-page PDF encrypted with AES-128 (/V 4 /R 4, crypt filter /AESV2) whose
    user password is empty. pypdf writes AES only with ``cryptography``, so the file is
    written here: the /O and /U entries of an RC4-128 file (the same key derivation
    as for AES-128, and the same for R 3 and R 4) with the crypt filter switched to
    AESV2. Opening it works; decrypting its content stream is what needs AES."""
    from pypdf import PdfReader, PdfWriter

    rc4 = PdfWriter()
    rc4.add_blank_page(200, 200)
    rc4.encrypt("", "owner", algorithm="RC4-128")
    buffer = io.BytesIO()
    rc4.write(buffer)
    reader = PdfReader(buffer)
    entry = reader.trailer["/Encrypt"].get_object()
    owner, user = entry["/O"].original_bytes.hex(), entry["/U"].original_bytes.hex()
    ident = reader.trailer["/ID"][0].original_bytes.hex()
    font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
        f"/Resources << /Font << /F1 {font} >> >> >>",
        "<< /Length 32 >>\nstream\n" + "A" * 32 + "\nendstream",  # an IV and one block
        f"<< /Filter /Standard /V 4 /R 4 /Length 128 /P {int(entry['/P'])} /O <{owner}> "
        f"/U <{user}> /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> "
        "/StmF /StdCF /StrF /StdCF >>",
    ]
    out = bytearray(b"%PDF-1.6\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Encrypt 5 0 R "
        f"/ID [<{ident}> <{ident}>] >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def _password_pdf() -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    writer.encrypt("secret", "owner", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


ENCRYPTED = "the PDF is encrypted, and encrypted PDFs are not read"


@pytest.mark.parametrize("make", [_aes_pdf, _password_pdf])
def test_an_encrypted_pdf_is_refused_with_one_line(cli, tmp_path, doc, make):
    if make is _aes_pdf and importlib.util.find_spec("cryptography") is not None:
        pytest.skip("cryptography is installed: pypdf decrypts AES itself")
    pdf = tmp_path / "locked.pdf"
    pdf.write_bytes(make())
    questions = tmp_path / "q.txt"
    questions.write_text("What moves water?\n", encoding="utf-8")
    for result in (cli("ask", pdf), cli("evaluate", "aura", pdf, questions)):
        assert result.code == 2
        line = _one_line(result.err)
        assert line.startswith(f"maieutic: error: {pdf}: {ENCRYPTED}; save an unencrypted")


def test_an_encrypted_pdf_upload_is_refused_with_the_same_line(tmp_path):
    if importlib.util.find_spec("cryptography") is not None:
        pytest.skip("cryptography is installed: pypdf decrypts AES itself")
    from fastapi.testclient import TestClient

    from maieutic.web import Settings, create_app

    with TestClient(create_app(Settings()), base_url="http://127.0.0.1") as client:
        page = client.post("/ask", files={"file": ("locked.pdf", _aes_pdf())})
    assert page.status_code == 400
    assert f"locked.pdf: {ENCRYPTED}" in page.text and "DependencyError" not in page.text


def test_an_rc4_pdf_that_opens_without_a_password_is_still_read(tmp_path):
    from pypdf import PdfReader, PdfWriter

    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(4, 2))
    figure.text(0.05, 0.5, "The pump moves water every morning.")
    figure.savefig(tmp_path / "plain.pdf")
    plt.close(figure)
    writer = PdfWriter(clone_from=PdfReader(tmp_path / "plain.pdf"))
    writer.encrypt("", "owner", algorithm="RC4-128")
    writer.write(tmp_path / "rc4.pdf")
    assert "The pump moves water" in aura_data.read_pdf(tmp_path / "rc4.pdf").text


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("array.md", '["a", "b", {"x": 1}]\n'),
        ("numbers.txt", "12 34 56\n7.5, 8.25\n"),
        ("word.md", "Pump\n"),
        ("table.md", "| a | b |\n|---|---|\n| 1 | 2 |\n"),
        ("code.md", "```\nx = 1\n```\n"),
        ("he.md", HEBREW),
    ],
    ids=["json-array", "numbers", "one-word", "table", "code", "hebrew"],
)
def test_generate_refuses_what_evaluate_refuses_with_the_same_line(cli, tmp_path, name, content):
    document = tmp_path / name
    document.write_text(content, encoding="utf-8")
    questions = tmp_path / "set.txt"
    questions.write_text("What moves water?\n", encoding="utf-8")
    scored = cli("evaluate", "aura", document, questions)
    assert scored.code == 2
    result, requests = _generate(cli, tmp_path, document)
    assert result.code == 2 and not requests
    assert _one_line(result.err) == _one_line(scored.err)
    assert not (tmp_path / "q.json").exists()
