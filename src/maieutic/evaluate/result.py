"""The result of evaluating one submission, the same shape for every task.

An ``EvalResult`` carries what produced it (the evaluator's ``Spec`` and the
``Signature``), the per-item records, a summary with the headline ``score``, the
flags and warnings, and how many items could not be scored (an LLM judge whose reply
failed or could not be parsed leaves its item *unscored*: outside every denominator,
counted here). ``to_json`` is the form written to results files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.data.flags import Flag
from maieutic.registry import Spec
from maieutic.signature import Signature

RESULT_FORMAT = "maieutic.result/2"


@dataclass
class EvalResult:
    """One submission scored by one evaluator."""

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
    def from_json(cls, data: dict[str, Any]) -> EvalResult:
        """Read a result back from its JSON form (items stay plain dicts)."""
        return cls(
            task=data["task"],
            submission=data["submission"],
            source=data["source"],
            signature=Signature.from_dict(data["signature"]),
            evaluator=Spec.from_json(data["evaluator"]),
            score=data["score"],
            summary=data["summary"],
            items=list(data["items"]),
            flags=[Flag(**f) for f in data.get("flags", [])],
            warnings=list(data.get("warnings", [])),
            n_unscored=int(data.get("n_unscored", 0)),
        )


def unique_names(names: Sequence[str], sources: Sequence[str]) -> list[str]:
    """Submission names made unique: two files called ``output.json`` in different
    folders are named by their paths instead of sharing a row."""
    from pathlib import Path

    return [
        str(Path(src).with_suffix("")) if names.count(name) > 1 else name
        for name, src in zip(names, sources, strict=True)
    ]
