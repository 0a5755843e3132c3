"""One registry for everything a task provides: tasks, evaluators, judges, generators,
selectors, prompting strategies and what its learned scorers train on.

Components register with one decorator style (``@register(kind, task, name)``) on a
factory function. Calling the decorated factory binds its arguments, fills in the
defaults (an argument given as None counts as not given: it never replaces a default),
builds the component and attaches a ``Spec`` recording the name and every
argument, so a results file can say exactly what produced it and ``rebuild(spec)``
can make it again (as inspect_ai's ``@scorer`` records its arguments). Factories
take plain JSON values (strings, numbers, booleans, lists) only; secrets such as API
keys are read from the environment by the component and never become arguments.

An evaluator that compares a similarity with a threshold declares the threshold's
scale (``ThresholdScale``); one that does not (an LLM judge) declares none, and a
threshold given to it is a usage error.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Generic, TypeVar

from maieutic.errors import DataError

HookT = TypeVar("HookT")

KINDS = (
    "task",
    "evaluator",
    "judge",
    "generator",
    "selector",
    "strategy",
    "scorer-examples",
)


@dataclass(frozen=True, kw_only=True)
class ThresholdScale:
    """The scale an evaluator's threshold lives on, and its default."""

    low: float
    high: float
    default: float
    rule: str = ">"
    """How a score is compared with the threshold (``>``: strictly greater passes)."""
    unit: str = ""
    sweep: tuple[float, ...] = ()
    """The thresholds a meta-evaluation sweep tries."""
    suspicious_below: float | None = None
    """Values under this are legal but probably meant for another scale (warned about)."""

    def doubt(self, value: float, owner: str) -> str | None:
        """A warning when ``value`` looks meant for another evaluator's scale."""
        if self.suspicious_below is not None and 0 < value < self.suspicious_below:
            return (
                f"--threshold {value:g} for {owner} is on its {self.low:g}–{self.high:g} "
                f"scale; a value this small looks meant for a cosine"
            )
        return None

    def check(self, value: float, owner: str) -> float:
        """``value`` if it lies on the scale; a usage error (exit 2) otherwise."""
        if not self.low <= value <= self.high:
            raise DataError(
                f"--threshold {value:g} is outside [{self.low:g}, {self.high:g}], the scale "
                f"of {owner}"
            )
        return float(value)


@dataclass(frozen=True, kw_only=True)
class Spec:
    """What built a component: its kind, task, registered name and every argument."""

    kind: str
    task: str
    name: str
    args: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The spec as stored in results files."""
        from maieutic.provenance import redact_credentials  # a key in a URL is never written

        args = redact_credentials(self.args)
        return {"kind": self.kind, "task": self.task, "name": self.name, "args": args}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Spec:
        """The inverse of ``to_json``."""
        return cls(
            kind=data["kind"], task=data["task"], name=data["name"], args=dict(data.get("args", {}))
        )


@dataclass(frozen=True, kw_only=True)
class Entry:
    """A registered factory and what it declares about itself."""

    kind: str
    task: str
    name: str
    factory: Callable[..., Any]
    description: str
    threshold: ThresholdScale | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def parameters(self) -> list[str]:
        """The factory's argument names."""
        return list(inspect.signature(self.factory).parameters)


_ENTRIES: dict[tuple[str, str, str], Entry] = {}
SCORER_PREFIX = "scorer:"
"""``scorer:DIR`` names a learned scorer's directory where a registered component's
name goes (``--evaluator scorer:DIR``); the component built is the one named
``scorer``, given DIR."""

ENTRY_POINT_GROUP = "maieutic.tasks"
"""Installed packages add a task with an entry point in this group: its name is the
task's name, its value the module whose import registers the task's components."""


