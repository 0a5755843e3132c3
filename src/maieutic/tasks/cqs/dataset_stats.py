"""What a critical-questions dataset holds, and how a submission's score splits by
source corpus and by argumentation scheme.

"Benchmarking Critical Questions Generation" describes its data per source corpus
(Table 1) and per set (Table 2: the interventions, their length, their schemes, the
reference questions and their labels; 67.46% of the validation references are Useful,
42.68% of the test references). ``dataset_statistics`` gives those figures for any
file; ``breakdown`` splits an evaluated submission's score the same ways.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from maieutic.tasks.cqs.data import LABELS, CQDataset, Intervention


def _statistics(items: Sequence[Intervention]) -> dict[str, Any]:
    labels = Counter(q.label for item in items for q in item.cqs if q.label)
    n_references = sum(len(item.cqs) for item in items)
    n = len(items)
    return {
        "n_interventions": n,
        "mean_intervention_chars": sum(len(i.intervention) for i in items) / n if n else None,
        "mean_schemes": sum(len(i.schemes) for i in items) / n if n else None,
        "n_references": n_references,
        "mean_references": n_references / n if n else None,
        "labels": {label: labels.get(label, 0) for label in LABELS},
        "label_shares": {
            label: labels.get(label, 0) / n_references if n_references else None for label in LABELS
        },
    }


def dataset_statistics(dataset: CQDataset) -> dict[str, Any]:
    """Table 1/2 figures for the whole file (``all``) and per source corpus (the
    ``dataset`` field; interventions without one under ``""``). Lengths are in
    characters of the intervention as stored; a scheme named twice counts twice."""
    items = list(dataset.interventions.values())
    by_source: dict[str, list[Intervention]] = {}
    for item in items:
        by_source.setdefault(item.dataset, []).append(item)
    return {
        "all": _statistics(items),
        "by_dataset": {name: _statistics(by_source[name]) for name in sorted(by_source)},
    }


def _group_figures(results: Sequence[Any]) -> dict[str, Any]:
    """The overall figures of ``summarize``, over a group of interventions."""
    from maieutic.tasks.cqs.scoring import AS_NAE, NAE, UNSCORED

    scores = [r.score for r in results if r.score is not None]
    labels = Counter(label for r in results for label in r.labels)
    unscored = labels.pop(UNSCORED, 0)
    as_nae = all(getattr(r, "unscored_rule", AS_NAE) == AS_NAE for r in results)
    n_labels = sum(labels.values()) + (unscored if as_nae else 0)
    n_nae = labels.get(NAE, 0) + (unscored if as_nae else 0)
    return {
        "n_interventions": len(results),
        "n_scored_interventions": len(scores),
        "score": sum(scores) / len(scores) if scores else None,
        "useful_rate": labels.get("Useful", 0) / n_labels if n_labels else None,
        "nae_rate": n_nae / n_labels if n_labels else None,
    }


def _grouped(
    results: Iterable[Any], keys: Callable[[Any], Iterable[str]]
) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Any]] = {}
    for result in results:
        for key in dict.fromkeys(keys(result)):
            groups.setdefault(key, []).append(result)
    return {name: _group_figures(groups[name]) for name in sorted(groups)}


def breakdown(dataset: CQDataset, results: Sequence[Any]) -> dict[str, Any]:
    """A submission's figures per source corpus and per argumentation scheme.

    ``results`` are its interventions' results (each with ``intervention_id``,
    ``score`` and ``labels``). An intervention counts once under each distinct scheme
    it has, so the scheme groups overlap; one without a scheme is under ``""``. The
    score of a group is the mean of its interventions' scores, as the overall score."""
    items = dataset.interventions
    return {
        "by_dataset": _grouped(results, lambda r: [items[r.intervention_id].dataset]),
        "by_scheme": _grouped(results, lambda r: list(items[r.intervention_id].schemes) or [""]),
    }
