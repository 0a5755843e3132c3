"""Signatures: the settings that make a number reproducible, carried with it.

As sacrebleu does, every result prints a compact ``key:value|key:value`` string and
stores the full mapping. Two scores are comparable only when their signatures agree
on everything but the submission.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from maieutic._version import __version__

# Short names used in the printed form, in this order.
_ABBREVIATIONS = {
    "task": "task",
    "evaluator": "eval",
    "model": "model",
    "backend": "backend",
    "threshold": "thr",
    "dataset": "data",
    "n_references": "refs",
    "seed": "seed",
    "version": "v",
}


@dataclass(frozen=True)
class Signature:
    """Everything a result depends on besides the system's output."""

    task: str
    evaluator: str
    dataset: str
    n_references: int
    model: str | None = None
    backend: str | None = None
    threshold: float | None = None
    seed: int | None = None
    version: str = __version__
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """All fields, for results files."""
        out = {k: getattr(self, k) for k in _ABBREVIATIONS}
        out.update(self.extra)
        return out

    def __str__(self) -> str:
        parts = []
        for key, abbr in _ABBREVIATIONS.items():
            value = getattr(self, key)
            if value is None:
                continue
            if key == "dataset":
                value = str(value).removeprefix("sha256:")[:12]
            parts.append(f"{abbr}:{value}")
        parts.extend(f"{k}:{v}" for k, v in sorted(self.extra.items()))
        return "|".join(parts)
