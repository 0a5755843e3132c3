"""Signatures: the settings that make a number reproducible, carried with it.

As sacrebleu does, every result prints a compact ``key:value|key:value`` string and
stores the full mapping. Two scores are comparable only when their signatures agree
on everything but the submission.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from maieutic._version import __version__

# Short names used in the printed form, in this order.
_ABBREVIATIONS = {
    "task": "task",
    "generator": "gen",
    "evaluator": "eval",
    "model": "model",
    "backend": "backend",
    "threshold": "thr",
    "dataset": "data",
    "n_references": "refs",
    "seed": "seed",
    "version": "v",
}


@dataclass(frozen=True, kw_only=True)
class Signature:
    """Everything a result depends on besides the system's output.

    ``model`` is the model that decides the result: the embedding model of a
    similarity evaluator, the LLM of a judge or of a generator. ``extra`` holds what
    a particular evaluator adds (a prompt hash, the extra references' fingerprint).
    """

    task: str
    evaluator: str | None = None
    dataset: str | None = None
    n_references: int | None = None
    generator: str | None = None
    model: str | None = None
    backend: str | None = None
    threshold: float | None = None
    seed: int | None = None
    version: str = __version__
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """All fields, for results files (credentials in a URL field hidden: a signature
        is written everywhere, so it must never carry a key given in --base-url)."""
        from maieutic.provenance import redact_credentials

        out = {k: getattr(self, k) for k in _ABBREVIATIONS}
        out.update(self.extra)
        return redact_credentials(out)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Signature:
        """The inverse of ``as_dict``."""
        names = {f.name for f in fields(cls)} - {"extra"}
        known = {k: v for k, v in data.items() if k in names}
        extra = {k: v for k, v in data.items() if k not in names}
        return cls(**known, extra=extra)

    def __str__(self) -> str:
        parts = []
        for key, abbr in _ABBREVIATIONS.items():
            value = getattr(self, key)
            if value is None:
                continue
            if key == "dataset":
                value = str(value).removeprefix("sha256:")[:12]
            parts.append(f"{abbr}:{value:g}" if isinstance(value, float) else f"{abbr}:{value}")
        parts.extend(f"{k}:{v}" for k, v in sorted(self.extra.items()) if v is not None)
        from maieutic.provenance import redact_url

        return redact_url("|".join(parts))
