"""The FOCUS paper's agreement analyses (Tables 15–18, 22, appendix A.3): golden values
from independent computations (the ``krippendorff`` package, scikit-learn, statsmodels,
hand-worked cases, the paper's own figures where the released files reproduce them), the
command on the released files, and its refusals of annotator files that do not fit."""

from __future__ import annotations

import csv
import io
import json
import shutil

import krippendorff
import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from maieutic.tasks.focus.annotation_agreement import (
    agreement_for_type,
    applicability,
    category_agreement,
    type_agreement,
)
from maieutic.tasks.focus.annotators import attach_annotators
from maieutic.tasks.focus.data import load_gold
from maieutic.tasks.focus.span_metrics import bigram_jaccard, edit_similarity, word_jaccard
from maieutic.tasks.focus.type_labels import FocusItem, SpanLabel
from maieutic.tasks.focus.typology import typology

ANNOTATORS = ("A1", "A2", "A3")


def judged(og: tuple[int, int, int], vat: tuple[int, int, int] = (1, 1, 1)) -> FocusItem:
    """A clarity argument with each annotator's yes (1) / no (0) for OG and VAT."""
    labels = tuple(
        SpanLabel(type=t, text="All cats are grey", annotator=w, slot=s)
        for t, s, votes in (("VAT", 1, vat), ("OG", 2, og))
        for w, v in zip(ANNOTATORS, votes, strict=True)
        if v
    )
    return FocusItem(
        id="i",
        argument="All cats are grey at night.",
        category="clarity",
        labels=(),
        annotations=labels,
    )


# -- hand-worked and independent ----------------------------------------------------------


def test_gwet_ac1_hand_worked():
    # P_a = mean(1, 1/3, 1, 1/3) = 2/3; pi_yes = mean(1, 1/3, 0, 2/3) = 1/2;
    # P_e = 2 * 1/2 * 1/2 = 1/2; AC1 = (2/3 - 1/2) / (1 - 1/2) = 1/3
    items = [judged(v) for v in ((1, 1, 1), (1, 0, 0), (0, 0, 0), (1, 1, 0))]
    assert agreement_for_type(items, "OG").gwet_ac1 == pytest.approx(1 / 3)
    # skewed: P_a = 5/6; pi_yes = 11/12; P_e = 2 * 11/12 * 1/12 = 11/72; AC1 = 49/61
    skewed = [judged(v) for v in ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 1, 0))]
    assert agreement_for_type(skewed, "OG").gwet_ac1 == pytest.approx(49 / 61)


def test_applicability_flattens_every_judgement():
    # the appendix's own example: [[1, 1, 0], [0, 1, 1]] -> four 1s of six
    assert applicability([[1, 1, 0], [0, 1, 1]]) == {
        "applicable": 4,
        "not_applicable": 2,
        "share": pytest.approx(4 / 6),
    }
    items = [judged(v) for v in ((1, 1, 1), (1, 0, 0), (0, 0, 0), (1, 1, 0))]
    # 6 yes of 12 judgements, whatever the majorities (which would say 2 of 4)
    assert agreement_for_type(items, "OG").applicability["share"] == pytest.approx(0.5)


def test_word_and_bigram_jaccard_hand_worked():
    # words of two or more characters: "all cats are grey" / "all cats"
    assert word_jaccard("All cats are grey", "All cats") == pytest.approx(2 / 4)
    # bigrams {all cats, cats are, are grey} vs {all cats}
    assert bigram_jaccard("All cats are grey", "All cats") == pytest.approx(1 / 3)
    # one-letter words are not words (scikit-learn's default pattern): "a" and "I" drop
    assert bigram_jaccard("I saw a cat", "saw cat") == 1.0
    assert bigram_jaccard("cringe", "cringe") == 1.0 and bigram_jaccard("cringe", "odd") == 0.0
    assert bigram_jaccard("", "") == 1.0 and bigram_jaccard("two words", "") == 0.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("trump's policies (and other things) are at odds", "trump's policies are at odds"),
        ("The issue is that the pregnancy is forced", "pregnancy is, due to constraints, forced"),
        ("All the other groups OP is complaining about do.", "the other groups OP is"),
    ],
)
@pytest.mark.parametrize(("n", "metric"), [(1, word_jaccard), (2, bigram_jaccard)])
def test_ngram_jaccard_matches_scikit_learn(a, b, n, metric):
    matrix = CountVectorizer(ngram_range=(n, n), binary=True).fit_transform([a, b]).toarray()
    both, either = np.logical_and(*matrix).sum(), np.logical_or(*matrix).sum()
    assert metric(a, b) == pytest.approx(both / either)


