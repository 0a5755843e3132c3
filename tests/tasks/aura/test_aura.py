"""AURA: document cleaning and units (with the reference code's bugs absent), each
metric by hand, the sample file end to end, and bad inputs."""

from __future__ import annotations

import json
import math

import pytest

from maieutic.errors import DataError
from maieutic.tasks.aura.data import Unit, blocks, build_units, read_document, read_questions
from maieutic.tasks.aura.metrics import (
    Mapping,
    answerability,
    balanced_entropy,
    coverage,
    non_redundancy,
    structural_entropy,
)
from maieutic.tasks.aura.templates import template
from tests.conftest import SHARED_DATA

SAMPLE = SHARED_DATA / "aura" / "sample_input.json"


def test_a_heading_without_a_blank_line_keeps_its_paragraph():
    [block] = blocks("## Brakes\nPress the pedal firmly to stop the car quickly.")
    assert block.kind == "paragraph" and block.text.startswith("Press the pedal")


def test_a_spaced_hyphen_in_prose_is_not_a_list_item():
    [block] = blocks("Sales grew in 2015 - 2020 and fell - slightly - after that.")
    assert block.kind == "paragraph"


def test_lists_images_tables_and_footnotes():
    text = (
        "Intro text that explains the device.[^1]\n\n"
        "![diagram](img.png)\nSource: the maker\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "Check these parts:\n- the battery cover\n- the power cable\n  and its plug\n\n"
        "[^1]: A footnote that must go."
    )
    kinds = [(b.kind, b.text, b.items) for b in blocks(text)]
    assert kinds == [
        ("paragraph", "Intro text that explains the device.", ()),
        ("list", "Check these parts:", ("the battery cover", "the power cable and its plug")),
    ]


def test_units_windows_and_bullets():
    text = (
        "One sentence here is long. Two sentence here is long. Three sentence is here.\n\n"
        "- red item\n- blue item"
    )
    units = build_units(blocks(text))
    kinds = [(u.type, u.subtype) for u in units]
    assert kinds.count(("necessary", "paragraph")) == 3
    assert kinds.count(("necessary", "list")) == 1
    assert kinds.count(("optional", "window")) == 3  # two 2-sentence windows, one 3-sentence
    bullets = [u for u in units if u.subtype == "bullet"]
    list_id = next(u.chunk_id for u in units if u.subtype == "list")
    assert [b.parent_chunk_ids for b in bullets] == [(list_id,), (list_id,)]


UNITS = [
    Unit(chunk_id=0, text="a", type="necessary", subtype="paragraph", block=0),
    Unit(chunk_id=1, text="b", type="necessary", subtype="paragraph", block=0),
    Unit(chunk_id=2, text="c", type="necessary", subtype="list", block=1, items=("x", "y")),
    Unit(
        chunk_id=3, text="a b", type="optional", subtype="window", block=0, parent_chunk_ids=(0, 1)
    ),
    Unit(chunk_id=4, text="x", type="optional", subtype="bullet", block=1, parent_chunk_ids=(2,)),
]


def test_two_questions_on_one_unit_give_nrs_one_half():
    mappings = [
        Mapping(question="What is a?", chunk_id=0, score=0.9, answerable=True),
        Mapping(question="What about a?", chunk_id=0, score=0.8, answerable=True),
    ]
    assert non_redundancy(mappings) == 0.5
    assert non_redundancy([]) == 1.0  # nothing repeated


def test_coverage_through_a_window_and_through_a_list_item():
    assert coverage(
        UNITS, [Mapping(question="q", chunk_id=3, score=0.9, answerable=True)]
    ) == pytest.approx(2 / 3)
    assert coverage(
        UNITS, [Mapping(question="q", chunk_id=4, score=0.9, answerable=True)]
    ) == pytest.approx(1 / 3)
    # an unanswerable question covers nothing
    assert coverage(UNITS, [Mapping(question="q", chunk_id=0, score=0.1, answerable=False)]) == 0.0
    with pytest.raises(ValueError, match="no content units"):
        coverage([], [])


