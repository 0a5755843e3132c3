"""Forms a page draws count toward its content as the text extractor reads them: once
per draw (``/Fm Do`` a thousand times reads the form a thousand times), forms inside
forms too, and a form in the resources that no page draws not at all; forms the
extractor skips (no resources, no text operator) cost (almost) nothing, and no
spelling of a draw hides it."""

from __future__ import annotations

import zlib

import pytest

from maieutic.data import pdf as pdf_reader
from maieutic.errors import DataError
from tests.test_pdf_bounds import TEXT, pdf_file

FORM_TEXT = TEXT * 3_000  # about 216 KB of text operators, 1 KB compressed


def _stream(dictionary: bytes, content: bytes) -> bytes:
    data = zlib.compress(content)
    return b"<< %s /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (
        dictionary, len(data), data
    )  # fmt: skip


def _form(content: bytes, resources: bytes = b"<< /Font << /F1 3 0 R >> >>") -> bytes:
    return _stream(
        b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources " + resources, content
    )


def forms_pdf(pages: list[bytes], forms: list[tuple[bytes, bytes]], xobjects: bytes) -> bytes:
    """Pages (content streams) sharing one resource dictionary whose /XObject entry is
    ``xobjects`` (``/Fm1 6 0 R …``: forms are objects 6, 7, … in the order given, each
    ``(content, resources)``); objects 1–5 are the catalog, page tree, font,
    resources and a spare."""
    first_page = 6 + len(forms)
    kids = " ".join(f"{first_page + 2 * i} 0 R" for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Font << /F1 3 0 R >> /XObject << " + xobjects + b" >> >>",
        b"<< >>",
    ]
    objects += [_form(content, resources) for content, resources in forms]
    for i, content in enumerate(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 4 0 R "
            b"/Contents %d 0 R >>" % (first_page + 2 * i + 1)
        )
        objects.append(_stream(b"", content))
    return pdf_file(objects)


FONT = b"<< /Font << /F1 3 0 R >> >>"


def _read(tmp_path, data: bytes) -> str:
    path = tmp_path / "forms.pdf"
    path.write_bytes(data)
    return pdf_reader.read_pdf(path).text


def test_a_form_drawn_once_is_read_and_counted_once(tmp_path):
    data = forms_pdf([TEXT + b"/Fm1 Do\n"], [(TEXT, FONT)], b"/Fm1 6 0 R")
    assert _read(tmp_path, data).count("The pump moves water") == 2


def test_a_small_form_drawn_many_times_counts_at_every_draw(tmp_path):
    # 216 KB drawn 20 times: 4.3 MB for the extractor, over the 2 MB a page may hold,
    # from a file of a few kilobytes whose streams all inflate to under 300 KB
    data = forms_pdf([b"/Fm1 Do\n" * 20], [(FORM_TEXT, FONT)], b"/Fm1 6 0 R")
    assert len(data) < 10_000
    with pytest.raises(DataError, match=r"page 1's content inflates to over 2 MB with the forms"):
        _read(tmp_path, data)


def test_forms_inside_forms_multiply(tmp_path):
    # the page draws Fm1 four times; Fm1 draws Fm2 four times: Fm2 is read 16 times
    inner = (FORM_TEXT, FONT)
    outer = (b"/Fm2 Do\n" * 4, b"<< /Font << /F1 3 0 R >> /XObject << /Fm2 7 0 R >> >>")
    data = forms_pdf([b"/Fm1 Do\n" * 4], [outer, inner], b"/Fm1 6 0 R")
    with pytest.raises(DataError, match=r"page 1's content inflates to over 2 MB"):
        _read(tmp_path, data)
    once = forms_pdf([b"/Fm1 Do\n"], [(b"/Fm2 Do\n", outer[1]), inner], b"/Fm1 6 0 R")
    assert _read(tmp_path, once).count("The pump moves water") == 3_000  # read, not refused


def test_forms_in_shared_resources_that_a_page_does_not_draw_cost_it_nothing(tmp_path):
    # ten large figures in one resource dictionary every page shares; each page draws one
    forms = [(FORM_TEXT, FONT) for _ in range(10)]  # 2.2 MB together, 216 KB each
    names = b" ".join(b"/Fm%d %d 0 R" % (i, 6 + i) for i in range(10))
    pages = [TEXT + b"/Fm%d Do\n" % i for i in range(10)]
    text = _read(tmp_path, forms_pdf(pages, forms, names))
    assert text.count("The pump moves water") == 10 * (1 + 3_000)


