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

A text none of whose claims has a type of its own still gets one question when the
critical-question generator asks one: its first, typed by its framing
(``critical_label``); a text that states facts gets none, with the same note as there.
"""

from __future__ import annotations

from maieutic.language.claim_kinds import contested
from maieutic.language.claims import Claim, Reading, read_claims
from maieutic.language.stance import states_facts
from maieutic.language.wellformed import check_question
from maieutic.signature import Signature
from maieutic.tasks.cqs.candidate_filter import FACTS
from maieutic.tasks.cqs.claim_ranker import builtin_ranker
from maieutic.tasks.focus.cue_detector import MAX_TYPES
from maieutic.tasks.focus.generate import FocusItemGenerator, FocusOutcome, focus_signature
from maieutic.tasks.focus.span_snap import snap_span
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet, SpanLabel

TYPE_OF_KIND: tuple[tuple[str, str], ...] = (
    ("inference", "WE"),
    ("generalisation", "OG"),
    ("causal", "QCE"),
    ("statistic", "LE"),
    ("authority", "LE"),
    ("experience", "WE"),
    ("prediction", "TC"),
    ("evaluation", "BS"),
    ("proposal", "IE"),
)
"""The first kind of a claim found here fixes its type; a plain assertion gets none."""

SHAPES: dict[str, tuple[str, ...]] = {
    # each type's question shapes (FOCUS, Table 12), in maieutic's words; the first whose
    # slots the claim fills is used
    "QCE": ("What shows that {claim}, rather than that the two merely happen together?",),
    "OG": ("Is it true in every case that {claim}, or only in some?",),
    "LE": (
        "Where do the figures in the claim that {claim} come from, and are they reliable?",
        "What data or examples show that {claim}?",
    ),
    "WE": (
        "Is the fact that {cause} enough to show that {effect}?",
        "Is {speaker}'s own experience that {claim} enough to show what {speaker} "
        "concludes from it?",
    ),
    "TC": ("What could change so that it would no longer be true that {claim}?",),
    "BS": ("Would someone who does not share {speaker}'s views agree that {claim}?",),
    "IE": ("What has to be assumed for it to follow that {claim}, and is that assumption sound?",),
    "VAT": ('What counts as "{phrase}" here, and who decides?',),
}
"""Third-person wordings (the claims are restated about the speaker)."""
TEMPLATES: dict[str, str] = {type_id: shapes[-1] for type_id, shapes in SHAPES.items()}
"""The most general shape of each type (the one any claim of that type fills)."""


def claim_type(claim: Claim) -> str | None:
    """The weakness type a claim's kind calls for, or None."""
    if claim.stance and claim.kind not in ("proposal",):
        return None  # the speaker's own view, wish or habit: nothing to probe as a fact
    if claim.answered:
        return None  # the other poster's claim: the argument to probe is the speaker's
    kinds = set(claim.kinds)
    if "statistic" in kinds and "causal" not in kinds:
        return "LE"  # a figure is probed for its source before anything else
    return next((type_id for kind, type_id in TYPE_OF_KIND if kind in kinds), None)


def shaped_question(type_id: str, claim: Claim, speaker: str) -> str | None:
    """The first of the type's shapes the claim fills (None when none fits: a forecast
    frame on a claim that already has a condition, a cause frame without two clauses)."""
    values = {"claim": claim.text, "speaker": speaker, "cause": claim.cause, "effect": claim.effect}
    for shape in SHAPES[type_id]:
        if ("{cause}" in shape or "{effect}" in shape) and not (claim.cause and claim.effect):
            continue
        if "{speaker}" in shape and speaker == "the speaker" and type_id == "WE":
            shape = shape.replace("{speaker}'s own", "the speaker's own")
        if "figures" in shape and "statistic" not in claim.kinds:
            continue
        if type_id == "TC" and (" if " in f" {claim.text} " or "," in claim.text):
            return None  # "…if X" under "no longer true": the frame dangles
        return shape.format(**values)
    return None


