"""A PDF's text layer is reflowed into the paragraphs of the text it was printed from:
``maieutic ask`` and AURA read a printed PDF as they read its ``.txt``; the reflow rules
one by one (hyphens, wrapped lines, paragraph breaks, headings, lists, page numbers)."""

from __future__ import annotations

import json
import textwrap

import pytest

from maieutic.data.reflow import reflow, reflow_pages, respace
from tests.conftest import FIXTURES

PDF_DIR = FIXTURES / "pdf"
TEXT = PDF_DIR / "libraries.txt"
PRINTED = sorted(PDF_DIR.glob("libraries-*.pdf"))
WIDTH = 50


def printed(*paragraphs: str) -> str:
    """Paragraphs as a printer's text layer has them: wrapped at ``WIDTH`` characters,
    no blank line between them."""
    return "\n".join(line for p in paragraphs for line in textwrap.wrap(p, WIDTH))


def test_the_fixtures_keep_the_printed_lines():
    # what the reflow undoes is really in the text layers: otherwise the tests below
    # would pass on any reader
    from pypdf import PdfReader

    assert {p.stem for p in PRINTED} == {
        "libraries-groff",
        "libraries-groff-kerned",
        "libraries-chromium",
    }
    for path in PRINTED:
        pages = [page.extract_text() for page in PdfReader(path).pages]
        assert len(pages) == 2
        assert "its historic budget debate with a well-known habit" not in pages[0]
        assert not pages[0].rstrip().endswith((".", "!", "?"))  # a sentence runs on
        assert "\n\n" not in pages[0].strip()  # no blank line between paragraphs
    groff = [p.extract_text() for p in PdfReader(PDF_DIR / "libraries-groff.pdf").pages]
    assert "li-\nbraries" in groff[0] and groff[1].startswith("-2-")
    # kerning on: the plain reader splits words where the typesetter kerned
    kerned = PdfReader(PDF_DIR / "libraries-groff-kerned.pdf").pages
    assert "historic b udget" in kerned[0].extract_text()


def test_word_gaps_the_layout_lacks_are_removed():
    plain = "1\nThe Case f or K eeping Public\nLi braries open a t night\nFig 2"
    layout = "The  Case for Keeping   Public\nLibraries open at   night\n  1\nFig2 x"
    # lines in another order are matched by their glyphs; a line the layout does not
    # hold as such keeps its gaps, and no gap is ever added
    assert respace(plain, layout=layout) == (
        "1\nThe Case for Keeping Public\nLibraries open at night\nFig 2"
    )
    assert respace(plain, layout="") == plain


@pytest.mark.parametrize("path", PRINTED, ids=lambda p: p.stem)
def test_a_printed_pdf_reads_as_its_text_file(path):
    from maieutic.ask.reading import read_input

    assert read_input(str(path))[0] == read_input(str(TEXT))[0]


@pytest.mark.parametrize("path", PRINTED, ids=lambda p: p.stem)
def test_aura_gets_the_same_units_from_the_pdf(path):
    from maieutic.tasks.aura.data import blocks, build_units, read_document

    def units(document):
        return [(u.text, u.type, u.subtype, u.block) for u in build_units(blocks(document.text))]

    pdf, text = read_document(path), read_document(TEXT)
    assert units(pdf) == units(text)
    assert len([u for u in units(pdf) if u[1] == "necessary"]) == 13  # 12 sentences and the title
    # the pages stay pages: each reflowed on its own, without its page number
    assert len(pdf.pages) == 2
    assert pdf.pages[0].startswith("The Case for Keeping Public Libraries Open Late\n\nOur city")
    assert pdf.pages[1].endswith("switch off its lights at five o'clock.")
    assert "\n" not in pdf.pages[1].split("\n\n")[0]  # the run-on sentence, one line
    whole = text.text.strip()
    assert all(part in whole for page in pdf.pages for part in page.split("\n\n"))


@pytest.mark.slow
@pytest.mark.parametrize("path", PRINTED, ids=lambda p: p.stem)
def test_ask_asks_the_same_questions_about_the_pdf(cli, path):
    expected = json.loads(cli("ask", TEXT, "--format", "json").out)
    result = cli("ask", path, "--format", "json")
    assert result.code == 0, result.err
    got = json.loads(result.out)
    assert got["cqs"] == expected["cqs"] and len(got["cqs"]) == 3
    assert got["focus"] == expected["focus"] and got["focus"]  # same text, same spans
    for label in got["focus"]:
        assert got["text"][label["start"] : label["end"]] == label["span"]
    assert [q["question"] for q in got["aura"]["questions"]] == [
        q["question"] for q in expected["aura"]["questions"]
    ]
    assert got["aura"]["scores"] == expected["aura"]["scores"]
    assert got["aura"]["scores"]["answerability"] > 0 and got["aura"]["scores"]["coverage"] > 0


def test_hyphenated_words_are_joined():
    page = "\n".join(
        [
            "Our city is entering its historic budget debate",
            "with a familiar habit: when money is short, the li-",
            "braries lose their evening hours first, which is a",
            "mistake that the council keeps on making each year.",
        ]
    )
    assert reflow(page) == (
        "Our city is entering its historic budget debate with a familiar habit: when money "
        "is short, the libraries lose their evening hours first, which is a mistake that "
        "the council keeps on making each year."
    )
    # a soft hyphen left at a line end goes too, and so does one inside a line
    soft = page.replace("li-\n", "li\u00ad\n").replace("budget", "bud\u00adget")
    assert reflow(soft) == reflow(page)


