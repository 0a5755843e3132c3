"""CompQA answers and rubric scores as released ("Argument-Based Comparative Question
Answering Evaluation Benchmark").

- The rubric (package data, ``rubric.json``): 15 criteria, maxima 1 or 2,
  groups structure 7 / relevance 5 / quality 7, total 19.
- Answer files: JSON lists of ``{object1, object2, aspect ("" when none), comparison[,
  score_dict, score]}``; the generator and scenario come from the file name
  (``gpt4_scenario_3.json``, ``scored_gpt4_scenario_3_comparison``, ``human.json``).
- A score dictionary is never summed blindly: each criterion is checked (missing,
  not a number, outside 0..max) and unknown keys are reported; the total exists only
  when all 15 criteria are valid, and it is always computed here — a stored ``score``
  is never trusted (in the released files it is sometimes 0 beside filled criteria,
  or the sum of keys 16–30).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from maieutic.data.files import read_text, type_name
from maieutic.data.surrogates import refuse_in_json
from maieutic.errors import DataError

_RUBRIC = Path(__file__).with_name("rubric.json")
_SCENARIO = re.compile(r"^(?:scored_)?(?P<model>.+?)_scenario_(?P<scenario>\d+)(?:_comparison)?$")


@dataclass(frozen=True, kw_only=True)
class Criterion:
    """One rubric criterion."""

    id: int
    group: str
    max: int
    description: str
    points: tuple[str, ...]


@cache
def rubric() -> dict[int, Criterion]:
    """The 15 criteria by number."""
    data = json.loads(_RUBRIC.read_text(encoding="utf-8"))
    return {
        c["id"]: Criterion(
            id=c["id"],
            group=c["group"],
            max=c["max"],
            description=c["description"],
            points=tuple(c["points"]),
        )
        for c in data["criteria"]
    }


@dataclass
class ScoreCheck:
    """A score dictionary checked criterion by criterion."""

    scores: dict[int, float] = field(default_factory=dict)
    """The valid criterion scores."""
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    """(criterion or key, code, message); codes: missing, not-a-number, out-of-range,
    unknown-key, not-a-dict."""

    @property
    def complete(self) -> bool:
        """Whether all 15 criteria have a valid score."""
        return len(self.scores) == len(rubric())

    @property
    def total(self) -> float | None:
        """The 0–19 total, computed here, only for a complete score."""
        return sum(self.scores.values()) if self.complete else None

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "scores": {str(k): v for k, v in sorted(self.scores.items())},
            "total": self.total,
            "complete": self.complete,
            "problems": [{"at": a, "code": c, "message": m} for a, c, m in self.problems],
        }


def _key(raw: Any) -> int | None:
    text = str(raw).strip().strip("\"'").upper().removeprefix("C").strip()
    return int(text) if text.isdigit() else None


def check_scores(raw: Any) -> ScoreCheck:
    """Each criterion of ``raw`` (a dict keyed "1"…"15", "C1"… or 1…) checked."""
    check = ScoreCheck()
    if not isinstance(raw, dict):
        check.problems.append(
            ("score_dict", "not-a-dict", f"expected an object, found {type_name(raw)}")
        )
        return check
    criteria = rubric()
    seen: set[int] = set()
    for key, value in raw.items():
        number = _key(key)
        if number not in criteria:
            check.problems.append((str(key), "unknown-key", f"no criterion {key!r} (1–15)"))
            continue
        seen.add(number)
        try:
            score = float(value)
        except (TypeError, ValueError):
            check.problems.append(
                (f"C{number}", "not-a-number", f"score {value!r} is not a number")
            )
            continue
        if not 0 <= score <= criteria[number].max:
            check.problems.append(
                (f"C{number}", "out-of-range", f"score {score:g} outside 0–{criteria[number].max}")
            )
            continue
        check.scores[number] = score
    for number in sorted(set(criteria) - seen):
        check.problems.append((f"C{number}", "missing", "no score"))
    return check


def generator_scenario(name: str) -> tuple[str, str]:
    """(generator, scenario) from a file name or ``filename`` cell: ``gpt4_scenario_3``
    → (gpt4, 3); ``scored_human_summaries`` or ``human.json`` → (human, human)."""
    stem = Path(name).stem if name.endswith(".json") else name
    match = _SCENARIO.match(stem)
    if match:
        return match.group("model"), match.group("scenario")
    base = stem.removeprefix("scored_").removesuffix("_comparison").removesuffix("_summaries")
    return base, base


@dataclass(kw_only=True)
class Answer:
    """One comparative answer, with the judge's checked scores when present."""

    object1: str
    object2: str
    aspect: str
    comparison: str
    generator: str
    scenario: str
    check: ScoreCheck | None = None
    stored_score: Any = None
    """The file's own total (kept for reference, never used)."""


class _Object(dict):
    """A parsed JSON object that remembers which keys it held twice."""

    repeated: tuple[str, ...] = ()


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    found = _Object(pairs)
    if len(found) < len(pairs):
        counts = Counter(key for key, _ in pairs)
        found.repeated = tuple(key for key, n in counts.items() if n > 1)
    return found


def _repeated_key(value: Any, at: str = "") -> tuple[str, str] | None:
    """(where, key) of the first object in ``value`` that holds a key twice."""
    if isinstance(value, _Object):
        if value.repeated:
            return at or "(top level)", value.repeated[0]
        children = [(f"{at}.{key}" if at else key, child) for key, child in value.items()]
    elif isinstance(value, list):
        children = [(f"{at}[{i}]", child) for i, child in enumerate(value)]
    else:
        return None
    for child_at, child in children:
        if found := _repeated_key(child, child_at):
            return found
    return None


def parse_json(text: str, where: str | None) -> Any:
    """JSON text, refusing an object that holds a key twice: ``json.load`` would keep the
    last value silently, other readers the first, so which answer or score counts is
    unclear (as ``maieutic.data.files.read_keyed_records`` refuses by default)."""
    try:
        data = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON ({exc.msg}, line {exc.lineno})", where=where) from None
    except RecursionError:
        raise DataError("JSON nested too deeply", where=where) from None
    refuse_in_json(text, data, where)
    if found := _repeated_key(data):
        at, key = found
        raise DataError(f"{at}: key {key!r} appears twice", where=where)
    return data


def read_answers(path: str | Path) -> list[Answer]:
    """An answer file in the released layout."""
    path = Path(path)
    return answers_from(parse_json(read_text(path), str(path)), path)


def answers_from(data: Any, path: Path) -> list[Answer]:
    """The answers of a parsed answer file (the released layout), checked."""
    if not isinstance(data, list):
        raise DataError(
            f"expected a JSON list of answers, found {type_name(data)}", where=str(path)
        )
    generator, scenario = generator_scenario(path.name)
    answers = []
    for index, record in enumerate(data):
        where = f"[{index}]"
        if not isinstance(record, dict):
            raise DataError(
                f"{where}: expected an object, found {type_name(record)}", where=str(path)
            )
        for key in ("object1", "object2", "comparison"):
            if not isinstance(record.get(key), str):
                raise DataError(f"{where}.{key}: expected a string", where=str(path))
        aspect = record.get("aspect") or ""
        check = check_scores(record["score_dict"]) if "score_dict" in record else None
        answers.append(
            Answer(
                object1=record["object1"],
                object2=record["object2"],
                aspect=str(aspect),
                comparison=record["comparison"],
                generator=generator,
                scenario=scenario,
                check=check,
                stored_score=record.get("score"),
            )
        )
    return answers
