"""One model load per process: every encoder of a model shares it, a judge is parsed
once, the spaCy pipeline is loaded once.

Each test starts from a process that has loaded nothing (the caches are swapped for
empty ones), so the counts are this test's own whatever ran before it.
"""

from __future__ import annotations

import shutil

import pytest

import maieutic
from maieutic.embed import encoder as encoder_module
from maieutic.embed.encoder import Encoder, model_loads
from maieutic.samples import sample_path
from maieutic.scorers import model as scorer_module
from maieutic.tasks.cqs.usefulness import DIRECTORY, load_judge

DATA = sample_path("cqs/sample_dataset.json")
SUBMISSION = sample_path("cqs/sample_submission.json")
EMBEDDED = Encoder().identity


@pytest.fixture
def nothing_loaded(monkeypatch):
    """This process as if it had loaded no embedding model and read no scorer."""
    monkeypatch.setattr(encoder_module, "_MODELS", {})
    monkeypatch.setattr(encoder_module, "_LOADS", {})
    monkeypatch.setattr(scorer_module, "_LOADED", {})


@pytest.mark.slow
def test_evaluating_with_the_sts_matcher_and_the_judge_loads_the_model_once(
    cli, nothing_loaded, tmp_path
):
    # two components embed here: the STS matcher and the usefulness judge that labels
    # the questions no reference matches; each builds its own encoder
    result = cli(
        "evaluate", "cqs", "--data", DATA, SUBMISSION, "--evaluator", "sts",
        "--nae-fallback", "usefulness", "--no-cache", "--out", tmp_path / "results.json",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert model_loads() == {EMBEDDED: 1}


@pytest.mark.slow
def test_two_sts_evaluators_over_one_submission_load_the_model_once(nothing_loaded):
    scores = [
        # no disk cache: the second evaluator must encode too, not read the first's vectors
        maieutic.evaluate(
            "cqs", DATA, submissions=[SUBMISSION], evaluator="sts", threshold=threshold, cache=False
        )
        for threshold in (0.6, 0.8)
    ]
    assert model_loads() == {EMBEDDED: 1}
    # two evaluators indeed: their signatures name their thresholds
    signatures = [str(run.results[0].signature) for run in scores]
    assert signatures[0] != signatures[1]
    assert scores[0].results[0].score >= scores[1].results[0].score


def test_encoders_differing_in_batch_size_share_one_model(nothing_loaded):
    first, second = Encoder(batch_size=8), Encoder(batch_size=64)
    assert first.load() is second.load()
    assert model_loads() == {EMBEDDED: 1}
    assert Encoder(backend="onnx").identity != EMBEDDED  # another backend, another key


def test_a_model_that_fails_to_load_is_tried_again_and_never_cached(nothing_loaded, tmp_path):
    missing = tmp_path / "no-model"
    missing.mkdir()
    for _ in range(2):
        with pytest.raises(maieutic.errors.DataError, match="cannot load the embedding model"):
            Encoder(str(missing)).load()
    assert model_loads() == {}


def test_the_judge_is_parsed_once_until_its_files_change(nothing_loaded, monkeypatch, tmp_path):
    reads = []
    original = scorer_module._read_scorer
    monkeypatch.setattr(scorer_module, "_read_scorer", lambda d: reads.append(d) or original(d))
    first, second = load_judge("usefulness"), load_judge("usefulness")
    assert len(reads) == 1
    assert first.model is second.model  # the weights shared
    first.manifest["recipe"] = "changed by a caller"
    assert load_judge("usefulness").manifest.get("recipe") != "changed by a caller"
    # a copy elsewhere, then changed in place to the same size: read again, not stale
    copy = tmp_path / "judge"
    shutil.copytree(DIRECTORY, copy)
    assert load_judge(f"scorer:{copy}").threshold == first.threshold
    assert len(reads) == 2
    manifest = copy / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    was = f'"threshold": {first.threshold!r}'
    manifest.write_text(text.replace(was, was[:-1] + "9"), encoding="utf-8")
    assert load_judge(f"scorer:{copy}").threshold != first.threshold
    assert len(reads) == 3


def test_the_spacy_pipeline_is_loaded_once_per_process():
    from maieutic.language import syntax

    assert syntax.nlp() is syntax.nlp()
