"""A PDF's work is bounded before its text is extracted: too many pages, or content that
inflates past the limits, is refused with one line (exit 2) and no page is read; a PDF
whose text runs over the character limit stops being read where it crosses it."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import threading
import time
import zlib

import pytest

from maieutic.data import pdf as pdf_reader
from maieutic.data import pdf_bounds, pdf_work

TEXT = b"BT /F1 12 Tf 72 720 Td (The pump moves water through the pipes.) Tj ET\n"


def make_pdf(contents: list[bytes]) -> bytes:
    """A PDF with one page per content stream (each Flate-compressed, as writers do)."""
    count = len(contents)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, content in enumerate(contents):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
            b"<< /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        data = zlib.compress(content)
        objects.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(data), data)
        )
    return pdf_file(objects)


def pdf_file(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (numbered from 1; the first the catalog), with its xref."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def pages_read(monkeypatch):
    """The pages whose text was extracted (the reader's work, counted)."""
    read: list[object] = []
    extract = pdf_reader._page_text

    def counting(page):
        read.append(page)
        return extract(page)

    monkeypatch.setattr(pdf_reader, "_page_text", counting)
    return read


@pytest.fixture
def questions(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps(["What does the pump move?"]), encoding="utf-8")
    return path


def test_a_pdf_of_2000_short_pages_is_refused_before_any_page_is_read(
    cli, tmp_path, questions, pages_read
):
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(make_pdf([TEXT] * 2000))
    assert pdf.stat().st_size < 700_000  # small on disk (650 KB)
    for result in (cli("ask", pdf), cli("evaluate", "aura", pdf, questions)):
        assert result.code == 2
        assert _one_line(result.err) == (
            f"maieutic: error: {pdf}: the PDF has 2,000 pages, over the 500-page limit "
            "(split it, or raise MAIEUTIC_PDF_MAX_PAGES)"
        )
    assert pages_read == []


def test_the_page_limit_can_be_raised(monkeypatch, tmp_path, pages_read):
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(make_pdf([TEXT] * 12))
    monkeypatch.setattr(pdf_bounds, "MAX_PDF_PAGES", 10)
    with pytest.raises(Exception, match="12 pages, over the 10-page limit"):
        pdf_reader.read_pdf(pdf)
    monkeypatch.setattr(pdf_bounds, "MAX_PDF_PAGES", 12)
    assert "The pump moves water" in pdf_reader.read_pdf(pdf).text
    assert len(pages_read) == 12


def test_a_page_tree_that_understates_its_count_is_counted_when_walked(monkeypatch, tmp_path):
    pdf = tmp_path / "lying.pdf"
    pdf.write_bytes(make_pdf([TEXT] * 12).replace(b"/Count 12", b"/Count 1 "))
    monkeypatch.setattr(pdf_bounds, "MAX_PDF_PAGES", 10)
    with pytest.raises(Exception, match="12 pages, over the 10-page limit"):
        pdf_reader.read_pdf(pdf)


def test_a_compressed_bomb_is_refused_before_extraction(cli, tmp_path, pages_read):
    pdf = tmp_path / "bomb.pdf"
    pdf.write_bytes(make_pdf([TEXT, TEXT * 100_000]))  # page 2: 7 MB of text operators
    assert pdf.stat().st_size < 100_000
    result = cli("ask", pdf)
    assert result.code == 2
    assert _one_line(result.err) == (
        f"maieutic: error: {pdf}: page 2's content inflates to over 2 MB, the limit for "
        "one page (raise MAIEUTIC_PDF_MAX_CONTENT_MB, a page may hold a tenth of it)"
    )
    assert pages_read == []


def test_content_over_the_total_limit_is_refused_before_extraction(cli, tmp_path, pages_read):
    pdf = tmp_path / "heavy.pdf"
    pdf.write_bytes(make_pdf([TEXT * 27_000] * 12))  # 1.9 MB a page, 22.9 MB in all
    result = cli("ask", pdf)
    assert result.code == 2
    assert _one_line(result.err) == (
        f"maieutic: error: {pdf}: the PDF's content inflates to over 20 MB by page 11 "
        "(split it, or raise MAIEUTIC_PDF_MAX_CONTENT_MB)"
    )
    assert pages_read == []


def test_the_bomb_is_inflated_with_a_cap(monkeypatch):
    decoded: list[int] = []
    real = zlib.decompressobj

    class Counting:
        def __init__(self):
            self.inner = real()

        def decompress(self, data, cap):
            out = self.inner.decompress(data, cap)
            decoded.append(len(out))
            return out

    monkeypatch.setattr(pdf_work.zlib, "decompressobj", Counting)
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(make_pdf([TEXT * 400_000])))  # 28 MB
    with pytest.raises(Exception, match="page 1's content inflates"):
        pdf_bounds.check_content_size(reader.pages, "bomb.pdf")
    assert decoded and max(decoded) <= pdf_bounds.MAX_PAGE_CONTENT_BYTES + 1


