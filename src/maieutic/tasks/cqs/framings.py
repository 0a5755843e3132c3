"""Ways of challenging a claim, each written as a whole question around the claim.

A framing fits some kinds of claim (a proposal can be challenged for its feasibility,
a statistic for its source, a prediction for its likelihood) and restates the claim in
full: ``{claim}`` is a declarative clause that reads after "that", ``{action}`` a
proposal in the base form that reads after "to", ``{term}`` a noun phrase, ``{person}``
someone attacked, ``{speaker}`` how the speaker is named; a forecast is asked back in
its own words (``{modal} {subject} really {predicate}``: "Would banning peanuts really
protect children?"), the form most of the benchmark's Useful questions about a
consequence take. The wording is maieutic's
own; the families follow the critical questions of the argumentation schemes the
benchmark's references come from ("Benchmarking Critical Questions Generation",
seed 000, §3: evidence, definitions, alternatives, consequences, feasibility, expert
reliability, other causes, exceptions, analogies, ad hominem relevance).

``generic`` marks the framings that fit any assertion; a selection keeps at most one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from maieutic.language.claim_kinds import contested
from maieutic.language.claims import Claim, Reading
from maieutic.language.word_lists import words


@dataclass(frozen=True, kw_only=True)
class Framing:
    """One way to challenge a kind of claim."""

    name: str
    kinds: tuple[str, ...]
    """Kinds of claim it fits; ``*`` for any."""
    template: str
    generic: bool = False
    needs: str = "claim"
    """What the template restates: ``claim``, ``action``, ``term``, ``person``, ``cause``
    (a reason and its conclusion) or ``forecast`` (a claim split at its modal)."""
    tenses: tuple[str, ...] = ("past", "present", "future", "possible")
    family: str = ""
    """Framings of one family say the same thing in other words: the selection treats
    them as one framing (and the ranker's prior is the family's). Default: the name."""
    means_only: bool = False
    """Only for an action that is a means, not a goal in itself ("address racism",
    "defeat ISIS" are goals: there is no better way to reach them than them)."""
    challenges_truth: bool = False
    """Asks whether the claim is true: not for the speaker's own view or wish."""
    affirmative: bool = False
    """Only for claims stated without negation ("what could prevent it" of a claim
    that something will not happen reads backwards)."""
    asks_for_facts: bool = False
    """Asks for the facts behind a claim: not for a proposal or a value judgement, which
    no evidence proves ("What evidence shows that there should be a window?")."""
    hedged_only: bool = False
    """Only for a claim the speaker hedged ("maybe", "probably"): the question carries
    the hedge instead of asking for proof of a plain assertion."""


