"""Scored answers from wherever they are: the released judged files (answer JSON with
``score_dict``) or maieutic results files of ``evaluate compqa`` (their per-answer
records carry the same fields), and folders of either."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from maieutic.data.files import read_text
from maieutic.errors import DataError
from maieutic.evaluate.results_file import RESULTS_FORMAT
from maieutic.tasks.compqa.data import Answer, answers_from, check_scores, parse_json


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


def _from_results(data: dict, path: Path) -> list[Answer]:
    answers = []
    for result in data.get("results", []):
        if result.get("task") != "compqa":
            raise DataError(f"a results file of task {result.get('task')!r}", where=str(path))
        for item in result["items"]:
            answers.append(
                Answer(
                    item["object1"],
                    item["object2"],
                    item.get("aspect") or "",
                    item.get("comparison", ""),
                    item["generator"],
                    item["scenario"],
                    check_scores(item["score_dict"]),
                    item.get("score"),
                )
            )
    return answers


def read_scored(path: str | Path) -> list[Answer]:
    """The scored answers of one file (a released judged file or a results file)."""
    path = Path(path)
    data = parse_json(read_text(path), str(path))
    if isinstance(data, dict) and data.get("format") == RESULTS_FORMAT:
        return _from_results(data, path)
    return answers_from(data, path)
