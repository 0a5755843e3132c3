"""AURA speed: a generated 200-paragraph document (about 2,000 Information Units) and
500 questions, scored with the embedded model; then a second question set on the same
document, in the same process and in a fresh evaluator that reads the unit vectors
from the on-disk cache. Prints seconds and peak RSS.

    python benchmarks/bench_aura.py
"""

from __future__ import annotations

import os
import random
import resource
import tempfile
import time

from maieutic.registry import create
from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.evaluate import QuestionSet

TOPICS = [
    "pump",
    "filter",
    "valve",
    "engine",
    "battery",
    "sensor",
    "brake",
    "heater",
    "fan",
    "door",
]
VERBS = ["controls", "protects", "cools", "feeds", "monitors", "supports", "cleans", "powers"]
PARTS = ["the main circuit", "the water line", "the rear axle", "the control panel", "the air duct"]


def document(rng: random.Random, paragraphs: int = 200) -> str:
    """Paragraphs of four sentences, every tenth followed by a three-item list."""
    blocks = []
    for n in range(paragraphs):
        topic = rng.choice(TOPICS)
        sentences = [
            f"The {topic} number {n} {rng.choice(VERBS)} {rng.choice(PARTS)} during normal use.",
            f"Section {n} explains how the {topic} is checked every {rng.randint(2, 30)} days.",
            f"A faulty {topic} in unit {n} can damage {rng.choice(PARTS)} within hours.",
            f"Replace the {topic} of model {n} when the warning light stays on.",
        ]
        blocks.append(" ".join(sentences))
        if n % 10 == 0:
            blocks.append("\n".join(f"- inspect {rng.choice(PARTS)} of unit {n}" for _ in range(3)))
    return "\n\n".join(blocks)


def questions(rng: random.Random, count: int, salt: str) -> list[str]:
    """Questions about the generated document, with some off-topic ones."""
    out = []
    for i in range(count):
        n, topic = rng.randrange(200), rng.choice(TOPICS)
        form = i % 5
        if form == 0:
            out.append(f"What does the {topic} number {n} control{salt}?")
        elif form == 1:
            out.append(f"How often is the {topic} in section {n} checked{salt}?")
        elif form == 2:
            out.append(f"When should the {topic} of model {n} be replaced{salt}?")
        elif form == 3:
            out.append(f"Can a faulty {topic} in unit {n} damage other parts{salt}?")
        else:
            out.append(f"Who painted the ceiling of chapel {n}{salt}?")
    return out


def peak_rss_mb() -> float:
    """Peak resident memory of this process, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp(prefix="bench-aura-"))
    rng = random.Random(0)
    doc = Document(text=document(rng), source="generated.md")
    first = QuestionSet(questions=questions(rng, 500, ""), source="q1", name="first")
    second = QuestionSet(questions=questions(rng, 500, " exactly"), source="q2", name="second")

    started = time.perf_counter()
    evaluator = create("evaluator", task="aura", name="aura")
    [result] = evaluator.evaluate(doc, [first])
    cold = time.perf_counter() - started
    print(f"units: {result.summary['n_units']} ({result.summary['n_necessary']} necessary)")
    print(f"first set, 500 questions, cold (model load, units encoded): {cold:.1f} s")
    print(
        "  answerability {answerability:.3f} coverage {coverage:.3f} non-redundancy "
        "{non_redundancy:.3f} entropy {entropy:.3f}".format(**result.summary)
    )

    started = time.perf_counter()
    evaluator.evaluate(doc, [second])
    print(f"second set, same evaluator (units indexed once): {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    fresh = create("evaluator", task="aura", name="aura")
    fresh.evaluate(doc, [second])
    print(
        "second set, fresh evaluator (unit and question vectors from the disk cache, "
        f"model already loaded in this process): {time.perf_counter() - started:.1f} s"
    )
    print(f"peak RSS: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
