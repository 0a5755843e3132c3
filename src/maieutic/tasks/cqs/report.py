"""The critical-questions task: label shares per system, the distribution of
intervention scores and of best-reference similarities, diversity, and every question
with its label, its best reference and the similarity."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from maieutic.report.html.context import TextFinder
from maieutic.report.html.plots import grouped_bars, histogram, stacked_chart
from maieutic.report.html.sections_common import Entry
from maieutic.report.html.svg import finite
from maieutic.report.html.tables import Table, headers, is_number, number
from maieutic.report.html.templating import Block, render

LABEL_COLOURS = {
    "Useful": "#1a7f45",
    "Unhelpful": "#e69f00",
    "Invalid": "#b3261e",
    "not_able_to_evaluate": "#8a939d",
    "missing_cqs": "#c9d0d7",
    "unscored": "#7b4fa0",
}
"""The benchmark's labels, in the order they are shown."""


def _questions(item: dict[str, Any]) -> list[dict[str, Any]]:
    cqs = item.get("cqs")
    return [q for q in cqs if isinstance(q, dict)] if isinstance(cqs, list) else []


def label_counts(entry: Entry) -> dict[str, int]:
    """Questions per label: the summary's counts, or counted from the items."""
    stored = entry.result.summary.get("labels")
    if isinstance(stored, dict) and all(finite(v) for v in stored.values()):
        return {str(k): int(v) for k, v in stored.items()}
    counts: Counter[str] = Counter()
    for item in entry.result.records():
        if not isinstance(item.get("cqs"), list):
            counts["missing_cqs"] += 3
        counts.update(str(q.get("label")) for q in _questions(item))
    return dict(counts)


def _labels_blocks(entries: Sequence[Entry]) -> list[Block]:
    counts = {e.anchor: label_counts(e) for e in entries}
    names = list(LABEL_COLOURS)
    names += sorted({k for c in counts.values() for k in c} - set(names))
    rows = [(e.label, [(n, counts[e.anchor].get(n, 0)) for n in names]) for e in entries]
    colours = {n: LABEL_COLOURS.get(n, "#999999") for n in names}
    chart = stacked_chart(rows, colours, "Labels of the questions, per system")
    table = Table(headers(["submission", *names, "Useful rate", "NAE rate"]))
    for e in entries:
        summary = e.result.summary
        table.add(
            [
                e.label,
                *(number(counts[e.anchor].get(n, 0), "{}") for n in names),
                number(summary.get("useful_rate"), "{:.1%}"),
                number(summary.get("nae_rate"), "{:.1%}"),
            ]
        )
    note = (
        "Each question inherits the label of its most similar reference; below the "
        "threshold it is not_able_to_evaluate (NAE). A missing intervention counts three "
        "missing_cqs."
    )
    return [Block("Label distribution", note, chart, table=table)]


THIRDS = ("0", "1/3", "2/3", "1")
"""The scores an intervention's three questions can give."""


def _fraction(score: float) -> str:
    return str(Fraction(score).limit_denominator(300))


def _score_block(entries: Sequence[Entry]) -> Block | None:
    per_system = []
    for e in entries:
        scores = [i.get("score") for i in e.result.records()]
        per_system.append(Counter(_fraction(s) for s in scores if is_number(s)))
    seen = {b for c in per_system for b in c}
    if not seen:
        return None
    # every share of three questions has its place, counted or not (a run whose scores
    # are all 0 or 1 still shows that none was 1/3 or 2/3), with any other share seen
    bins = sorted(seen | set(THIRDS), key=Fraction)
    series = [
        (e.label, [float(c.get(b, 0)) for b in bins])
        for e, c in zip(entries, per_system, strict=True)
    ]
    chart = grouped_bars(bins, series, "interventions", title="Intervention scores, per system")
    note = "An intervention scores the share of its three questions labelled Useful."
    return Block("Intervention scores", note, chart)


def _similarity_block(entries: Sequence[Entry]) -> Block | None:
    values = {
        e.anchor: [
            float(q["similarity"])
            for i in e.result.records()
            for q in _questions(i)
            if is_number(q.get("similarity"))
        ]
        for e in entries
    }
    found = [v for vs in values.values() for v in vs]
    if not found:
        return None
    top = 100.0 if max(found) > 1.0 else 1.0  # chrF scores 0–100, cosines 0–1
    edges = [top * k / 10 for k in range(11)]
    groups = [f"{edges[k]:g}–{edges[k + 1]:g}" for k in range(10)]
    series = [
        (e.label, [float(c) for c in histogram(values[e.anchor], edges=edges)]) for e in entries
    ]
    thresholds = sorted(
        {
            f"{e.result.signature.threshold:g}"
            for e in entries
            if e.result.signature.threshold is not None
        }
    )
    note = "Similarity of each question to its best reference"
    note += f" (threshold {', '.join(thresholds)})." if thresholds else "."
    chart = grouped_bars(groups, series, "questions", title="Best-reference similarity, per system")
    return Block("Similarity to the best reference", note, chart)


