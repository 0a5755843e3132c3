"""The links of an argument: a reason and the claim it supports, within a sentence
("X because Y", "Y, so X") or across sentences ("So…", "Therefore…", "That's why…"),
each itself a claim of kind ``inference`` worth a question; and the clause a "That's
why" sentence concludes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from maieutic.language.claim import Claim
from maieutic.language.clause_syntax import subject_of

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


def why_clause(sentence: Span) -> Token | None:
    """The head of the clause after "That's why" / "This is why" opening ``sentence``."""
    root = sentence.root
    subject = subject_of(root)
    if root.lemma_ != "be" or subject is None or subject.lower_ not in ("that", "this", "which"):
        return None
    for child in root.children:
        if child.dep_ in ("ccomp", "advcl") and any(
            g.lower_ == "why" and g.dep_ == "advmod" for g in child.children
        ):
            return child
    return None


_BECAUSE = {"because"}  # "since" is as often "from the time that"


_THEREFORE = {"so", "therefore", "thus", "hence"}


_CONCLUDING = re.compile(
    r"^\W*(?:so|therefore|thus|hence|consequently|as a result|that's why|that is why|"
    r"this is why|which is why|this means|that means|which means)\b",
    re.IGNORECASE,
)
"""A sentence opening with one of these draws a conclusion from the one before."""


def inference(reason: Claim, *, conclusion: Claim) -> Claim:
    """The inference from ``reason`` to ``conclusion``, itself a claim to question."""
    reason.features["premise"] = 1.0
    conclusion.features["concluded"] = 1.0
    return Claim(
        text=f"{conclusion.text} because {reason.text}",
        kinds=("inference",),
        sentence=conclusion.sentence,
        source=conclusion.source,
        tense=conclusion.tense,
        cause=reason.text,
        effect=conclusion.text,
        lemmas=tuple(dict.fromkeys(conclusion.lemmas + reason.lemmas)),
        features={
            **conclusion.features,
            "n_content": float(len(set(conclusion.lemmas + reason.lemmas))),
        },
    )


def linked_sentences(claims: list[Claim], sentences: list[str]) -> list[Claim]:
    """Inferences across sentences: a sentence that opens with "So", "Therefore",
    "That's why"… concludes its first claim from the last claim of the sentence before
    (the argument a question should test is that link)."""
    own: dict[int, list[Claim]] = {}
    for claim in claims:
        if claim.kind != "inference":
            own.setdefault(claim.sentence, []).append(claim)
    out = []
    for n, sentence in enumerate(sentences):
        if n == 0 or not _CONCLUDING.match(sentence):
            continue
        before, here = own.get(n - 1), own.get(n)
        if before and here and not here[0].stance:
            out.append(inference(before[-1], conclusion=here[0]))
    return out


def inferences(sentence: Span, by_head: dict[int, Claim]) -> list[Claim]:
    """A reason given for a claim in the same sentence ("X because Y", "Y, so X"): the
    inference itself is worth a question ("does Y really show that X?")."""
    out = []
    for token in sentence:
        reason = conclusion = None
        if token.dep_ == "advcl" and any(
            c.dep_ == "mark" and c.lower_ in _BECAUSE for c in token.children
        ):
            reason, conclusion = by_head.get(token.i), by_head.get(token.head.i)
        elif token.dep_ == "conj" and any(
            c.lower_ in _THEREFORE and c.dep_ in ("advmod", "cc") for c in token.children
        ):
            reason, conclusion = by_head.get(token.head.i), by_head.get(token.i)
        if reason is None or conclusion is None:
            continue
        out.append(inference(reason, conclusion=conclusion))
    return out