def labels_for(text: str, reading: Reading, limit: int = MAX_TYPES) -> list[SpanLabel]:
    """Up to ``limit`` labels of different types, the claims people most often
    challenge first (the CQs claim ranker), each with a well-formed question in the
    shape its type takes for that claim."""
    scores = builtin_ranker().claim_scores(reading)
    order = sorted(range(len(reading.claims)), key=lambda i: -scores[i])
    out: list[SpanLabel] = []
    asked: set[str] = set()  # claims already probed (an inference's conclusion included)
    for index in order:
        claim = reading.claims[index]
        type_id = claim_type(claim)
        if type_id is None or any(x.type == type_id for x in out):
            continue
        if claim.text in asked or claim.effect in asked:
            continue
        question = shaped_question(type_id, claim, reading.speaker)
        words = claim.words or claim.text
        if claim.kind == "inference":
            words = claim.effect  # the span is the conclusion drawn; the question names both
        label = (
            _located(text, type_id=type_id, words=words, question=question) if question else None
        )
        if label is not None:
            out.append(label)
            asked |= {claim.text, claim.effect} - {""}
        if len(out) == limit:
            return out
    for phrase in reading.key_phrases[:1]:  # one question of terms at most
        if len(out) == limit or not contested(phrase):
            break
        question = SHAPES["VAT"][0].format(phrase=phrase)
        label = _located(text, type_id="VAT", words=phrase, question=question)
        if label is not None:
            out.append(label)
    if not out:
        out = [label for label in [critical_label(text)] if label is not None]
    return out


FRAMING_TYPE: dict[str, str] = {
    "evidence": "LE",
    "counter": "LE",
    "hedge": "LE",
    "figures": "LE",
    "source": "WE",
    "inference": "WE",
    "typical": "WE",
    "comparison": "WE",
    "relevance": "WE",
    "other-causes": "QCE",
    "exceptions": "OG",
    "likelihood": "TC",
    "side-effects": "TC",
    "assumption": "IE",
    "feasibility": "IE",
    "standard": "BS",
    "alternatives": "OSP",
    "definition": "VAT",
}
"""The weakness type each framing family of the critical questions probes (FOCUS,
Table 12): asking for evidence probes a claim that lacks it, asking whether a reason or
an example carries the conclusion probes weak evidence, and so on."""


def critical_label(text: str) -> SpanLabel | None:
    """For a text none of whose claims has a weakness type of its own (plain assertions,
    a speaker's stated view): the first critical question the claims generator asks of
    it, typed by its framing, its span the claim it asks about. None when the generator
    asks nothing (a text of facts, no complete claim) or the claim is not found."""
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    found = ClaimsCQGenerator().questions_for(text)
    by_question = {s.candidate.question: s.candidate for s in found.candidates}
    for question in found.questions:
        cand = by_question[question]
        type_id = FRAMING_TYPE.get(cand.framing)
        if type_id is None:
            continue
        if cand.claim >= 0:
            claim = found.reading.claims[cand.claim]
            words = claim.effect if claim.kind == "inference" else (claim.words or claim.text)
        else:
            words = found.reading.key_phrases[-cand.claim - 1]
        label = _located(text, type_id=type_id, words=words, question=question)
        if label is not None:
            return label
    return None


def _located(text: str, *, type_id: str, words: str, question: str) -> SpanLabel | None:
    """The label with its span found in the text, if the question is well formed."""
    if check_question(question, text):
        return None
    snap = snap_span(text, span=words)
    if snap is None:
        return None
    return SpanLabel(
        type=type_id, text=snap.text(text), start=snap.start, end=snap.end, question=question
    )


class ClaimsFocusGenerator(FocusItemGenerator):
    """Model-free: weakness types from the kinds of claim the text makes (deterministic:
    every run is the same)."""

    def outcome(self, key: str, item: FocusItem, *, run_index: int) -> FocusOutcome:
        """The labels for one argument, numbered in order (none for one that only
        states facts)."""
        if states_facts(item.argument):  # as the critical questions: nothing argued
            return FocusOutcome(id=item.id, labels=[], problems=[FACTS])
        labels = labels_for(item.argument, read_claims(item.argument))
        labels = [
            SpanLabel(
                type=x.type, text=x.text, start=x.start, end=x.end, slot=n, question=x.question
            )
            for n, x in enumerate(labels, start=1)
        ]
        return FocusOutcome(id=item.id, labels=labels)

    def signature(self, dataset: FocusSet) -> Signature:
        """The generator, the claim ranker and the dataset."""
        return focus_signature(
            "claims", dataset, self.spec, ranker=builtin_ranker().identity, fallback="critical"
        )