def test_a_form_that_draws_itself_is_read_once_as_the_extractor_reads_it(tmp_path):
    # the extractor skips a cyclic draw: the bounds do not count it either
    looping = (TEXT + b"/Fm1 Do\n", b"<< /Font << /F1 3 0 R >> /XObject << /Fm1 6 0 R >> >>")
    data = forms_pdf([b"/Fm1 Do\n"], [looping], b"/Fm1 6 0 R")
    assert _read(tmp_path, data).count("The pump moves water") == 1


def test_forms_nested_past_any_real_document_are_refused(tmp_path):
    depth = 102  # Fm0 draws Fm1 … draws Fm101: far deeper than documents nest figures
    forms = [
        (b"/Fm%d Do\n" % (i + 1), b"<< /XObject << /Fm%d %d 0 R >> >>" % (i + 1, 7 + i))
        for i in range(depth - 1)
    ] + [(TEXT, FONT)]
    with pytest.raises(DataError, match=r"inflates to over 2 MB"):
        _read(tmp_path, forms_pdf([b"/Fm0 Do\n"], forms, b"/Fm0 6 0 R"))


@pytest.mark.parametrize(
    "draw",
    [
        pytest.param(b"/Fm#31 Do\n", id="an escaped name"),
        pytest.param(b"/Fm1 %a comment\nDo\n", id="a comment before Do"),
        pytest.param(b"/Fm1\nDo ", id="a line break before Do"),
    ],
)
def test_no_spelling_of_a_draw_hides_it(tmp_path, draw):
    data = forms_pdf([draw * 20], [(FORM_TEXT, FONT)], b"/Fm1 6 0 R")
    with pytest.raises(DataError, match=r"page 1's content inflates to over 2 MB with the forms"):
        _read(tmp_path, data)


def test_a_name_in_utf8_is_found(tmp_path):
    data = forms_pdf([b"/Fm\xc3\xa9 Do\n" * 20], [(FORM_TEXT, FONT)], b"/Fm\xc3\xa9 6 0 R")
    with pytest.raises(DataError, match=r"with the forms it draws"):
        _read(tmp_path, data)


def test_do_inside_the_text_is_no_draw(tmp_path):
    # questions that start with "Do", beside a large form no page draws
    page = b"BT /F1 12 Tf 72 720 Td (Do you agree? Do it now) Tj [(Do)] TJ ET\n" * 50
    text = _read(tmp_path, forms_pdf([page], [(FORM_TEXT * 5, FONT)], b"/Fm1 6 0 R"))
    assert text.count("Do you agree?") == 50


def test_two_forms_drawing_each_other_count_at_every_draw(tmp_path):
    # Fm1 holds the text and draws Fm2; Fm2 draws Fm1: each draw of Fm2 reads Fm1 again
    fm1 = (FORM_TEXT + b"/Fm2 Do\n", b"<< /Font << /F1 3 0 R >> /XObject << /Fm2 7 0 R >> >>")
    fm2 = (b"/Fm1 Do\n", b"<< /Font << /F1 3 0 R >> /XObject << /Fm1 6 0 R >> >>")
    data = forms_pdf([b"/Fm1 Do\n" + b"/Fm2 Do\n" * 12], [fm1, fm2], b"/Fm1 6 0 R /Fm2 7 0 R")
    with pytest.raises(DataError, match=r"with the forms it draws"):
        _read(tmp_path, data)


def test_a_marker_form_without_resources_costs_nothing_however_often_drawn(tmp_path):
    # a plot's markers: one small path form with no resources, drawn 20,000 times
    marker = (b"0 -3 m 3 0 l 0 3 l -3 0 l h f\n" * 12, b"<< >>")
    page = TEXT + b"q 1 0 0 1 10 10 cm /M0 Do Q\n" * 20_000
    text = _read(tmp_path, forms_pdf([page], [marker], b"/M0 6 0 R"))
    assert text.count("The pump moves water") == 1


def test_a_figure_form_without_text_counts_a_twentieth_a_draw(tmp_path):
    figure = (b"0 0 m 100 100 l S\n" * 10_000, FONT)  # 190 KB of paths, no text operator
    page = TEXT + b"/Fm1 Do\n" * 100  # 19 MB if read at every draw, 950 KB scanned
    assert _read(tmp_path, forms_pdf([page], [figure], b"/Fm1 6 0 R")).count("pump") == 1


def test_a_dense_scatter_plot_is_read(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    points = np.random.default_rng(0).random((2, 10_000))
    figure, axes = plt.subplots()
    axes.scatter(points[0], points[1])
    axes.plot(points[0][:5_000], points[1][:5_000], "o")
    axes.set_title("Water pumped per hour")
    path = tmp_path / "scatter.pdf"
    figure.savefig(path)
    plt.close(figure)
    assert "Water pumped per hour" in pdf_reader.read_pdf(path).text