def _levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


@pytest.mark.parametrize(
    ("a", "b"), [("kitten", "sitting"), ("biological constraints, ", "biological constraints")]
)
def test_edit_similarity_is_normalised_levenshtein(a, b):
    assert edit_similarity(a, b) == pytest.approx(1 - _levenshtein(a, b) / max(len(a), len(b)))
    assert edit_similarity("kitten", "sitting") == pytest.approx(4 / 7)


# -- the released development files -------------------------------------------------------


@pytest.fixture(scope="module")
def released():
    from tests.conftest import FOCUS_DIR

    if not (FOCUS_DIR / "dev_gold.csv").exists():
        pytest.skip("shared data not found")
    gold = attach_annotators(load_gold(FOCUS_DIR / "dev_gold.csv"), [FOCUS_DIR])
    return list(gold.items.values())


def _votes(items, type_id):
    category = next(c.id for c in typology().categories.values() if type_id in c.types)
    return np.array(
        [
            [any(a.type == type_id and a.annotator == w for a in i.annotations) for w in ANNOTATORS]
            for i in items
            if i.category == category
        ],
        dtype=int,
    )


def test_released_statistics_match_independent_implementations(released):
    report = type_agreement(released)
    for type_id, row in report.items():
        votes = _votes(released, type_id)
        alpha = krippendorff.alpha(reliability_data=votes.T, level_of_measurement="nominal")
        assert row.krippendorff_alpha == pytest.approx(alpha, abs=1e-12)
        for i, j in ((0, 1), (0, 2), (1, 2)):
            kappa = cohen_kappa_score(votes[:, i], votes[:, j])
            assert row.pairwise[f"{ANNOTATORS[i]}-{ANNOTATORS[j]}"]["kappa"] == pytest.approx(
                kappa, abs=1e-12
            )
        flat = votes.ravel()
        assert row.applicability["share"] == pytest.approx(flat.mean())
    for category, row in category_agreement(released).items():
        first, second = typology().categories[category].types
        stacked = np.vstack([_votes(released, first), _votes(released, second)])
        table = np.stack([(stacked == 0).sum(1), (stacked == 1).sum(1)], axis=1)
        assert row.n_items == 56
        assert row.fleiss == pytest.approx(sm_fleiss(table), abs=1e-12)
        alpha = krippendorff.alpha(reliability_data=stacked.T, level_of_measurement="nominal")
        assert row.krippendorff_alpha == pytest.approx(alpha, abs=1e-12)


# Table 15 (dev), SQ1 = the category's first type, SQ2 = its second: (Jacc, BiJacc, Edit)
TABLE_15 = {
    "OSP": (0.605, 0.565, 0.608),
    "TC": (0.511, 0.455, 0.580),
    "IE": (0.521, 0.490, 0.587),
    "BS": (0.501, 0.467, 0.525),
    "VAT": (0.512, 0.427, 0.535),
    "OG": (0.604, 0.569, 0.617),
    "QCE": (0.674, 0.633, 0.660),
    "CF": (1.000, 1.000, 1.000),
    "WE": (0.539, 0.482, 0.543),
}


def test_table_15_is_reproduced_on_nine_types(released):
    report = type_agreement(released)
    for type_id, (jacc, bijacc, edit) in TABLE_15.items():
        spans = report[type_id].spans
        assert spans["jaccard_words"] == pytest.approx(jacc, abs=5e-4)
        assert spans["bijaccard"] == pytest.approx(bijacc, abs=5e-4)
        # edit similarity: equal to three decimals but for VAT (0.536 here, 0.535)
        assert spans["edit"] == pytest.approx(edit, abs=1.5e-3)
    # Lacks Evidence is the exception: the released reasons file differs from the paper's
    assert report["LE"].spans["jaccard_words"] == pytest.approx(0.627, abs=5e-4)