def test_answerability_counts_all_questions():
    mappings = [
        Mapping(question="q", chunk_id=0, score=0.9, answerable=True),
        Mapping(question="r", chunk_id=1, score=0.2, answerable=False),
    ]
    assert answerability(mappings) == 0.5 and answerability([]) == 0.0


def test_entropy_by_hand():
    assert balanced_entropy(["What is a?", "What is b?"]) == 0.0  # one template only
    # two classes, two questions: SE = 1 bit; paper |C| = 11
    expected = (1 * 2 / 11) / (1 * 2 / 11 + 11)
    assert balanced_entropy(["What is a?", "Why is b?"]) == pytest.approx(expected)
    # the reference code's variant: answerable questions, observed classes (|C| = 2)
    mappings = [
        Mapping(question="What is a?", chunk_id=0, score=1, answerable=True),
        Mapping(question="Why is b?", chunk_id=1, score=1, answerable=True),
    ]
    # SE = 1, |Q| = 2, |C| = 2: 1 / (1 + 2)
    assert structural_entropy(mappings, "observed") == pytest.approx(1 / 3)
    assert structural_entropy([], "observed") == 0.0 and structural_entropy([]) == 0.0
    assert not math.isnan(balanced_entropy(["x"]))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How many wheels does it have?", "how many"),
        ("How much does it cost?", "how much"),
        ("Is it safe?", "yes-no"),
        ("In which year was it built?", "which"),
        ("Whose car is it?", "who"),
        ("Name the parts.", "other"),
    ],
)
def test_templates(question, expected):
    assert template(question) == expected


def test_documents_and_question_files(tmp_path):
    document = read_document(SAMPLE) if SAMPLE.exists() else None
    if document:
        assert set(document.question_sets) == {"questions1", "questions2"}
    (tmp_path / "q.json").write_text(json.dumps({"questions": ["What?", " ", "Why?"]}))
    assert read_questions(tmp_path / "q.json") == ["What?", "Why?"]
    (tmp_path / "q.txt").write_text("What?\n\nWhy?\n")
    assert read_questions(tmp_path / "q.txt") == ["What?", "Why?"]
    (tmp_path / "bad.json").write_text('{"passage": 3}')
    with pytest.raises(DataError, match="passage"):
        read_document(tmp_path / "bad.json")
    (tmp_path / "scan.pdf").write_bytes(_blank_pdf())
    with pytest.raises(DataError, match="no text layer"):
        read_document(tmp_path / "scan.pdf")


def _blank_pdf() -> bytes:
    from io import BytesIO

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    buffer = BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.slow
def test_sample_end_to_end_through_the_cli(cli, tmp_path):
    if not SAMPLE.exists():
        pytest.skip(f"shared data not found at {SAMPLE}")
    out = tmp_path / "r.json"
    result = cli("evaluate", "aura", SAMPLE, "--out", out)
    assert result.code == 0, result.err
    results = {r["submission"]: r for r in json.loads(out.read_text())["results"]}
    first = results["questions1"]
    assert first["summary"]["n_questions"] == 11 and first["summary"]["n_necessary"] == 7
    assert first["signature"]["scale"] == "cosine" and first["signature"]["threshold"] == 0.5
    for item in first["items"]:
        assert item["span"] and isinstance(item["answerable"], bool)
    compared = cli("aura", "compare", SAMPLE)
    assert compared.code == 0 and "majority of metrics" in compared.out


@pytest.mark.slow
def test_bad_documents_are_one_line(cli, tmp_path):
    headings = tmp_path / "h.md"
    headings.write_text("# One\n## Two\n### Three\n")
    questions = tmp_path / "q.txt"
    questions.write_text("What is it?\n")
    result = cli("evaluate", "aura", headings, questions)
    assert result.code == 2 and "no content" in result.err
    empty = tmp_path / "e.md"
    empty.write_text("")
    assert cli("evaluate", "aura", empty, questions).code == 2
    binary = tmp_path / "b.md"
    binary.write_bytes(b"abc\x00def")
    assert cli("evaluate", "aura", binary, questions).code == 2
    doc = tmp_path / "d.md"
    doc.write_text("The pump moves water through the pipes every morning.")
    none = tmp_path / "none.txt"
    none.write_text("Tell me about pumps\nWhat moves water?\n")
    flagged = cli("evaluate", "aura", doc, none)
    assert flagged.code == 0 and "is not a question" in flagged.err
    assert cli("evaluate", "aura", doc, none, "--strict").code == 2
    assert cli("evaluate", "aura", doc, none, "--threshold", "3").code == 2  # not a cosine


