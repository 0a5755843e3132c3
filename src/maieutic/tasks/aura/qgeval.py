"""How far AURA's answerability agrees with people, on QGEval-style data: passages,
each with questions from several systems and annotators' mean ratings (1–3).

Reported: Spearman between each question's answerability score (its best unit's
score) and the human answerability rating; ROC AUC of the score for telling apart the
questions people found unanswerable (mean rating < 2.5); and, per system, the share of
its questions AURA finds answerable, its mean score and coverage beside the human mean,
with the Spearman correlation of the two system rankings.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from maieutic.data.files import read_text
from maieutic.data.surrogates import refuse_in_json
from maieutic.errors import DataError
from maieutic.stats import UndefinedStatistic, spearman
from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.evaluate import AuraEvaluator
from maieutic.tasks.aura.metrics import coverage

UNANSWERABLE_BELOW = 2.5
"""A question whose mean human answerability rating is below this is unanswerable."""
RATING_RANGE = (1.0, 3.0)
"""QGEval's rating scale: each annotator rates 1–3, the file holds their mean."""


def load_qgeval(path: str | Path) -> list[dict[str, Any]]:
    """The instances: ``[{"id", "passage", "questions": [{"prediction", "source",
    "answerability", …}]}]``, checked for what the meta-evaluation reads."""
    try:
        text = read_text(Path(path))
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON ({exc.msg}, line {exc.lineno})", where=str(path)) from None
    refuse_in_json(text, data, str(path))
    if not isinstance(data, list) or not data:
        raise DataError("expected a non-empty JSON list of passages", where=str(path))
    for n, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("passage"), str):
            raise DataError(f"[{n}].passage: expected a string", where=str(path))
        questions = item.get("questions")
        if not isinstance(questions, list):
            raise DataError(f"[{n}].questions: expected a list", where=str(path))
        for m, q in enumerate(questions):
            if not isinstance(q, dict) or not isinstance(q.get("prediction"), str):
                raise DataError(
                    f"[{n}].questions[{m}].prediction: expected a string", where=str(path)
                )
            _check_rating(q.get("answerability"), f"[{n}].questions[{m}].answerability", path)
    return data


def _check_rating(value: Any, at: str, path: str | Path) -> None:
    """Refuse a human rating that is not a number on the 1–3 scale: NaN or infinity
    (which JSON readers accept) would corrupt every correlation in silence. CompQA's
    human scores are refused the same way."""
    low, high = RATING_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"{at}: expected a number from {low:g} to {high:g}", where=str(path))
    if not low <= value <= high:  # False for NaN too
        raise DataError(
            f"{at}: rating {value!r} is not a number from {low:g} to {high:g}", where=str(path)
        )


def system_name(source: str) -> str:
    """The generating system of a question: QGEval sources are ``<dataset>_<system>``
    (``SQuAD_T5-base_finetune``); the same system on both datasets is one system."""
    dataset, _, system = source.partition("_")
    return system if dataset in ("SQuAD", "HotpotQA") and system else source


def _safe_spearman(x: list[float], y: list[float]) -> float | None:
    try:
        return spearman(x, y).r
    except UndefinedStatistic:
        return None


def _system_rankings(per_system, names, key: str) -> float | None:
    return _safe_spearman(
        [float(np.mean(per_system[n][key])) for n in names],
        [float(np.mean(per_system[n]["human"])) for n in names],
    )


def _auc_unanswerable(unanswerable: list[bool], scores: list[float]) -> float | None:
    if any(unanswerable) and not all(unanswerable):
        # a low score should flag an unanswerable question
        from sklearn.metrics import roc_auc_score  # a second to import: only when used

        return float(roc_auc_score(unanswerable, -np.asarray(scores)))
    return None


def qgeval_agreement(evaluator: AuraEvaluator, instances: list[dict[str, Any]]) -> dict[str, Any]:
    """The agreement report (see the module docstring). With a learned answerability
    scorer, its probability is reported beside the similarity score (``learned``)."""
    scores, human, unanswerable, learned = [], [], [], []
    per_system: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for item in instances:
        document = Document(text=item["passage"], source=str(item.get("id", "")))
        indexed = evaluator.index(document)
        questions = [q["prediction"] for q in item["questions"]]
        mappings, _, probability = evaluator.map(document, indexed, questions)
        for n, (q, mapping) in enumerate(zip(item["questions"], mappings, strict=True)):
            scores.append(mapping.score)
            human.append(float(q["answerability"]))
            unanswerable.append(q["answerability"] < UNANSWERABLE_BELOW)
            system = per_system[system_name(str(q.get("source", "?")))]
            system["answerable"].append(float(mapping.answerable))
            system["score"].append(mapping.score)
            system["coverage"].append(coverage(indexed.units, [mapping]))
            system["human"].append(float(q["answerability"]))
            if probability is not None:
                learned.append(probability[n])
                system["probability"].append(probability[n])
    systems = {
        name: {k: float(np.mean(v)) for k, v in figures.items()} | {"n": len(figures["human"])}
        for name, figures in sorted(per_system.items())
    }
    names = list(systems)
    report = {
        "n_questions": len(scores),
        "n_passages": len(instances),
        "n_unanswerable": int(sum(unanswerable)),
        "spearman_question": _safe_spearman(scores, human),
        "roc_auc_unanswerable": _auc_unanswerable(unanswerable, scores),
        "spearman_system_answerable": _system_rankings(per_system, names, "answerable"),
        "spearman_system_score": _system_rankings(per_system, names, "score"),
        "systems": systems,
    }
    if evaluator.learned is not None:
        # the answerable share above is then the scorer's decisions; the similarity
        # score's figures stay beside it for comparison
        report["learned"] = {
            "spearman_question": _safe_spearman(learned, human),
            "roc_auc_unanswerable": _auc_unanswerable(unanswerable, learned),
            "spearman_system_probability": _system_rankings(per_system, names, "probability"),
            "threshold": evaluator.learned.scorer.threshold,
            "warnings": list(evaluator.learned.warnings),
        }
    return report