def _diversity_block(entries: Sequence[Entry]) -> Block | None:
    table = Table(
        headers(
            [
                "submission",
                "questions",
                "n-gram div (all)",
                "CR-div (all)",
                "n-gram div (Useful)",
                "CR-div (Useful)",
            ],
        )
    )
    for e in entries:
        div = e.result.summary.get("diversity")
        if not isinstance(div, dict):
            continue
        every, useful = div.get("all") or {}, div.get("useful") or {}
        table.add(
            [
                e.label,
                number(every.get("n_texts"), "{}"),
                number(every.get("ngram_diversity"), "{:.3f}"),
                number(every.get("cr_div"), "{:.3f}"),
                number(useful.get("ngram_diversity"), "{:.3f}"),
                number(useful.get("cr_div"), "{:.3f}"),
            ]
        )
    if not table.rows:
        return None
    return Block(
        "Diversity",
        "Distinct n-grams (sum over n = 1–4) and compression-ratio diversity of the questions.",
        table=table,
    )


_BREAKDOWNS = (
    ("by_dataset", "Scores by source corpus", "source corpus"),
    ("by_scheme", "Scores by argumentation scheme", "scheme"),
)


def _breakdown_blocks(entries: Sequence[Entry]) -> list[Block]:
    """Each submission's score per source corpus and per scheme (an intervention counts
    once under each distinct scheme it has, so scheme groups overlap)."""
    blocks = []
    for key, title, what in _BREAKDOWNS:
        table = Table(
            headers(["submission", what, "interventions", "score", "Useful", "NAE"], numeric_from=2)
        )
        for e in entries:
            found = e.result.summary.get("breakdown")
            groups = found.get(key) if isinstance(found, dict) else None
            if not isinstance(groups, dict):
                continue
            for name, figures in groups.items():
                if not isinstance(figures, dict):
                    continue
                table.add(
                    [
                        e.label,
                        name or "(none)",
                        number(figures.get("n_interventions"), "{}"),
                        number(figures.get("score"), "{:.3f}"),
                        number(figures.get("useful_rate"), "{:.1%}"),
                        number(figures.get("nae_rate"), "{:.1%}"),
                    ]
                )
        if table.rows:
            note = "The mean intervention score within each group, as the overall score."
            if key == "by_scheme":
                note += " An intervention counts under each distinct scheme it has."
            blocks.append(Block(title, note, table=table))
    return blocks


def _browser(entry: Entry, finder: TextFinder) -> dict[str, Any]:
    texts = finder.texts(entry.file, entry.result)
    interventions = []
    for item in entry.result.records():
        questions = [
            {
                "id": str(q.get("id", "")),
                "text": str(q.get("cq", "")),
                "label": str(q.get("label", "")),
                "reference_id": str(q.get("best_reference_id") or ""),
                "reference": texts.references.get(str(q.get("best_reference_id")), ""),
                "similarity": number(q.get("similarity"), "{:.6g}").content,  # as stored
            }
            for q in _questions(item)
        ]
        score = item.get("score")
        interventions.append(
            {
                "id": str(item.get("intervention_id", "")),
                "text": texts.documents.get(str(item.get("intervention_id")), ""),
                "score": _fraction(score) if is_number(score) else "—",
                "missing": not isinstance(item.get("cqs"), list),
                "flags": [str(f) for f in item.get("flags") or []],
                "questions": questions,
            }
        )
    n = sum(len(i["questions"]) for i in interventions)
    return {"entry": entry, "interventions": interventions, "n_questions": n, "texts": texts}


def cqs_blocks(entries: Sequence[Entry], finder: TextFinder) -> list[Block]:
    """The CQs-specific blocks of the task section."""
    blocks = _labels_blocks(entries)
    for block in (_score_block(entries), _similarity_block(entries), _diversity_block(entries)):
        if block is not None:
            blocks.append(block)
    blocks += _breakdown_blocks(entries)
    systems = [_browser(e, finder) for e in entries]
    blocks.append(
        Block(
            "Questions",
            "Every question with its label, its most similar reference "
            "and the similarity; open a system, then an intervention.",
            html=render("cqs_questions.html.j2", systems=systems),
        )
    )
    return blocks
