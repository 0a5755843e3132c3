"""A learned answerability scorer in place of AURA's similarity threshold.

``--answerability scorer:DIR`` names a scorer trained with ``maieutic train scorer
--task aura`` (QGEval-style human ratings). Retrieval is unchanged: each question still
maps to its best unit, which coverage, non-redundancy and entropy need. Only the
answerable decision changes: P(answerable | text, question) from the scorer against the
threshold stored with it.

The text the scorer reads is the whole document when it is passage-sized (what the
scorer was trained on: QGEval passages), else the span the question mapped to — the
encoder reads only the first few hundred word pieces of a long text, so a manual's
opening would say nothing about a question on its last chapter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from maieutic.errors import DataError
from maieutic.registry import SCORER_PREFIX
from maieutic.scorers.model import LearnedScorer, load_scorer
from maieutic.tasks.aura.metrics import Mapping

PASSAGE_CHARS = 3000
"""Documents up to this length are read whole by the scorer (QGEval passages are
under 2,000 characters)."""


class LearnedAnswerability:
    """Decides answerability with a learned scorer (see the module docstring)."""

    def __init__(self, scorer: LearnedScorer, directory: str, encoder, *, store=None) -> None:
        if scorer.manifest.get("task") != "aura":
            raise DataError(
                f"the scorer was trained for {scorer.manifest.get('task')!r}, not aura: "
                "train one with maieutic train scorer --task aura",
                where=directory,
            )
        self.scorer = scorer
        self.directory = directory
        self.encoder = encoder
        self.store = store
        self.warnings: list[str] = []

    @classmethod
    def from_option(cls, value: str, retriever, store=None) -> LearnedAnswerability:
        """From ``scorer:DIR``; the scorer reads with the encoder it was trained with
        (the retriever's when they agree, so the model is loaded once)."""
        from maieutic.embed.encoder import shared_encoder

        if not value.startswith(SCORER_PREFIX) or not value.removeprefix(SCORER_PREFIX):
            raise DataError(f"--answerability takes scorer:DIR, not {value!r}")
        directory = value.removeprefix(SCORER_PREFIX)
        scorer = load_scorer(directory)
        model = scorer.manifest["features"].get("encoder_model")
        same = not model or model == retriever.model_name
        return cls(scorer, directory, retriever if same else shared_encoder(model), store=store)

    def decide(
        self, document_text: str, mappings: Sequence[Mapping], spans: Sequence[str]
    ) -> tuple[list[Mapping], list[float]]:
        """The mappings with ``answerable`` from the scorer, and each probability."""
        if not mappings:
            return [], []
        whole = len(document_text) <= PASSAGE_CHARS
        contexts = [document_text if whole else span for span in spans]
        questions = [m.question for m in mappings]
        probability = [
            float(p) for p in self.scorer.score(self.encoder, contexts, questions, store=self.store)
        ]
        if whole and self.scorer.seen([document_text]):
            message = (
                "some documents were in the answerability scorer's training data: "
                "its decisions there are not a fair evaluation"
            )
            if message not in self.warnings:
                self.warnings.append(message)
        threshold = self.scorer.threshold
        decided = [
            replace(m, answerable=p >= threshold)
            for m, p in zip(mappings, probability, strict=True)
        ]
        return decided, probability

    def signature_fields(self) -> dict:
        """What enters the signature of every AURA score it decides."""
        fields = self.scorer.signature_fields()
        return {"answerability": "scorer", **fields}
