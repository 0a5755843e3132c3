"""The demo's FOCUS block: arguments, the weakness types, spans and Socratic questions
the cue generator found in them, those beside the hand-marked gold, and the scores."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maieutic.apps.demo_text import Story, plural, shorten, showing

SHOWN = 2
"""Arguments shown in full (those given a worded question first); the scores cover all."""
TEXT_CHARS = 300


@dataclass(kw_only=True)
class FocusRun:
    """What the block ran: the gold sample, the predictions and their result."""

    gold: Path
    predictions: Path
    results_path: Path
    predicted: Any
    """The predictions as generated (a ``FocusSet``)."""
    result: Any
    """Their ``EvalResult`` against the gold sample."""


def run_focus(directory: Path) -> FocusRun:
    """Find weakness types, spans and questions in the bundled hand-marked arguments
    with the cue generator, and score them against the marks."""
    import maieutic.run
    from maieutic.samples import sample_path

    gold = sample_path("focus/shots.jsonl")
    generation = maieutic.run.generate("focus", gold, generator="cues")
    [predictions, *_] = generation.save(directory / "focus_cues.jsonl")
    results_path = directory / "focus_results.json"
    evaluation = maieutic.run.evaluate(
        "focus", gold, submissions=[predictions], evaluator="type-span", out=results_path
    )
    return FocusRun(
        gold=gold,
        predictions=predictions,
        results_path=results_path,
        predicted=generation.output,
        result=evaluation.results[0],
    )


def _shown(run: FocusRun) -> list[Any]:
    """The arguments to show: those with a worded question first, in file order."""
    items = list(run.predicted.items.values())
    worded = [i for i in items if any(label.question for label in i.labels)]
    return (worded + [i for i in items if i not in worded])[:SHOWN]


def _argument(story: Story, item: Any, record: dict[str, Any]) -> None:
    from maieutic.tasks.focus.api import typology

    name = typology().name
    story.gap()
    story.say(f"{item.id} (category {item.category})", style="bold")
    story.say(f"text: {shorten(item.argument, TEXT_CHARS)}", indent=2)
    story.say("found: weakness type, the span it targets, and the question", indent=2)
    if not item.labels:
        story.say("nothing (None of the Above)", indent=4)
    for label in item.labels:
        story.say(f'{name(label.type)}: "{label.text}"', indent=4)
        question = label.question or "— (no well-formed wording for this span)"
        story.say(f"question: {question}", indent=6)
    story.say("against the gold, marked by hand:", indent=2)
    pairs = {pair["type"]: pair for pair in record["spans"]}
    for code in record["gold"]:
        pair = pairs.get(code)
        if pair is None:  # None of the Above: a type with no span
            found = "found" if code in record["predicted"] else "missed"
            story.say(f"{name(code)} → {found}", indent=4)
        elif pair["predicted"] is None:
            story.say(f'{name(code)}: "{pair["gold"]}" → missed', indent=4)
        else:
            overlap = f"type found; span word overlap (Jaccard) {pair['jaccard']:.2f}"
            story.say(f'{name(code)}: "{pair["gold"]}" → {overlap}', indent=4)
    extra = [code for code in record["predicted"] if code not in record["gold"]]
    if extra:
        story.say(f"not in the gold: {', '.join(name(c) for c in extra)}", indent=4)


def show_focus(story: Story, run: FocusRun) -> None:
    """The block: two arguments with what was found and the gold, then the scores."""
    records = {record["id"]: record for record in run.result.records()}
    total = len(records)
    story.title("FOCUS · weakness types, spans and Socratic questions, against hand-marked gold")
    story.say(
        "The cue generator (no model) names up to two weakness types per argument, from the "
        "two its category allows, the span of the argument each targets, and a Socratic "
        "question built from the type's template when the span fits it."
    )
    shown = _shown(run)
    story.say(
        showing(len(shown), total=total, noun="argument", where=run.gold)
        + " Shown first: those given a worded question."
    )
    for item in shown:
        _argument(story, item, records[item.id])
    summary = run.result.summary
    types = summary["classification"][summary["mode"]]["with_none"]
    spans = summary["spans"]
    story.gap()
    story.say(f"Scores over all {plural(total, 'argument')} (the questions are not scored):")
    story.say(
        f"types: macro F1 {types['macro']['f1']:.3f} (the headline: F1 of each of the 11 types, "
        "None of the Above included, averaged); micro precision "
        f"{types['micro']['precision']:.3f}, recall {types['micro']['recall']:.3f}",
        indent=2,
    )
    if "jaccard" in spans:
        story.say(
            f"spans: word overlap (Jaccard) {spans['jaccard']['mean']:.3f}, embedding "
            f"similarity {_mean(spans, 'embedding')} on average over the "
            f"{spans['jaccard']['n']} gold spans (a missed one counts 0)",
            indent=2,
        )
    story.say(
        f"{total} arguments are far too few to compare systems; the released development "
        "set has 140 (maieutic evaluate focus --gold dev_gold.csv PREDICTIONS).",
        indent=2,
    )


def _mean(spans: dict[str, Any], metric: str) -> str:
    value = spans.get(metric, {}).get("mean")
    return "—" if value is None else f"{value:.3f}"


def next_focus(run: FocusRun) -> str:
    """The command that shows the per-type table of the evaluation."""
    return (
        f"maieutic evaluate focus --gold {shlex.quote(str(run.gold))} "
        f"{shlex.quote(str(run.predictions))}"
    )
