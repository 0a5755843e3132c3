"""The usefulness judge shipped with maieutic: a learned scorer of P(Useful |
intervention, question) that reads no reference, trained on people's labels of the
benchmark's development references and of shared-task systems' questions (its
``judge/manifest.json`` holds the command, the data's hashes and its cross-validated
figures; ``docs/scorers.md`` says how it was chosen and how well it does).

It is named ``usefulness`` wherever a learned scorer is taken: ``--evaluator
usefulness``, ``--selector usefulness``, ``--nae-fallback usefulness``; ``scorer:DIR``
names any other scorer trained with ``maieutic train cqs``."""

from __future__ import annotations

from pathlib import Path

from maieutic.embed.encoder import DEFAULT_MODEL, Encoder
from maieutic.embed.options import EMBEDDING_DEFAULTS
from maieutic.embed.store import EmbeddingStore
from maieutic.errors import DataError
from maieutic.registry import SCORER_PREFIX
from maieutic.scorers.model import LearnedScorer, load_scorer

NAME = "usefulness"
DIRECTORY = Path(__file__).with_name("judge")
"""The shipped judge's folder (package data)."""
PREFIX = SCORER_PREFIX


def judge_directory(name: str) -> str:
    """The scorer folder ``name`` means: the shipped judge for ``usefulness``, DIR for
    ``scorer:DIR``; a usage error for anything else."""
    if name == NAME:
        return str(DIRECTORY)
    if name.startswith(PREFIX) and name != PREFIX:
        return name.removeprefix(PREFIX)
    raise DataError(f"{name!r}: a judge is {NAME!r} (the shipped one) or scorer:DIR")


def load_judge(name: str) -> LearnedScorer:
    """The critical-questions scorer ``name`` means (refused, in one line, when it was
    trained for another task)."""
    directory = judge_directory(name)
    learned = load_scorer(directory)
    if learned.manifest["task"] != "cqs":
        raise DataError(f"a scorer for task {learned.manifest['task']!r}", where=directory)
    return learned


def judge_matcher(name: str, batch_size: int = EMBEDDING_DEFAULTS.batch_size, cache: bool = True):
    """A matcher that labels questions with the judge ``name`` (``ScorerMatcher``)."""
    from maieutic.tasks.cqs.scorer_matcher import ScorerMatcher

    learned = load_judge(name)
    model = learned.manifest["features"].get("encoder_model", DEFAULT_MODEL)
    encoder = Encoder(model, batch_size=batch_size)
    return ScorerMatcher(learned, encoder, EmbeddingStore() if cache else None)
