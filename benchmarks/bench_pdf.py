"""What reading a PDF costs per page: milliseconds a page and peak memory.

    python benchmarks/bench_pdf.py [--pages 10 100 500]

For each size, a fresh process builds a PDF of that many short pages (one line of
text each, Flate-compressed as writers do) and reads it with ``maieutic``'s reader
(``maieutic.data.pdf.read_pdf``: the bounds checks, then pypdf's plain and laid-out
extraction of every page, then reflowing); it prints the time of the bounds checks
alone, of the whole read, per page, and the process's peak resident memory.
"""

from __future__ import annotations

import argparse
import io
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

LINE = b"BT /F1 12 Tf 72 720 Td (Page %d: the pump moves water through the pipes.) Tj ET"


def make_pdf(count: int) -> bytes:
    """A PDF of ``count`` one-line pages."""
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i in range(count):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
            b"<< /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        data = zlib.compress(LINE % i)
        objects.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(data), data)
        )
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1)
    return bytes(out + b"startxref\n%d\n%%%%EOF\n" % xref)


def measure(count: int) -> None:
    """Read a ``count``-page PDF once in this process and print its figures."""
    from pypdf import PdfReader

    from maieutic.data import pdf_bounds
    from maieutic.data.pdf import read_pdf

    data = make_pdf(count)
    path = Path(tempfile.mkdtemp()) / "pages.pdf"
    path.write_bytes(data)
    start = time.perf_counter()
    reader = PdfReader(io.BytesIO(data))
    pdf_bounds.check_page_count(len(reader.pages), str(path))
    pdf_bounds.check_content_size(reader.pages, str(path))
    checks = time.perf_counter() - start
    start = time.perf_counter()
    read_pdf(path)
    whole = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        f"{count:>5} pages  {len(data) / 1024:>7.0f} KiB  open+checks {checks * 1000:>7.0f} ms  "
        f"read {whole:>6.2f} s  {whole * 1000 / count:>6.1f} ms/page  peak RSS {peak:>5.0f} MiB",
        flush=True,
    )


def main() -> None:
    """Measure each size in a fresh process (so each peak is its own)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child's size
    args = parser.parse_args()
    if args.one:
        measure(args.one)
        return
    for count in args.pages:
        subprocess.run([sys.executable, __file__, "--one", str(count)], check=True)


if __name__ == "__main__":
    main()