def test_a_compound_keeps_its_hyphen_when_the_document_writes_it_so():
    lines = [
        "The report names a habit that is now well-known to",
        "every member of the council, and it is a habit that",
        "has grown into a long-standing and rather well-",
        "known problem for the readers of the city library.",
    ]
    assert "rather well-known problem" in reflow("\n".join(lines))
    # written once, broken at the line end: a printer's hyphen, the documented choice
    alone = [lines[0].replace("well-known", "familiar"), *lines[1:]]
    assert "rather wellknown problem" in reflow("\n".join(alone))
    # before a capital or a digit the hyphen stays, and no space is added
    other = [
        "The council has taken a position that many call anti-",
        "American, and it postponed the vote until the COVID-",
        "19 emergency had ended and the libraries reopened.",
        *lines[1:],
    ]
    assert "call anti-American, and" in reflow("\n".join(other))
    assert "the COVID-19 emergency" in reflow("\n".join(other))


def test_wrapped_lines_join_with_one_space_and_paragraphs_stay():
    first = (
        "Evening hours serve the people who cannot visit during the working day. "
        "Closing at five saves a little money, but it harms the residents with the "
        "fewest alternatives."
    )
    second = (
        "Supporters of the cuts argue that most people now read on their phones. "
        "The evidence points the other way, and the librarians can show it."
    )
    assert reflow(printed(first, second)) == f"{first}\n\n{second}"
    # a blank line in the layer is a paragraph break too; runs of spaces become one
    spaced = printed(first).replace(" ", "   ", 3) + "\n\n" + printed(second)
    assert reflow(spaced) == f"{first}\n\n{second}"
    # a full line that ends a sentence does not end the paragraph
    full = [
        "The council met on Monday to discuss the evening",
        "hours of the libraries, and it decided nothing new.",
        "The members will meet again in the spring to vote",
        "on the budget.",
    ]
    assert reflow("\n".join(full)) == " ".join(full)
    # a stray blank line inside a sentence does not split it
    assert reflow("\n\n".join(full[:2])) == " ".join(full[:2])


def test_headings_and_list_items_keep_their_lines():
    body = (
        "The council should protect the evening hours and look for savings elsewhere, "
        "because the people who use them have nowhere else to go. It can start with:"
    )
    page = "\n".join(
        [
            "Why evenings matter",
            *textwrap.wrap(body, WIDTH),
            "- keeping the doors open until nine on every week",
            "  evening, all year round;",
            "- a second librarian at the desk.",
            "Budget",
            "The cost is less than one percent of the budget,",
            "and the council has never said otherwise in any of",
            "its reports.",
        ]
    )
    assert reflow(page) == (
        f"Why evenings matter\n\n{body}\n"
        "- keeping the doors open until nine on every week evening, all year round;\n"
        "- a second librarian at the desk.\n\nBudget\n\nThe cost is less than one "
        "percent of the budget, and the council has never said otherwise in any of its "
        "reports."
    )


def test_a_long_title_case_heading_is_its_own_paragraph():
    text = textwrap.wrap("Our city is entering its historic budget debate. " * 4, WIDTH)
    title = "The Case for Keeping Public Libraries Open Late"
    assert reflow("\n".join([title, *text])) == f"{title}\n\n{' '.join(text)}"
    # a full first line in sentence case, with a name after it, runs on
    sentence = "The case for keeping the libraries open was made in"
    assert reflow("\n".join([sentence, "Oslo first.", *text])).startswith(
        f"{sentence} Oslo first.\n\nOur city"
    )
    # names in title case inside a paragraph are no heading
    names = [
        "Most of the money came from two old institutions,",
        "the New York Public Library and the Boston Public",
        "Library, which both gave more than they could spare.",
    ]
    assert reflow("\n".join(names)) == " ".join(names)


def test_page_numbers_go_and_sentences_run_across_pages():
    first = "Our city is entering its historic budget debate with a habit that " * 3
    second = "costs the readers more than it saves the city. " * 3
    for top, bottom in [("", "1"), ("- 2 -", ""), ("Page 2", ""), ("", "2 / 9"), ("2 of 9", "")]:
        result = reflow_pages([f"{printed(first)}\n{bottom}", f"{top}\n{printed(second)}"])
        assert result.text == f"{first}{second}".strip(), (top, bottom)
        assert result.pages == [first.strip(), second.strip()]  # each page on its own
    # a number inside the page is text
    assert reflow("The libraries opened in\n1932\nand never closed.") == (
        "The libraries opened in 1932 and never closed."
    )
    # a page that ends its paragraph: the next page starts a new one
    last = f"{second}It is a mistake."
    ended = reflow_pages([printed(last), "2\nAnother paragraph starts here."])
    assert ended.text == f"{last}\n\nAnother paragraph starts here."
    # the same with the page number on top of the next page, groff's "-2-"
    ended = reflow_pages([printed(last), "-2-\nFurthermore, another one starts."])
    assert ended.text == f"{last}\n\nFurthermore, another one starts."
