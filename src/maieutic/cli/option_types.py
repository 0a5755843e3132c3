"""The types of option values a task's commands take: part of the public
``maieutic.cli`` API that tasks build their command lines on.

``number()`` is the type of every float option (a finite number, NaN never; a test
walks every command and fails on a float option of another type), and
``RegisteredOrScorer`` / ``EvaluatorName`` take a registered component's name or
``scorer:DIR`` (a learned scorer's directory) in its place.
"""

from __future__ import annotations

import math
from typing import Any

import click

from maieutic.registry import SCORER_PREFIX, names

# -- the one type of every float option (kind NUMBER) ------------------------------------
# click.FLOAT and click.FloatRange accept nan (it compares false with every bound) and
# inf: a NaN or infinite timeout, temperature or limit is no limit, or a traceback far
# from the option. tests/test_bad_values.py fails on a float option of another type.


class _Finite:
    """Refuses NaN and, unless ``infinite``, an infinite value, before any range check:
    NaN compares false with every bound, so ``click.FloatRange`` lets it through, and
    a NaN limit or an infinite one is no limit at all."""

    infinite = False

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, str) and "_" in value:
            # Python reads digit separators ("1_0" is 10): on a command line that is a
            # typo for 1.0 or 10, never a number someone meant to write that way
            self.fail(f"{value!r} is not a number (no '_' in numbers)", param, ctx)
        number = click.FLOAT.convert(value, param, ctx)
        if math.isnan(number) or (math.isinf(number) and not self.infinite):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)  # type: ignore[misc]


class FiniteFloat(_Finite, click.types.FloatParamType):
    """A float option with no bounds (``number()`` makes it)."""


class FiniteFloatRange(_Finite, click.FloatRange):
    """A float option with bounds (``number(min, max)`` makes it)."""


def number(
    min: float | None = None,
    *,
    max: float | None = None,
    min_open: bool = False,
    max_open: bool = False,
    infinite: bool = False,
) -> click.ParamType:
    """The type of every float option: a finite number within the bounds given (as
    ``click.FloatRange`` takes them). ``infinite=True`` lets an option take ``inf``
    where it means "no limit"; NaN is never a value. A test walks every command and
    fails on a float option of another type."""
    if min is None and max is None:
        kind: click.ParamType = FiniteFloat()
    else:
        kind = FiniteFloatRange(min, max, min_open=min_open, max_open=max_open)
    kind.infinite = infinite  # type: ignore[attr-defined]
    return kind


# -- a registered component's name, or a learned scorer in its place ---------------------


class RegisteredOrScorer(click.ParamType):
    """A registered component name (evaluator or selector) of a task, or ``scorer:DIR``
    (a learned scorer's directory) in its place."""

    def __init__(self, kind: str, *, task: str) -> None:
        self.kind = kind
        self.task = task
        self.name = kind

    def _known(self) -> list[str]:
        return [n for n in names(self.kind, task=self.task) if n != "scorer"]

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(self._known()) + "|scorer:DIR]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if text.startswith(SCORER_PREFIX) and text != SCORER_PREFIX:
            return text
        if text in self._known():
            return text
        self.fail(f"{text!r} is not one of {', '.join(self._known())} or scorer:DIR")


def EvaluatorName(task: str) -> RegisteredOrScorer:
    """The ``--evaluator`` type of ``task``."""
    return RegisteredOrScorer("evaluator", task=task)