def register(
    kind: str,
    *,
    task: str,
    name: str,
    threshold: ThresholdScale | None = None,
    **metadata: Any,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a factory under ``(kind, task, name)``; see the module docstring."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")

    def decorate(factory: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(factory)
        if threshold is not None and "threshold" not in signature.parameters:
            raise TypeError(f"{name}: a threshold scale needs a 'threshold' parameter")

        @functools.wraps(factory)
        def build(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise DataError(f"{kind} {name!r}: {exc}") from None
            for key in [k for k, v in bound.arguments.items() if v is None]:
                # None means "not set": a factory's own default is never replaced by it
                # (no factory takes None where its default is something else)
                if signature.parameters[key].default not in (inspect.Parameter.empty, None):
                    del bound.arguments[key]
            bound.apply_defaults()
            if threshold is not None:
                value = bound.arguments.get("threshold")
                bound.arguments["threshold"] = (
                    threshold.default if value is None else threshold.check(value, name)
                )
            component = factory(*bound.args, **bound.kwargs)
            spec = Spec(kind=kind, task=task, name=name, args=dict(bound.arguments))
            try:
                component.spec = spec
            except AttributeError:  # e.g. a plain function: wrap it to carry the spec
                component = _WithSpec(component, spec)
            return component

        doc = inspect.getdoc(factory) or ""
        previous = _ENTRIES.get((kind, task, name))
        if previous is not None and previous.factory.__qualname__ != factory.__qualname__:
            raise ValueError(f"{kind} {name!r} of task {task!r} is already registered")
        _ENTRIES[(kind, task, name)] = Entry(
            kind=kind,
            task=task,
            name=name,
            factory=build,
            description=doc.split("\n\n")[0],
            threshold=threshold,
            metadata=metadata,
        )
        return build

    return decorate


class _WithSpec:
    """A callable component that cannot take attributes, with its spec attached."""

    def __init__(self, inner: Callable[..., Any], spec: Spec) -> None:
        self._inner = inner
        self.spec = spec

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._inner(*args, **kwargs)


@functools.cache
def task_modules() -> dict[str, str]:
    """Every task maieutic can load, name → the module that registers it: each
    subpackage of ``maieutic.tasks`` (a task is one folder), then the entry points of
    installed plug-ins (``[project.entry-points."maieutic.tasks"]``)."""
    import maieutic.tasks

    found = {
        info.name: f"maieutic.tasks.{info.name}"
        for info in sorted(pkgutil.iter_modules(maieutic.tasks.__path__), key=lambda i: i.name)
        if info.ispkg
    }
    for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(point.name, point.value)
    return found


@functools.cache
def task_summary(name: str) -> str | None:
    """What task ``name`` is, in one line: its module's ``SUMMARY`` string, read from the
    source without importing the task (help lists every task and must stay fast); None
    for no such task, a module without it, or one whose source cannot be read."""
    import ast
    import importlib.util

    module = task_modules().get(name)
    if module is None or ":" in module:
        return None
    try:
        spec = importlib.util.find_spec(module)
        source = Path(spec.origin).read_text(encoding="utf-8") if spec and spec.origin else ""
        tree = ast.parse(source)
    except (ImportError, OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "SUMMARY" for t in node.targets
        ):
            try:
                value = ast.literal_eval(node.value)  # a string, or strings in parentheses
            except ValueError:
                return None
            return value if isinstance(value, str) else None
    return None


def add_task(name: str, *, module: str) -> None:
    """Make the task registered by importing ``module`` known under ``name`` (what an
    entry point does for an installed package; for a task kept outside maieutic)."""
    task_modules()[name] = module


def _load(task: str) -> None:
    module = task_modules().get(task)
    if module is not None:
        importlib.import_module(module)


def task_package(name: str) -> str:
    """The package that registered task ``name`` (where its templates and docs live)."""
    return entry("task", task=name, name=name).factory.__module__ or ""


def entry(kind: str, *, task: str, name: str) -> Entry:
    """The registered entry, or a usage error listing what exists."""
    _load(task)
    found = _ENTRIES.get((kind, task, name))
    if found is None:
        known = ", ".join(names(kind, task=task)) or "none"
        raise DataError(f"unknown {kind} {name!r} for task {task!r} (known: {known})")
    return found


def factory_defaults(kind: str, *, task: str, name: str) -> dict[str, Any]:
    """The default of each argument of a registered factory (arguments without one are
    left out): where the command line takes the defaults it shows."""
    parameters = inspect.signature(entry(kind, task=task, name=name).factory).parameters
    return {k: p.default for k, p in parameters.items() if p.default is not inspect.Parameter.empty}


def names(kind: str, *, task: str) -> list[str]:
    """Registered names of ``kind`` for ``task``, in registration order."""
    _load(task)
    return [n for (k, t, n) in _ENTRIES if k == kind and t == task]


def create(kind: str, *, task: str, name: str, **args: Any) -> Any:
    """Build the registered component with ``args``."""
    return entry(kind, task=task, name=name).factory(**args)


def rebuild(spec: Spec | dict[str, Any]) -> Any:
    """Build again what a ``Spec`` (or its JSON form) describes."""
    spec = spec if isinstance(spec, Spec) else Spec.from_json(spec)
    return create(spec.kind, task=spec.task, name=spec.name, **spec.args)


def tasks() -> list[str]:
    """Every registered task name."""
    for name in task_modules():
        _load(name)
    return [n for (k, _, n) in _ENTRIES if k == "task"]


class HookTable(Generic[HookT]):
    """What the tasks hand one upper layer (the report, the web app, the command line),
    by task name: the layer owns the table and the type of what goes in it; a task adds
    its entry when its package is imported (``hooks.add(name, value)``), and the layer
    asks for it by name (``hooks.get(name)``), which loads the task first. The registry
    names no layer: it only keeps the tables apart by ``layer``, for messages."""

    def __init__(self, layer: str) -> None:
        self.layer = layer
        self._entries: dict[str, HookT] = {}

    def add(self, task: str, value: HookT) -> None:
        """Hand ``value`` to the layer for task ``task``. A task's package adds it when
        imported (a re-import replaces it); two tasks of one name cannot both be loaded,
        as the registry refuses the second ``task`` entry."""
        self._entries[task] = value

    def discard(self, task: str) -> None:
        """Forget task ``task``'s entry (a task registered for a while, as in tests)."""
        self._entries.pop(task, None)

    def get(self, task: str) -> HookT | None:
        """Task ``task``'s entry (the task loaded first), or None when it gave none."""
        _load(task)
        return self._entries.get(task)
