"""The result of evaluating one submission, the same shape for every task.

An ``EvalResult`` carries what produced it (the evaluator's ``Spec`` and the
``Signature``), the per-item records, a summary with the headline ``score``, the
flags and warnings, and how many items could not be scored (an LLM judge whose reply
failed or could not be parsed leaves its item *unscored*, counted here; how a score
counts it is the task's rule, said in its results: critical questions count it as not
Useful, the paper's rule). ``to_json`` is the form written to results files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.registry import Spec
from maieutic.signature import Signature

RESULT_FORMAT = "maieutic.result/2"
"""The format of one result (inside a results file, or a task file that holds results)."""


@dataclass(kw_only=True)
class EvalResult:
    """One submission scored by one evaluator."""

    FORMAT: ClassVar[str] = RESULT_FORMAT

    task: str
    submission: str
    """A short name (the file stem, made unique among the submissions of one run)."""
    source: str
    """Where the submission came from (its path)."""
    signature: Signature
    evaluator: Spec
    score: float | None
    """The headline figure (for critical questions: the benchmark's overall score)."""
    summary: dict[str, Any]
    items: list[Any]
    """Per-item results: task objects with ``to_json()`` (or plain dicts, when read back)."""
    flags: list[Flag] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    n_unscored: int = 0

    def records(self) -> list[dict[str, Any]]:
        """The per-item results as JSON-ready dicts."""
        return [i if isinstance(i, dict) else i.to_json() for i in self.items]

    def to_json(self) -> dict[str, Any]:
        """The full record written to a results file."""
        return {
            "format": RESULT_FORMAT,
            "task": self.task,
            "submission": self.submission,
            "source": self.source,
            "signature": self.signature.as_dict(),
            "signature_string": str(self.signature),
            "evaluator": self.evaluator.to_json(),
            "score": self.score,
            "n_unscored": self.n_unscored,
            "summary": self.summary,
            "flags": [f.to_json() for f in self.flags],
            "warnings": self.warnings,
            "items": self.records(),
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any], where: str | None = None, *, at: str = "result"
    ) -> EvalResult:
        """Read a result back from its JSON form (items stay plain dicts); a
        ``DataError`` names the first missing or mistyped field by its path ``at``."""
        fields = _checked(data, at, where)
        return cls(
            task=fields["task"],
            submission=fields["submission"],
            source=fields["source"],
            signature=Signature.from_dict(fields["signature"]),
            evaluator=fields["evaluator"],
            score=fields["score"],
            summary=fields["summary"],
            items=list(fields["items"]),
            flags=[Flag(**f) for f in fields.get("flags", [])],
            warnings=list(fields.get("warnings", [])),
            n_unscored=int(fields.get("n_unscored", 0)),
        )


_REQUIRED: dict[str, Any] = {
    "task": str,
    "submission": str,
    "source": str,
    "signature": dict[str, Any],
    "evaluator": Spec,
    "score": float | None,
    "summary": dict[str, Any],
    "items": list[dict[str, Any]],
}
_OPTIONAL: dict[str, Any] = {
    "flags": list[dict[str, Any]],
    "warnings": list[str],
    "n_unscored": int,
}
_FLAG_FIELDS = ("file", "at", "code", "message")


def _checked(data: Any, at: str, where: str | None) -> dict[str, Any]:
    """The fields of a result record, checked (``format``, when given, must be this one)."""
    # imported here: maieutic.records reads results files, so it imports this module
    from maieutic.records.schema import decode, require_object

    require_object(data, at, where)
    if "format" in data and data["format"] != RESULT_FORMAT:
        raise DataError(f"{at}: format {data['format']!r}, expected {RESULT_FORMAT!r}", where=where)
    out = {}
    for name, hint in _REQUIRED.items():
        if name not in data:
            raise DataError(f"{at}: missing field {name!r}", where=where)
        out[name] = decode(data[name], hint=hint, at=f"{at}.{name}", where=where)
    for name, hint in _OPTIONAL.items():
        if name in data:
            out[name] = decode(data[name], hint=hint, at=f"{at}.{name}", where=where)
    for n, flag in enumerate(out.get("flags", [])):
        require_object(flag, f"{at}.flags[{n}]", where, names=_FLAG_FIELDS)
        unknown = set(flag) - {*_FLAG_FIELDS, "item"}
        if unknown:
            raise DataError(f"{at}.flags[{n}]: unknown field {min(unknown)!r}", where=where)
    return out


def unique_names(names: Sequence[str], *, sources: Sequence[str]) -> list[str]:
    """Submission names made unique: two files called ``output.json`` in different
    folders are named by their paths instead of sharing a row."""
    from pathlib import Path

    return [
        str(Path(src).with_suffix("")) if names.count(name) > 1 else name
        for name, src in zip(names, sources, strict=True)
    ]