def test_focus_humans_on_the_released_files(cli, focus_dir, tmp_path):
    out = tmp_path / "agreement.json"
    result = cli(
        "meta-eval",
        "focus-humans",
        "--gold",
        focus_dir / "dev_gold.csv",
        "--annotators",
        focus_dir,
        "--no-span-embedding",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    for title in ("Gwet AC1", "Kripp. α", "applicable", "F+G", "A1-A2 κ", "BiJacc", "signature:"):
        assert title in result.out
    record = json.loads(out.read_text())
    assert record["signature_string"].startswith("task:focus|eval:human-agreement")
    assert set(record["categories"]) == {c.id for c in typology().categories.values()}
    for row in record["types"].values():
        assert -1 <= row["gwet_ac1"] <= 1 and -1 <= row["krippendorff_alpha"] <= 1
        assert 0 <= row["applicability"]["share"] <= 1
        assert row["applicability"]["applicable"] + row["applicability"]["not_applicable"] == 84
        assert all(0 <= row["spans"][m] <= 1 for m in ("bijaccard", "edit", "jaccard_words"))
    # what the command printed before keeps its values
    assert round(record["types"]["OSP"]["observed"], 3) == 0.929
    assert round(record["types"]["OSP"]["spans"]["jaccard"], 3) == 0.545
    # Table 22 (observed agreement per pair), A2-A3 and A1-A3 as the paper's Table 18 orders them
    assert round(record["types"]["TC"]["pairwise"]["A1-A2"]["observed"], 4) == 0.7857
    assert round(record["types"]["BS"]["pairwise"]["A2-A3"]["observed"], 4) == 0.6786


# -- annotator files that do not fit ------------------------------------------------------


def _copy(focus_dir, tmp_path):
    folder = tmp_path / "annotators"
    folder.mkdir()
    for path in focus_dir.glob("dev_annotators_*.csv"):
        shutil.copy(path, folder / path.name)
    return folder


def _rewrite(path, change):
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    buffer = io.StringIO()
    csv.writer(buffer).writerows(change(rows))
    path.write_text(buffer.getvalue(), encoding="utf-8")


def _refused(cli, focus_dir, folder, tmp_path):
    out = tmp_path / "agreement.json"
    result = cli(
        "meta-eval",
        "focus-humans",
        "--gold",
        focus_dir / "dev_gold.csv",
        "--annotators",
        folder,
        "--no-span-embedding",
        "--out",
        out,
    )
    assert result.code == 2
    assert not out.exists()
    errors = [line for line in result.err.strip().splitlines() if not line.startswith("warning")]
    assert len(errors) == 1
    return errors[0]


@pytest.mark.parametrize(
    ("change", "row"),
    [
        (lambda rows: [*rows, rows[-1]], "row 29 has no gold argument"),
        (lambda rows: rows[:-2], "row 27 is missing"),
    ],
    ids=["one-row-too-many", "two-rows-too-few"],
)
def test_annotator_rows_not_lining_up_with_gold(cli, focus_dir, tmp_path, change, row):
    folder = _copy(focus_dir, tmp_path)
    _rewrite(folder / "dev_annotators_clarity.csv", change)
    line = _refused(cli, focus_dir, folder, tmp_path)
    assert "dev_annotators_clarity.csv" in line and row in line


def test_an_annotator_without_a_slot_column(cli, focus_dir, tmp_path):
    folder = _copy(focus_dir, tmp_path)
    _rewrite(folder / "dev_annotators_clarity.csv", lambda rows: [r[:-1] for r in rows])
    line = _refused(cli, focus_dir, folder, tmp_path)
    assert "dev_annotators_clarity.csv" in line
    assert "header row: missing column A3_clarity_G" in line


# -- generate focus --runs K (Table 23: mean ± sd over seeds) ----------------------------


def test_mean_and_sample_sd():
    from maieutic.tasks.focus.seed_runs import mean_sd

    values = [0.4329, 0.41, 0.45]
    assert mean_sd(values)["mean"] == pytest.approx(np.mean(values))
    assert mean_sd(values)["sd"] == pytest.approx(np.std(values, ddof=1))
    assert mean_sd([0.5]) == {"mean": 0.5, "sd": None}


GOLD_LINE = {
    "id": "a1",
    "argument": "Everyone knows the tax is theft. It was fine in the past.",
    "category": "clarity",
    "labels": [{"type": "Overgeneralized Statement", "span": "Everyone knows the tax is theft"}],
}


def test_runs_use_consecutive_seeds_and_report_mean_and_sd(cli, tmp_path, monkeypatch):
    from maieutic.llm.backends.scripted import ScriptedBackend
    from maieutic.llm.client import LLMClient
    from maieutic.llm.options import LLMOptions
    from maieutic.llm.store import CallStore

    right = (
        'Classification: ["Overgeneralized Statement"]\nSpan: ["Everyone knows the tax is theft"]'
    )
    wrong = 'Classification: ["None of the Above"]\nSpan: ["Null"]'
    # an even seed answers right, an odd one wrong: seeds 42, 43, 44 -> micro-F1 1, 0, 1
    backend = ScriptedBackend(default=lambda r: wrong if r.params.seed % 2 else right)
    monkeypatch.setattr(LLMOptions, "client", lambda self: LLMClient(backend, CallStore()))
    data = tmp_path / "gold.jsonl"
    data.write_text(json.dumps(GOLD_LINE) + "\n", encoding="utf-8")
    out = tmp_path / "pred.jsonl"
    result = cli(
        "generate",
        "focus",
        "--data",
        data,
        "--out",
        out,
        "--generator",
        "llm",
        "--llm",
        "m",
        "--seed",
        "42",
        "--runs",
        "3",
    )
    assert result.code == 0, result.err
    assert [r.params.seed for r in backend.history] == [42, 43, 44]
    for run, seed in ((1, 42), (2, 43), (3, 44)):
        meta = json.loads((tmp_path / f"pred-run{run}.meta.json").read_text())
        assert meta["signature"]["seed"] == seed
        assert meta["provenance"]["options"]["seed"] == seed
    # micro-F1 over the runs: mean 2/3, sample sd of (1, 0, 1) = 0.5774
    assert f"{2 / 3:.4f} ± {np.std([1, 0, 1], ddof=1):.4f}" in result.out
    assert "seeds:42..44" in result.out and "runs:3" in result.out


def test_a_generator_without_a_seed_says_its_runs_are_the_same(cli, focus_dir, tmp_path):
    out = tmp_path / "cues.jsonl"
    result = cli(
        "generate",
        "focus",
        "--data",
        focus_dir / "dev_gold.csv",
        "--out",
        out,
        "--runs",
        "2",
        "--limit",
        "8",
    )
    assert result.code == 0, result.err
    assert "takes no seed: it is deterministic" in result.err
    first, second = (tmp_path / f"cues-run{i}.csv" for i in (1, 2))
    assert first.read_bytes() == second.read_bytes()
    assert "± 0.0000" in result.out and "seeds:none" in result.out


def test_runs_without_gold_types_are_written_not_scored(cli, tmp_path):
    from maieutic.samples import sample_path

    out = tmp_path / "o.jsonl"
    data = sample_path("focus/sample_arguments.jsonl")
    result = cli("generate", "focus", "--data", data, "--out", out, "--runs", "2")
    assert result.code == 0, result.err
    assert "no gold types: the runs are written, not scored" in result.err
    assert (tmp_path / "o-run2.jsonl").exists() and "mean ± sd" not in result.out


def test_the_reproduction_script_prints_each_figure_beside_the_papers(focus_dir, capsys):
    import importlib.util

    from tests.conftest import REPO

    spec = importlib.util.spec_from_file_location(
        "reproduce_focus", REPO / "benchmarks" / "reproduce_focus.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--data-dir", str(focus_dir), "--skip-runs"]) == 0
    printed = capsys.readouterr().out
    assert (
        "| Other Stakeholder Perspective (OSP) | 28 | 0.605 (=) | 0.565 (=) | 0.608 (=)" in printed
    )
    assert "signature: task:focus|eval:human-agreement" in printed
    for table in ("Table 16", "Tables 22 and 18", "Figure 4", "Tables 2 and 17"):
        assert table in printed