FRAMINGS: tuple[Framing, ...] = (
    Framing(
        name="inference",
        kinds=("inference",),
        template="Does the fact that {cause} really show that {effect}?",
        needs="cause",
    ),
    Framing(
        name="evidence",
        kinds=("*",),
        template="What evidence shows that {claim}?",
        challenges_truth=True,
        asks_for_facts=True,
    ),
    Framing(
        name="evidence-know",
        kinds=("*",),
        template="How do we know that {claim}?",
        family="evidence",
        challenges_truth=True,
        asks_for_facts=True,
    ),
    Framing(
        name="evidence-case",
        kinds=("*",),
        template="Is it actually the case that {claim}, and what supports it?",
        family="evidence",
        challenges_truth=True,
        asks_for_facts=True,
    ),
    Framing(
        name="counter",
        kinds=("*",),
        template="Is there evidence that contradicts the claim that {claim}?",
        challenges_truth=True,
        asks_for_facts=True,
    ),
    Framing(
        name="hedge",
        kinds=("*",),
        template="How sure can we be that {claim}, as {speaker} suggests?",
        hedged_only=True,
        challenges_truth=True,
    ),
    Framing(
        name="assumption",
        kinds=("proposal", "evaluation", "prediction", "causal", "generalisation"),
        template="What does {speaker} take for granted in claiming that {claim}?",
        tenses=("present", "future", "possible"),
        challenges_truth=True,
    ),
    Framing(
        name="exceptions",
        kinds=("generalisation",),
        template="Is it really the case that {claim}, or are there exceptions?",
    ),
    Framing(
        name="figures",
        kinds=("statistic",),
        template="Where do the figures behind the claim that {claim} come from, and are they "
        "reliable?",
        challenges_truth=True,
    ),
    Framing(
        name="other-causes",
        kinds=("causal",),
        template="Is it really the case that {claim}, or could other factors be responsible?",
    ),
    # before "likelihood": where both fit one claim, strict raters preferred the forecast
    # asked back (benchmarks/rating/make_wording_47.py: rated higher for 10 of 14 claims,
    # lower for none), and an equal score goes to the first wording
    Framing(
        name="consequence",
        kinds=("prediction",),
        template="{modal} {subject} really {predicate}?",
        needs="forecast",
        tenses=("future", "possible"),
        family="likelihood",
        affirmative=True,
        challenges_truth=True,
    ),
    Framing(
        name="likelihood",
        kinds=("prediction",),
        template="How likely is it that {claim}, and what could prevent it?",
        tenses=("future",),
        affirmative=True,
    ),
    Framing(
        name="alternatives",
        kinds=("proposal",),
        template="Are there better ways to reach {speaker}'s goal than to {action}?",
        needs="action",
        means_only=True,
    ),
    Framing(
        name="side-effects",
        kinds=("proposal",),
        template="What could go wrong if the plan to {action} were carried out?",
        needs="action",
    ),
    Framing(
        name="feasibility",
        kinds=("proposal",),
        template="Is it actually possible to {action}, and what would it cost?",
        needs="action",
    ),
    Framing(
        name="source",
        kinds=("authority",),
        template="How reliable is the source behind the claim that {claim}, and do other experts "
        "agree?",
    ),
    Framing(
        name="typical",
        kinds=("experience",),
        template=("Is it typical that {claim}, or could {speaker}'s experience be an exception?"),
    ),
    Framing(
        name="comparison",
        kinds=("analogy",),
        template="Is the comparison in the claim that {claim} a fair one, or do the cases "
        "differ in ways that matter?",
    ),
    Framing(
        name="relevance",
        kinds=("attack",),
        template="Even if {claim}, does that show that {person}'s position is wrong?",
        needs="person",
    ),
    Framing(
        name="standard",
        kinds=("evaluation",),
        template="By what standard does {speaker} judge that {claim}, and would others agree?",
        challenges_truth=True,
    ),
    Framing(
        name="definition",
        kinds=("*",),
        template='What exactly does {speaker} mean by "{term}"?',
        needs="term",
    ),
)
BY_NAME = {f.name: f for f in FRAMINGS}
GOAL_VERBS = words(
    """address, fight, defeat, solve, stop, reduce, end, protect, improve, help, support,
    fix, tackle, prevent, combat, eliminate, create, grow, strengthen, defend, save, win"""
)
NORM_VERBS = {"respect", "obey", "follow", "uphold", "honor", "honour", "keep", "abide"}
"""A norm is kept for its own sake: there is no better way to respect the law than to
respect it, and what it costs or risks is not the question (its grounds are)."""
NOT_FACTUAL = ("proposal", "evaluation")
"""Kinds of claim no evidence proves: what should be done, and what is good or bad."""


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """A question about one claim in one framing."""

    question: str
    claim: int
    """Index of the claim in the reading."""
    framing: str
    """The framing's family (see ``Framing.family``)."""
    generic: bool
    wording: str = ""
    """The framing's own name (one of the family's wordings)."""


def _fits(framing: Framing, claim: Claim) -> bool:
    kinds_ok = "*" in framing.kinds or set(framing.kinds) & set(claim.kinds)
    if framing.hedged_only != claim.hedged and framing.name != "likelihood":
        return False  # a hedged claim is asked about with its hedge, or as a forecast
    if framing.asks_for_facts and claim.kind in NOT_FACTUAL:
        return False
    if claim.answered and "{speaker}" in framing.template:
        return False  # said by the other poster: never the speaker's to defend
    if framing.affirmative and claim.features.get("negated"):
        return False
    if framing.challenges_truth and claim.stance:
        return False
    verb = claim.action.split()[0].lower() if claim.action else ""
    if framing.means_only and verb in GOAL_VERBS:
        return False
    if framing.needs == "action" and verb in NORM_VERBS:
        return False
    if claim.kind == "inference" and framing.name != "inference":
        return False  # the two claims it links get their own questions
    return bool(kinds_ok) and claim.tense in framing.tenses


