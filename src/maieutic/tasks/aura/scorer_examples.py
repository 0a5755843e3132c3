"""What an answerability scorer learns from (registered for ``maieutic train scorer
--task aura``): QGEval-style ratings (mean answerability 1–3 per question; the context
is the passage, the group its id; answerable when the mean is at least 2.5), giving
P(answerable | passage, question).

Feature set ``pair-v1`` (``maieutic.scorers.features``): on QGEval the element-wise
product of the question's and the passage's vectors carries the signal (grouped
cross-validation, system-ranking Spearman 0.81 with it, 0.60 without).
"""

from __future__ import annotations

from maieutic.registry import register
from maieutic.scorers.examples import Examples
from maieutic.scorers.sources import ExampleSource

ANSWERABLE_FROM = 2.5
"""QGEval: a mean answerability rating at or above this counts as answerable (the
AURA meta-evaluation's line)."""
FEATURES = "pair-v1"


def qgeval_examples(instances: list[dict]) -> Examples:
    """Every rated question of QGEval-style ``instances``."""
    from maieutic.tasks.aura.qgeval import system_name

    out = Examples(positive="answerable")
    for n, item in enumerate(instances):
        for q in item["questions"]:
            rating = float(q["answerability"])
            out.add(
                item["passage"],
                question=q["prediction"],
                label="answerable" if rating >= ANSWERABLE_FROM else "unanswerable",
                ordinal=rating,
                group=str(item.get("id", n)),
                system=system_name(str(q.get("source", "?"))),
            )
    return out


def _read(path, _encoder, _store) -> Examples:
    from maieutic.tasks.aura.qgeval import load_qgeval

    return qgeval_examples(load_qgeval(path))


@register("scorer-examples", task="aura", name="references")
def references() -> ExampleSource:
    """QGEval-style answerability ratings: P(answerable)."""
    return ExampleSource(read=_read, features=FEATURES, source={"examples": "references"})
