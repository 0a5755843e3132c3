"""Critical questions (CQs-Gen): evaluation against labelled references."""

from maieutic.tasks.cqs.evaluate import CQEvaluation, evaluate_submissions
from maieutic.tasks.cqs.matchers import ChrfMatcher, EmbeddingMatcher, Matcher
from maieutic.tasks.cqs.scoring import MISSING, NAE

__all__ = [
    "MISSING",
    "NAE",
    "CQEvaluation",
    "ChrfMatcher",
    "EmbeddingMatcher",
    "Matcher",
    "evaluate_submissions",
]
