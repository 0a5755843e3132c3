"""The demo's critical-questions block: interventions, the questions the claims
generator asked about them, and the label each question took from the references."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maieutic.apps.demo_text import Story, plural, shorten, showing

SHOWN = 2
"""Interventions shown in full; the scores cover them all."""
TEXT_CHARS = 300
REFERENCE_CHARS = 90
NAE = "not_able_to_evaluate"


@dataclass(kw_only=True)
class CqsRun:
    """What the block ran: the dataset, the files written and the two results."""

    dataset: Path
    generated: Path
    results_path: Path
    notes: dict[str, str]
    """The generator's note per intervention given fewer than three questions."""
    mine: Any
    """The generated submission's ``EvalResult``."""
    others: list[Any]
    """The other submissions' results (the bundled sample submission)."""
    warnings: list[str]


def run_cqs(directory: Path) -> CqsRun:
    """Generate questions for the sample interventions with the claims generator and
    score them, and the bundled sample submission, with the embedding evaluator."""
    import maieutic.run
    from maieutic.samples import sample_path

    dataset = sample_path("cqs/sample_dataset.json")
    generation = maieutic.run.generate("cqs", dataset, generator="claims")
    [generated] = generation.save(directory / "claims_generator.json")
    notes = {}
    for note in (n for run in generation.runs for n in getattr(run, "notes", [])):
        key, _, why = note.partition(": ")
        notes[key] = why
    results_path = directory / "results.json"
    evaluation = maieutic.run.evaluate(
        "cqs",
        dataset,
        submissions=[generated, sample_path("cqs/sample_submission.json")],
        evaluator="sts",
        out=results_path,
    )
    mine, *others = evaluation.results
    return CqsRun(
        dataset=dataset,
        generated=generated,
        results_path=results_path,
        notes=notes,
        mine=mine,
        others=others,
        warnings=list(evaluation.warnings),
    )


def _references(dataset: Path) -> dict[str, dict[str, Any]]:
    """The sample dataset as written: intervention id → intervention and references."""
    return json.loads(dataset.read_text(encoding="utf-8"))


def _verdict(question: dict[str, Any], references: dict[str, str], threshold: float) -> str:
    """Why a question got its label: the reference it resembles, and how closely."""
    similarity = question.get("similarity")
    closest = references.get(question.get("best_reference_id") or "", "")
    quoted = f'"{shorten(closest, REFERENCE_CHARS)}"' if closest else "none"
    if similarity is None:
        return f"→ {question['label']}"
    if question["label"] == NAE:
        return (
            f"→ {NAE}: the closest reference, {quoted}, is at {similarity:.3f}, under {threshold:g}"
        )
    # the label is the nearest reference's, however loosely that reference matches
    return (
        f"→ {question['label']}, the label of the nearest reference, {quoted} "
        f"(similarity {similarity:.3f})"
    )


def _intervention(story: Story, record: dict, *, item: dict, threshold: float, note: str) -> None:
    story.gap()
    story.say(record["intervention_id"], style="bold")
    story.say(f"text: {shorten(item['intervention'], TEXT_CHARS)}", indent=2)
    questions = record["cqs"] if isinstance(record["cqs"], list) else []
    if not questions:
        story.say(f"no questions ({note or 'the generator gave none'}); scored 0", indent=2)
        return
    story.say("questions and the label each took:", indent=2)
    references = {r["id"]: r["cq"] for r in item.get("cqs", [])}
    for n, question in enumerate(questions, start=1):
        story.say(f"{n}. {question['cq']}", indent=4, hang=3)
        story.say(_verdict(question, references, threshold), indent=7, hang=2)
    useful = sum(q["label"] == "Useful" for q in questions)
    story.say(
        f"intervention score {record['score']:.2f}: {useful} of 3 questions Useful"
        + (f" (only {len(questions)} asked: {note})" if note else ""),
        indent=2,
    )


def _labels(summary: dict[str, Any]) -> str:
    counts = summary.get("labels", {})
    return ", ".join(f"{counts[k]} {k}" for k in counts if counts[k] and k != "unscored")


def show_cqs(story: Story, ran: CqsRun) -> None:
    """The block: how questions are labelled, two interventions with their questions
    and labels, then each submission's score and what it means."""
    signature = ran.mine.signature
    threshold = signature.threshold
    data = _references(ran.dataset)
    records = ran.mine.records()
    story.title("CQs · critical questions for an intervention, labelled by reference questions")
    story.say(
        "The claims generator (no model) asks three questions about each intervention's own "
        "claims. Each question takes the label (Useful, Unhelpful or Invalid) of the most "
        "similar reference question written for that intervention, when the similarity of "
        f"their {signature.model} embeddings is at least {threshold:g}; under that it is "
        f"{NAE}."
    )
    story.say(
        showing(
            min(SHOWN, len(records)), total=len(records), noun="intervention", where=ran.dataset
        )
    )
    for record in records[:SHOWN]:
        key = record["intervention_id"]
        _intervention(
            story, record, item=data[key], threshold=threshold, note=ran.notes.get(key, "")
        )
    hidden = [k for k in ran.notes if k not in {r["intervention_id"] for r in records[:SHOWN]}]
    if hidden:
        story.gap()
        story.say("Not shown, where the generator asked fewer than three questions:")
        for key in hidden:
            story.say(f"{key}: {ran.notes[key]}", indent=2)
    story.gap()
    story.say(f"Scores over all {plural(len(records), 'intervention')}:")
    for result in [ran.mine, *ran.others]:
        what = (
            "the claims generator's questions"
            if result is ran.mine
            else "a bundled hand-written submission, for comparison"
        )
        labels = _labels(result.summary)
        if result is ran.mine:  # the generator's shortfalls, which carry no label
            asked = sum(len(r["cqs"]) for r in records if isinstance(r["cqs"], list))
            if (short := 3 * len(records) - asked) > 0:
                labels += f", {plural(short, 'question')} not asked"
        story.say(f"{result.submission} {result.score:.3f} ({what}): {labels}", 2)
    story.say(
        "score = Useful questions / 3 per intervention, averaged: 1 means three Useful "
        "questions for every intervention, 0 none; a missing question counts as not Useful.",
        indent=2,
    )


def next_cqs(ran: CqsRun) -> str:
    """The command that explains the evaluation's headline figures and keeps them all."""
    return (
        f"maieutic evaluate cqs --data {shlex.quote(str(ran.dataset))} "
        f"{shlex.quote(str(ran.generated))} --out cqs.json"
    )
