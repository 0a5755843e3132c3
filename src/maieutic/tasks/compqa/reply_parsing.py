"""Reading a judge's criterion scores out of what models write.

Accepted: a JSON object (fenced or not, with prose before or after), a Python dict
(single quotes, trailing commas), bare or quoted keys (``{1: 1, "2": 0}``), ``C3``-style
keys, and ``1: 1`` / ``Criterion 2 - 0`` lines, and an object cut short by the token limit
(its complete ``"key": value`` pairs). A reply with two complete score objects that
disagree is not read at all. The result goes through
``maieutic.tasks.compqa.data.check_scores``, so every criterion is checked and the total is
computed here (a total the model wrote is ignored)."""

from __future__ import annotations

import ast
import json
import re

from maieutic.tasks.compqa.data import ScoreCheck, check_scores

_FENCE = re.compile(r"```(?:json|python)?\s*(.*?)```", re.DOTALL)
_BRACES = re.compile(r"\{[^{}]*\}", re.DOTALL)
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z]?\d+)(\s*:)")
_LINE = re.compile(
    r"^\s*(?:[-*•]\s*)?(?:criterion|criteria|c)?\s*#?\s*(\d{1,2})\s*[:=\-–)]\s*(\d+(?:\.\d+)?)\b",
    re.IGNORECASE | re.MULTILINE,
)
_PAIR = re.compile(r"[\"']?\b(\d{1,2})[\"']?\s*:\s*[\"']?(\d+(?:\.\d+)?)\b")
_IGNORED_KEYS = {"total", "score", "sum", "final", "final_score", "total_score"}


def _as_dict(candidate: str) -> dict | None:
    text = candidate.strip().rstrip(".")
    quoted = _BARE_KEY.sub(lambda m: f'{m.group(1)}"{m.group(2)}"{m.group(3)}', text)
    for attempt in (text, quoted):
        for loader in (json.loads, ast.literal_eval):
            try:
                value = loader(attempt)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if isinstance(value, dict):
                return value
    return None


def _drop_totals(scores: dict) -> dict:
    return {k: v for k, v in scores.items() if str(k).strip().lower() not in _IGNORED_KEYS}


def _objects(reply: str) -> list[ScoreCheck]:
    """Every score object in ``reply`` (fenced blocks, then braces), checked, in order."""
    candidates = [m.group(1) for m in _FENCE.finditer(reply)]
    candidates += [m.group(0) for m in _BRACES.finditer(reply)]
    return [check_scores(_drop_totals(found)) for c in candidates if (found := _as_dict(c))]


def _conflict(checks: list[ScoreCheck]) -> bool:
    """Whether two complete score objects give different scores: which one the model
    meant cannot be told, so the reply is not read (the judge asks again)."""
    complete = [check.scores for check in checks if check.complete]
    return any(scores != complete[0] for scores in complete[1:])


def parse_scores(reply: str) -> ScoreCheck | None:
    """The checked scores in ``reply``, or None when it holds no scores at all, or two
    complete score objects that disagree (the same object repeated is read once)."""
    checks = _objects(reply)
    if _conflict(checks):
        return None
    if checks:
        return checks[0]
    lines = {m.group(1): float(m.group(2)) for m in _LINE.finditer(reply)}
    if lines:
        return check_scores(lines)
    if "{" in reply:  # an object cut short (the reply hit its token limit): its pairs
        pairs = {m.group(1): float(m.group(2)) for m in _PAIR.finditer(reply.split("{", 1)[1])}
        if pairs:
            return check_scores(pairs)
    return None
