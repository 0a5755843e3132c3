"""``--evaluator NAME`` / ``--selector NAME``, or ``scorer:DIR`` (a learned scorer's
directory) in their place."""

from __future__ import annotations

from typing import Any

import click

from maieutic.registry import names

SCORER_PREFIX = "scorer:"


class RegisteredOrScorer(click.ParamType):
    """A registered component name (evaluator or selector) of a task, or ``scorer:DIR``."""

    def __init__(self, kind: str, task: str) -> None:
        self.kind = kind
        self.task = task
        self.name = kind

    def _known(self) -> list[str]:
        return [n for n in names(self.kind, self.task) if n != "scorer"]

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(self._known()) + "|scorer:DIR]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if text.startswith(SCORER_PREFIX) and text != SCORER_PREFIX:
            return text
        known = names(self.kind, self.task)
        if text in known and text != "scorer":
            return text
        self.fail(
            f"{text!r} is not one of {', '.join(k for k in known if k != 'scorer')} or scorer:DIR"
        )


def split_evaluator(value: str, options: dict[str, Any]) -> str:
    """The registered name; a ``scorer:DIR`` puts DIR into ``options['scorer']``."""
    if value.startswith(SCORER_PREFIX):
        options["scorer"] = value[len(SCORER_PREFIX) :]
        return "scorer"
    return value


def EvaluatorName(task: str) -> RegisteredOrScorer:
    """The ``--evaluator`` type of ``task``."""
    return RegisteredOrScorer("evaluator", task)
