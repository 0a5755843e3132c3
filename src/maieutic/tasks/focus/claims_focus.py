"""Socratic questions from the text's own claims (the offline default of ``ask``).

The cue generator finds a weakness type from a word ("always", "because") and takes the
clause around it as the span, which is how FOCUS's released predictions look but often
not a claim a question can restate. This generator starts from the claims that
:mod:`maieutic.language.claims` reads and restates in full, and gives each the type its
kind of claim calls for (FOCUS, Table 12): a generalisation is probed as an
overgeneralisation, a cause as a questionable cause, a figure or a report as lacking
evidence, an anecdote as weak evidence, a value judgement as possibly biased, a
proposal as taking something for granted. A key phrase of the text gives a question of
vague terms. The span is the claim's own words, located in the text for highlighting.
"""

from __future__ import annotations

from collections.abc import Callable

from maieutic.generate.protocol import GenerationRun
from maieutic.language.claims import Claim, Reading, read_claims
from maieutic.language.wellformed import check_question
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.cqs.claim_ranker import builtin_ranker
from maieutic.tasks.focus.cue_detector import MAX_TYPES
from maieutic.tasks.focus.generate import FocusOutcome, focus_signature
from maieutic.tasks.focus.span_snap import snap_span
from maieutic.tasks.focus.type_labels import FocusSet, SpanLabel

TYPE_OF_KIND: tuple[tuple[str, str], ...] = (
    ("generalisation", "OG"),
    ("causal", "QCE"),
    ("inference", "QCE"),
    ("statistic", "LE"),
    ("authority", "LE"),
    ("experience", "WE"),
    ("evaluation", "BS"),
    ("proposal", "IE"),
    ("prediction", "TC"),
)
"""The first kind of a claim found here fixes its type; a plain assertion gets none."""
TEMPLATES: dict[str, str] = {
    "OG": "Is it true in every case that {claim}, or only in some?",
    "QCE": "Is it really the case that {claim}, or could something else explain it?",
    "LE": "What data or examples show that {claim}?",
    "WE": "Is the fact that {claim} strong enough evidence for what {speaker} concludes from it?",
    "BS": "Is the view that {claim} based on facts, or on personal preference?",
    "IE": "What is {speaker} taking for granted in claiming that {claim}?",
    "TC": "Would it still be true that {claim} if circumstances changed?",
    "VAT": 'What exactly is meant by "{phrase}", and would a general reader take it the same way?',
}
"""Third-person wordings (the claims are restated about the speaker), maieutic's own."""


def claim_type(claim: Claim) -> str | None:
    """The weakness type a claim's kind calls for, or None."""
    if claim.stance and claim.kind not in ("proposal",):
        return None  # the speaker's own view, wish or habit: nothing to probe as a fact
    kinds = set(claim.kinds)
    return next((type_id for kind, type_id in TYPE_OF_KIND if kind in kinds), None)


def labels_for(text: str, reading: Reading, limit: int = MAX_TYPES) -> list[SpanLabel]:
    """Up to ``limit`` labels of different types, the claims people most often
    challenge first (the CQs claim ranker), each with a well-formed question."""
    scores = builtin_ranker().claim_scores(reading)
    order = sorted(range(len(reading.claims)), key=lambda i: -scores[i])
    out: list[SpanLabel] = []
    for index in order:
        claim = reading.claims[index]
        type_id = claim_type(claim)
        if type_id is None or any(x.type == type_id for x in out):
            continue
        template = TEMPLATES[type_id]
        if claim.kind == "inference":
            continue  # its two clauses are claims of their own
        if type_id == "TC" and (" if " in f" {claim.text} " or "," in claim.text):
            continue  # "…if X if circumstances changed", "…, which… if…": the frame dangles
        question = template.format(claim=claim.text, speaker=reading.speaker)
        label = _located(text, type_id, claim.words or claim.text, question)
        if label is not None:
            out.append(label)
        if len(out) == limit:
            return out
    for phrase in reading.key_phrases[:1]:  # one question of terms at most
        if len(out) == limit:
            break
        question = TEMPLATES["VAT"].format(phrase=phrase)
        label = _located(text, "VAT", phrase, question)
        if label is not None:
            out.append(label)
    return out


def _located(text: str, type_id: str, words: str, question: str) -> SpanLabel | None:
    """The label with its span found in the text, if the question is well formed."""
    if check_question(question, text):
        return None
    snap = snap_span(text, words)
    if snap is None:
        return None
    return SpanLabel(type_id, snap.text(text), snap.start, snap.end, question=question)


class ClaimsFocusGenerator:
    """Model-free: weakness types from the kinds of claim the text makes."""

    uses_llm = False
    spec: Spec

    def generate(
        self,
        dataset: FocusSet,
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """Labels for every argument (deterministic)."""
        outcomes = []
        for done, item in enumerate(dataset.items.values(), start=1):
            labels = labels_for(item.argument, read_claims(item.argument))
            labels = [
                SpanLabel(x.type, x.text, x.start, x.end, slot=n, question=x.question)
                for n, x in enumerate(labels, start=1)
            ]
            outcomes.append(FocusOutcome(item.id, labels))
            if on_progress:
                on_progress(done, len(dataset))
        return GenerationRun(outcomes)

    def signature(self, dataset: FocusSet) -> Signature:
        """The generator, the claim ranker and the dataset."""
        return focus_signature("claims", dataset, self.spec, ranker=builtin_ranker().identity)
