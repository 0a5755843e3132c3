"""The Socratic part of ``ask``: up to two questions, each with a weakness type and the
span of the text it challenges.

Offline, the claims generator writes them (the text's own claims, each given the
weakness type its kind of claim calls for). With a model, FOCUS's LLM generator does;
when the model gives nothing to ask from — its reply names no weakness type, cannot be
read, or the call fails — the offline generator stands in, and the part's origin says
so and why, blaming the reply when the reply was the problem.
"""

from __future__ import annotations

from typing import Any

from maieutic.ask.options import AskOptions, Part, llm_args, model_origin
from maieutic.language.syntax import split_speaker
from maieutic.llm.budget import SPENT
from maieutic.registry import create
from maieutic.tasks.focus.api import (
    NO_TYPES,
    NONE_ID,
    FocusItem,
    FocusOutcome,
    FocusSet,
    parse_reply,
    typology,
)

OFFLINE = "offline claims generator"


def socratic_questions(text: str, options: AskOptions) -> Part:
    """Up to two Socratic questions with weakness type, span and offsets, from the
    model when one is named and it gives any, else from the offline generator."""
    if not options.uses_llm:
        return _generated(text, name="claims", args={}, origin=OFFLINE)[0]
    part, outcome = _generated(text, name="llm", args=llm_args(options), origin="")
    if part.questions:
        return part
    offline, _ = _generated(text, name="claims", args={}, origin=OFFLINE)
    # the heading gives the reason; a warning saying only the same is left out
    said = [w for w in part.warnings if w != NO_TYPES]
    return Part(
        questions=offline.questions,
        signature=offline.signature,
        origin=f"{OFFLINE}: {why_nothing(outcome)}",
        warnings=said + offline.warnings,
        failure=part.failure,  # a failed model call is still reported (exit code 1)
    )


def why_nothing(outcome: FocusOutcome) -> str:
    """Why a model's outcome gave no Socratic question: its call, or its reply."""
    if outcome.failed:
        spent = SPENT in (outcome.failure or "")
        return "the model's time budget ran out" if spent else "the model call failed"
    parsed = parse_reply(outcome.raw or "")
    if not parsed.parsed:
        return "the model's reply named no weakness type"
    if parsed.labels and all(type_id == NONE_ID for type_id, _ in parsed.labels):
        return "the model's reply named no weakness (None of the Above)"
    return "the model's reply named no known weakness type"


def _generated(
    text: str, *, name: str, args: dict[str, Any], origin: str
) -> tuple[Part, FocusOutcome]:
    """The part as the registered focus generator ``name`` gives it, and its outcome."""
    # a transcript's speaker label ("CLINTON:") is no part of the argument: the claims
    # reader knows the label; a model might take it for a span, so it sees the label
    # blanked (offsets into the text still hold)
    _, _, body_start = split_speaker(text)
    argument = text if name == "claims" else " " * body_start + text[body_start:]
    dataset = FocusSet(
        items={"ask": FocusItem(id="ask", argument=argument, category=None)},
        source="<ask>",
        name="ask",
    )
    generator = create("generator", task="focus", name=name, **args)
    run = generator.generate(dataset)
    [outcome] = run.outcomes
    signature = generator.signature(dataset)
    failure = f"Socratic questions: {outcome.failure}" if outcome.failed else None
    part = Part(
        questions=_labels(outcome),
        signature=str(signature),
        origin=origin or model_origin(signature),
        warnings=list(outcome.problems),
        failure=failure,
    )
    return part, outcome


def _labels(outcome: FocusOutcome) -> list[dict[str, Any]]:
    names = typology()
    return [
        {
            "type": label.type,
            "type_name": names.name(label.type),
            "span": label.text,
            "start": label.start,
            "end": label.end,
            "question": label.question,
        }
        for label in outcome.labels
        if label.type != NONE_ID
    ]
