"""Scored answers from wherever they are: the released judged files (answer JSON with
``score_dict``) or maieutic results files of ``evaluate compqa`` (their per-answer
records carry the same fields), and folders of either; with what made the scores, for
the signatures of the tables and agreement figures drawn from them."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from maieutic.data.files import read_text
from maieutic.errors import DataError
from maieutic.evaluate.results_file import RESULTS_FORMAT
from maieutic.tasks.compqa.data import Answer, answers_from, check_scores, parse_json
from maieutic.tasks.compqa.human_scored import is_human_file, read_human_files
from maieutic.tasks.compqa.scored import ScoredFile


def answer_files(paths: Iterable[str]) -> list[Path]:
    """The files given, with each folder replaced by its ``*.json`` files (generation
    records, ``*.meta.json``, left out)."""
    files: list[Path] = []
    names = list(paths)
    for raw in names:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.glob("*.json") if not p.name.endswith(".meta.json"))
        else:
            files.append(path)
    if not files:
        raise DataError("no answer files (JSON) found", where=", ".join(names))
    return files


OWN_SCORES = "score_dict"
"""What made the scores of an answer file with its own ``score_dict`` (a released
judged file): the file does not name its judge."""
UNSCORED = "unscored"
"""An answer file with no ``score_dict`` at all."""
LEFT_OUT = "human rows left out (unscored or partial)"
"""How outputs name the count of people's rows left out."""


def scorer_name(signature: Any) -> str:
    """A result's evaluator as a table's signature names it (``llm@MODEL``, ``rules``)."""
    if not isinstance(signature, dict):
        return "unknown"
    name = str(signature.get("evaluator") or "unknown")
    model = signature.get("model")
    return f"{name}@{model}" if model else name


def _from_results(data: dict, path: Path) -> ScoredFile:
    answers = []
    scored_by = []
    for result in data.get("results", []):
        if result.get("task") != "compqa":
            raise DataError(f"a results file of task {result.get('task')!r}", where=str(path))
        scored_by.append(scorer_name(result.get("signature")))
        for item in result["items"]:
            answers.append(
                Answer(
                    object1=item["object1"],
                    object2=item["object2"],
                    aspect=item.get("aspect") or "",
                    comparison=item.get("comparison", ""),
                    generator=item["generator"],
                    scenario=item["scenario"],
                    check=check_scores(item["score_dict"]),
                    stored_score=item.get("score"),
                )
            )
    return ScoredFile(answers=answers, scored_by=scored_by)


def read_scored_file(path: str | Path) -> ScoredFile:
    """The scored answers of one file (a released judged file or a results file) and
    what made their scores."""
    path = Path(path)
    data = parse_json(read_text(path), str(path))
    if isinstance(data, dict) and data.get("format") == RESULTS_FORMAT:
        return _from_results(data, path)
    answers = answers_from(data, path)
    scored = any(a.check is not None for a in answers)
    return ScoredFile(answers=answers, scored_by=[OWN_SCORES if scored else UNSCORED])


def read_scored(path: str | Path) -> list[Answer]:
    """The scored answers of one file (a released judged file or a results file)."""
    return read_scored_file(path).answers


def read_judged(paths: Iterable[str], humans: bool = True) -> list[ScoredFile]:
    """Scored answers from every path given: answer or results JSON (folders stand for
    their ``*.json``), and, unless ``humans`` is False, people's score TSVs, read
    together as one human column (one averaged table, or one or two annotators' files).
    With ``humans=False`` a TSV is refused: the caller compares or trains on a judge's
    scores, and people's in its place would compare people with people."""
    names = list(paths)
    tables = [p for p in names if is_human_file(p)]
    if tables and not humans:
        raise DataError(
            "a people's score file (TSV) where a judge's scored answers are expected "
            "(--judged takes judged or results JSON here)",
            where=tables[0],
        )
    others = [p for p in names if not is_human_file(p)]
    files = [read_scored_file(path) for path in answer_files(others)] if others else []
    if tables:
        files.append(read_human_files(tables))
    return files


def from_people(file: ScoredFile) -> bool:
    """Whether ``file`` holds people's scores (read from their TSVs)."""
    return any(name.startswith("humans:") for name in file.scored_by)


def left_out_rows(files: Iterable[ScoredFile]) -> int | None:
    """People's rows left out as unscored or partly scored, or None when no file holds
    people's scores (so that a judge-only output carries no such count)."""
    people = [f for f in files if from_people(f)]
    return sum(f.left_out for f in people) if people else None