def test_list_refinement_takes_a_window_only_when_strictly_better():
    from maieutic.tasks.aura.pipeline import _refine_list

    unit = Unit(
        chunk_id=0,
        text="- a\n- bb\n- c",
        type="necessary",
        subtype="list",
        block=0,
        items=("a", "bb", "c"),
    )

    class Fixed:
        def score(self, question, spans):
            return [{"a bb": 3.0, "bb c": 1.0}[s] for s in spans]

    assert _refine_list("q", unit, 2.0, reranker=Fixed()) == (3.0, 0, "a bb")
    assert _refine_list("q", unit, 3.0, reranker=Fixed()) == (
        3.0,
        None,
        unit.text,
    )  # a tie keeps the list


def test_nothing_is_downloaded_at_import(monkeypatch):
    import importlib
    import socket
    import sys

    def refuse(*args, **kwargs):
        raise AssertionError("network used at import")

    monkeypatch.setattr(socket, "create_connection", refuse)
    for name in [
        m for m in sys.modules if m.startswith(("maieutic.tasks.aura", "maieutic.tasks.aura.data"))
    ]:
        monkeypatch.delitem(sys.modules, name)
    importlib.import_module("maieutic.tasks.aura")
    assert blocks("A sentence that is long enough. Another one here.")


@pytest.mark.slow
def test_meta_eval_on_qgeval_style_data(cli, tmp_path):
    instances = [
        {
            "id": "p1",
            "passage": "The bridge opened in 1932. It carries trains and cars across the river.",
            "questions": [
                {
                    "prediction": "When did the bridge open?",
                    "source": "SQuAD_good",
                    "answerability": 3.0,
                },
                {
                    "prediction": "What does the bridge carry?",
                    "source": "HotpotQA_good",
                    "answerability": 3.0,
                },
                {
                    "prediction": "Who painted the Mona Lisa?",
                    "source": "SQuAD_bad",
                    "answerability": 1.0,
                },
                {
                    "prediction": "How tall is the mountain?",
                    "source": "HotpotQA_bad",
                    "answerability": 1.3,
                },
            ],
        }
    ]
    path = tmp_path / "qg.json"
    path.write_text(json.dumps(instances))
    out = tmp_path / "r.json"
    result = cli("meta-eval", "aura", "--qgeval", path, "--out", out)
    assert result.code == 0, result.err
    report = json.loads(out.read_text())
    assert report["n_questions"] == 4 and report["n_unanswerable"] == 2
    assert set(report["systems"]) == {"good", "bad"}  # the dataset prefix is not the system
    assert report["roc_auc_unanswerable"] == 1.0  # off-topic questions score lowest
    path.write_text(json.dumps([{"passage": "x", "questions": [{"prediction": "q?"}]}]))
    bad = cli("meta-eval", "aura", "--qgeval", path)
    assert bad.code == 2 and "answerability: expected a number" in bad.err


