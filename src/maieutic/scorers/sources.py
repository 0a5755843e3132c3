"""What a task's scorers learn from: each task registers its example sources under the
registry kind ``scorer-examples`` (``@register("scorer-examples", task=task, name=name)``), and
``maieutic train scorer --task T --examples NAME`` finds them there, so this package
names no task.

A source's factory takes plain values (its options, e.g. a scheme file) and returns an
``ExampleSource``: how to read the labelled pairs of a file, the feature set the scorer
is trained on, and what the pairs are (recorded with the training data, so it enters
the scorer's identity)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.errors import DataError
from maieutic.registry import create, entry, names, tasks
from maieutic.scorers.examples import Examples

KIND = "scorer-examples"
"""The registry kind of example sources."""
DEFAULT = "references"
"""The source a scorer learns from unless another is named."""

Reader = Callable[[Path, Any, Any], Examples]
"""``(path, encoder or None, embedding store or None) -> Examples``."""
ManyReader = Callable[[list[Path], Any, Any], Examples]
"""``(paths, encoder or None, embedding store or None) -> Examples``."""


@dataclass(kw_only=True)
class ExampleSource:
    """How a task's scorer learns: the pairs a file gives, and the feature set."""

    read: Reader
    features: str
    """The feature set the scorer is trained on (``maieutic.scorers.features``)."""
    source: dict[str, Any] = field(default_factory=dict)
    """What the pairs are (e.g. ``{"examples": "references"}``), recorded in the
    manifest's training data."""
    spec: Any = None
    read_many: ManyReader | None = None
    """Reads several files as one training set (``--data`` given more than once), for
    sources whose files depend on each other; None: one file only."""
    recipe: dict[str, Any] = field(default_factory=dict)
    """How the model learns from these pairs, when not the default: ``c``,
    ``system_weight`` (the weight of a pair from a system's labelled output),
    ``binary`` (positive vs the rest). Recorded in the manifest's model."""


def scorer_tasks() -> list[str]:
    """The tasks that register at least one example source."""
    return [task for task in tasks() if names(KIND, task=task)]


def _option_flags(options: list[str]) -> str:
    return " and ".join("--" + name.replace("_", "-") for name in options)


def _check_kind(task: str, *, kind: str) -> None:
    """A usage error when ``task`` has no source ``kind`` (naming where it is)."""
    trainable = scorer_tasks()
    if task not in trainable:
        raise DataError(f"--task must be one of {', '.join(trainable)}")
    kinds = names(KIND, task=task)
    if kind not in kinds:
        elsewhere = [t for t in trainable if kind in names(KIND, task=t)]
        if elsewhere:
            raise DataError(f"--examples {kind} is for --task {' or '.join(elsewhere)}")
        raise DataError(f"--examples must be one of {', '.join(kinds)}")


def example_source(task: str, *, kind: str = DEFAULT, **options: Any) -> ExampleSource:
    """The registered source ``kind`` of ``task`` built with ``options`` (options left
    as None are not given); a usage error for an unknown task or kind, or an option the
    source does not take."""
    _check_kind(task, kind=kind)
    given = {name: value for name, value in options.items() if value is not None}
    extra = [name for name in given if name not in entry(KIND, task=task, name=kind).parameters]
    if extra:
        owners = [
            n
            for n in names(KIND, task=task)
            if all(name in entry(KIND, task=task, name=n).parameters for name in extra)
        ]
        where = f"--examples {' or '.join(owners)}" if owners else f"--task {task}"
        raise DataError(f"{_option_flags(extra)}: only with {where}")
    return create(KIND, task=task, name=kind, **given)


def checked(examples: Examples, where: str | Path) -> Examples:
    """``examples`` if a scorer can learn from them (enough texts, two labels)."""
    if len(set(examples.groups)) < 5:
        raise DataError(
            f"{len(set(examples.groups))} texts: grouped cross-validation needs at least 5",
            where=str(where),
        )
    if len(set(examples.labels)) < 2:
        raise DataError("every pair has the same label: nothing to learn", where=str(where))
    return examples