_FORECAST = re.compile(
    r"^(?P<subject>[^,;:]+?)(?:\s+(?P<modal>will|would|can|could)|(?P<ll>['’]ll)|"
    r"\s+(?:is|are|am)\s+going\s+to)\s+(?!not\b|never\b|ever\b)(?P<predicate>[a-z].*)$"
)
_COUNTERFACTUAL = re.compile(r"have\s+(?:been|\w+(?:ed|en|wn|ne|t))\b")
_ASKED_MODAL = {"will": "would", "would": "would", "can": "can", "could": "could"}
"""The modal a forecast is asked back with ("X will cut Y" → "Would X really cut Y?":
the question weighs the forecast; "will" asked back reads as a demand for a promise)."""
_FUNCTION_WORDS = words("a, an, the, this, that, these, those, there, it, its, some, many, most")


def forecast_parts(claim_text: str) -> dict[str, str] | None:
    """``claim_text`` split at its first modal into the subject, the modal it is asked
    back with and the predicate in the base form (None when it is no forecast, or the
    subject is not one plain phrase)."""
    match = _FORECAST.match(claim_text)
    if match is None or len(match["subject"].split()) > 10:
        return None
    if len(match["predicate"].split()) < 2 or _COUNTERFACTUAL.match(match["predicate"]):
        return None  # "Would companies really come?"; "could have rebuilt" looks back
    subject = match["subject"]
    first, _, rest = subject.partition(" ")
    if first.lower() in _FUNCTION_WORDS:  # "A higher wage would…": mid-question, "a higher…"
        subject = f"{first.lower()} {rest}".strip()
    modal = _ASKED_MODAL[match["modal"]] if match["modal"] else "would"
    return {"modal": modal.capitalize(), "subject": subject, "predicate": match["predicate"]}


def _capitalise(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def _fill(framing: Framing, claim: Claim, speaker: str) -> Iterator[str]:
    values = {"speaker": speaker, "claim": claim.text}
    if framing.needs == "action":
        if claim.action:
            yield framing.template.format(**values, action=claim.action)
    elif framing.needs == "cause":
        if claim.cause and claim.effect:
            yield framing.template.format(**values, cause=claim.cause, effect=claim.effect)
    elif framing.needs == "forecast":
        if parts := forecast_parts(claim.text):
            yield framing.template.format(**parts)
    elif framing.needs == "person":
        if claim.person:
            yield framing.template.format(**values, person=claim.person)
    elif framing.needs == "term":
        for term in claim.terms[:2]:
            yield framing.template.format(**values, term=term)
    else:
        yield framing.template.format(**values)


def candidates(reading: Reading) -> list[Candidate]:
    """Every framing that fits every claim, as questions (claims in text order); then a
    question of definition for each of the text's key phrases (``claim`` -1, -2…: not
    about one claim, chosen only when the claims give too few questions)."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for index, claim in enumerate(reading.claims):
        for framing in FRAMINGS:
            if not _fits(framing, claim):
                continue
            for question in _fill(framing, claim, reading.speaker):
                question = _capitalise(question)
                if question.lower() not in seen:
                    seen.add(question.lower())
                    family = framing.family or framing.name
                    out.append(
                        Candidate(
                            question=question,
                            claim=index,
                            framing=family,
                            generic=framing.generic,
                            wording=framing.name,
                        )
                    )
    definition = BY_NAME["definition"]
    for n, phrase in enumerate(reading.key_phrases, start=1):
        if not contested(phrase):
            continue  # "short-term", "regulatory action": any reader knows what they mean
        question = definition.template.format(speaker=reading.speaker, term=phrase)
        if question.lower() not in seen:
            seen.add(question.lower())
            out.append(
                Candidate(
                    question=question,
                    claim=-n,
                    framing="definition",
                    generic=False,
                    wording="definition",
                )
            )
    return out