@pytest.mark.slow
def test_sweep_and_agree_commands(cli, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(
        "The pump moves water through the pipes every morning.\n\n"
        "The filter must be cleaned every month to keep the water clear.\n\n"
        "- check the valve\n- check the hose\n"
    )
    good = tmp_path / "good.txt"
    good.write_text("What moves water through the pipes?\nHow often must the filter be cleaned?\n")
    poor = tmp_path / "poor.txt"
    poor.write_text("Who won the football match?\nWhat moves water?\nWhat moves the water?\n")
    out = tmp_path / "sweep.json"
    result = cli("aura", "sweep", doc, good, poor, "--out", out)
    assert result.code == 0, result.err
    report = json.loads(out.read_text())
    assert report["rows"][0]["threshold"] == 0.3 and report["n_sets"] == 2
    answerability = [r["answerability"] for r in report["rows"]]
    assert answerability == sorted(answerability, reverse=True)  # stricter, fewer answerable
    prefs = tmp_path / "prefs.jsonl"
    prefs.write_text(
        json.dumps(
            {
                "pair": "p1",
                "document": "doc.md",
                "set1": "good.txt",
                "set2": "poor.txt",
                "votes": ["1", "1", "2"],
            }
        )
        + "\n"
    )
    agreed = tmp_path / "agree.json"
    result = cli("meta-eval", "aura-preferences", prefs, "--out", agreed)
    assert result.code == 0, result.err
    report = json.loads(agreed.read_text())
    assert report["n_items"] == 1 and report["aggregate"]["agree"] == 1
    assert report["p_annotator_agrees_given_agree"] == pytest.approx(2 / 3)
    prefs.write_text('{"pair": "p1", "document": "doc.md"}\n')
    bad = cli("meta-eval", "aura-preferences", prefs)
    assert bad.code == 2 and "missing field 'set1'" in bad.err


def test_a_pdf_with_text_is_read(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = plt.figure()
    figure.text(0.1, 0.5, "The pump moves water through the pipes every morning.")
    figure.savefig(tmp_path / "manual.pdf")
    plt.close(figure)
    text = read_document(tmp_path / "manual.pdf").text
    assert "pump moves water" in text
    assert [u.subtype for u in build_units(blocks(text))] == ["paragraph"]


def test_a_five_megabyte_text_is_split_quickly(tmp_path):
    import time

    paragraph = "The valve keeps the pressure steady. It opens when the tank is full.\n\n"
    path = tmp_path / "big.txt"
    path.write_text(paragraph * (5_000_000 // len(paragraph)))
    started = time.perf_counter()
    document_blocks = blocks(read_document(path).text)
    assert len(document_blocks) > 70_000
    assert time.perf_counter() - started < 60


def test_a_five_megabyte_document_is_refused_with_the_limit(cli, tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("The valve keeps the pressure steady. " * 140_000)
    questions = tmp_path / "q.txt"
    questions.write_text("What keeps the pressure steady?\n")
    result = cli("evaluate", "aura", path, questions)
    assert result.code == 2
    assert "over the 2,000,000 limit" in result.err and len(result.err.strip().splitlines()) == 1


@pytest.mark.slow
def test_an_empty_question_set_is_refused_not_scored(cli, tmp_path):
    # an empty set used to score 0.25 (non-redundancy 1.0 over nothing): refused instead
    doc = tmp_path / "d.md"
    doc.write_text("The pump moves water through the pipes every morning.")
    empty = tmp_path / "q.json"
    empty.write_text("[]")
    out = tmp_path / "r.json"
    result = cli("evaluate", "aura", doc, empty, "--out", out)
    assert result.code == 2 and "no questions in the set" in result.err
    assert len(result.err.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.slow
def test_cross_encoder_reranking_uses_raw_logits():
    """A cross-encoder built offline from the embedded MiniLM weights (its scoring head is
    untrained: the test checks the path, the scale and the signature, not quality)."""
    import torch
    from sentence_transformers import CrossEncoder

    from maieutic.embed.encoder import embedded_model_path
    from maieutic.registry import create
    from maieutic.tasks.aura.data import Document
    from maieutic.tasks.aura.evaluate import QuestionSet

    path = str(embedded_model_path())
    doc = Document(
        text="The pump moves water through the pipes every morning. It is loud.", source="d.md"
    )
    torch.manual_seed(0)  # the untrained head is drawn when the model is first used
    evaluator = create("evaluator", task="aura", name="aura-cross", cross_encoder=path)
    [result] = evaluator.evaluate(
        doc, [QuestionSet(questions=["What moves water?"], source="q", name="q")]
    )
    [item] = result.items
    assert result.signature.extra["scale"] == "logit" and result.signature.threshold == 2.5
    torch.manual_seed(0)
    oracle = CrossEncoder(path, num_labels=1)
    units = [u.text for u in evaluator.index(doc).units]
    logits = oracle.predict(
        [["What moves water?", u] for u in units], activation_fn=torch.nn.Identity()
    )
    assert item["score"] == pytest.approx(float(max(logits)), abs=1e-5)
    assert item["answerable"] == (item["score"] > 2.5)