def test_reading_stops_once_the_text_is_over_asks_limit(cli, monkeypatch, tmp_path, pages_read):
    from maieutic.ask import reading

    monkeypatch.setattr(reading, "MAX_ASK_CHARS", 20_000)
    pdf = tmp_path / "wordy.pdf"
    page = b"BT /F1 8 Tf 72 720 Td (%s) Tj ET" % (b"The pump moves water. " * 90)  # ~2,000
    pdf.write_bytes(make_pdf([page] * 40))
    result = cli("ask", pdf)
    assert result.code == 2
    line = _one_line(result.err)
    assert line.startswith(f"maieutic: error: {pdf}: the PDF's text is over the 20,000-")
    assert line.endswith("of 40 (split it, or raise MAIEUTIC_ASK_MAX_CHARS)")
    assert 10 <= len(pages_read) <= 12  # stopped where it crossed, not all 40 pages


def pid_read(text, path):
    """A reader that says which process read the upload."""
    return f"read by {os.getpid()}", path.name


def slow_read(text, path):
    """A reader that never finishes in time."""
    time.sleep(120)


@pytest.fixture
def web(tmp_path):
    from fastapi.testclient import TestClient

    from maieutic.web import Settings, create_app

    with TestClient(create_app(Settings()), base_url="http://127.0.0.1") as client:
        yield client


def test_an_uploaded_bomb_is_refused_with_one_line(web):
    bomb = make_pdf([TEXT * 100_000])
    page = web.post("/ask", files={"file": ("bomb.pdf", bomb)})
    assert page.status_code == 400
    assert "bomb.pdf: page 1&#39;s content inflates to over 2 MB" in page.text
    assert web.get("/healthz").json()["uploads_reading"] == 0


def test_an_uploaded_pdf_is_read_in_a_process_that_ends(monkeypatch, tmp_path):
    from maieutic.web import upload_reader

    monkeypatch.setattr(upload_reader, "_reader", pid_read)
    pdf = tmp_path / "essay.pdf"
    pdf.write_bytes(make_pdf([TEXT]))
    text, source = upload_reader.read_upload("", pdf)
    assert source == "essay.pdf" and text != f"read by {os.getpid()}"
    assert multiprocessing.active_children() == []  # gone, with its memory


def test_a_read_past_its_time_budget_is_stopped_and_says_so(monkeypatch, web):
    from maieutic.web import upload_reader

    monkeypatch.setattr(upload_reader, "_reader", slow_read)
    monkeypatch.setattr(upload_reader, "READ_SECONDS", 2)
    answer: list = []
    posting = threading.Thread(
        target=lambda: answer.append(web.post("/ask", files={"file": ("slow.pdf", b"%PDF")}))
    )
    posting.start()
    for _ in range(200):  # the state, not the clock: busy while the read runs
        if web.get("/healthz").json()["uploads_reading"] == 1:
            break
        time.sleep(0.05)
    else:
        pytest.fail("/healthz never showed the upload being read")
    posting.join()
    assert answer[0].status_code == 400
    assert (
        "slow.pdf: reading the PDF took over 2 s and was stopped (split it, or raise "
        "MAIEUTIC_WEB_READ_SECONDS)" in answer[0].text
    )
    assert multiprocessing.active_children() == []
    assert web.get("/healthz").json()["uploads_reading"] == 0


def test_a_pdf_whose_encryption_fails_in_the_reader_itself_says_it_is_encrypted(
    monkeypatch, tmp_path
):
    # AES-256 (R5/R6): without the cryptography library pypdf fails inside PdfReader(),
    # before there is a reader to ask whether the file is encrypted
    import pypdf
    from pypdf.errors import DependencyError

    from maieutic.errors import DataError

    def needs_cryptography(stream, *args, **kwargs):
        raise DependencyError("cryptography>=3.1 is required for AES algorithm")

    monkeypatch.setattr(pypdf, "PdfReader", needs_cryptography)
    locked = tmp_path / "aes256.pdf"
    locked.write_bytes(b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer << /Encrypt 2 0 R >>\n%%EOF\n")
    with pytest.raises(DataError) as caught:
        pdf_reader.read_pdf(locked)
    assert str(caught.value) == f"{locked}: {pdf_reader.ENCRYPTED_PDF}"
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\nnot encrypted\n%%EOF\n")
    with pytest.raises(DataError, match="not a readable PDF"):
        pdf_reader.read_pdf(damaged)


def test_soft_hyphens_do_not_count_toward_the_early_stop(monkeypatch, tmp_path):
    # a page's words broken with (invisible) soft hyphens every two letters: 2/3 visible
    words = " ".join(["pu\u00admp\u00adin\u00adg"] * 100) + "."
    monkeypatch.setattr(pdf_reader, "_page_text", lambda page: words)
    pdf = tmp_path / "soft.pdf"
    pdf.write_bytes(make_pdf([TEXT] * 10))
    visible = len(words.replace("\u00ad", "")) * 10
    text = pdf_reader.read_pdf(pdf, visible + 100, "MAIEUTIC_ASK_MAX_CHARS").text
    assert "\u00ad" not in text and len(text) <= visible + 100
