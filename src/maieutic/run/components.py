"""Building evaluators and generators through the registry, so that what a library call
returns carries the same ``Spec`` and signature as the command line's results."""

from __future__ import annotations

from typing import Any

from maieutic.errors import DataError
from maieutic.registry import SCORER_PREFIX, create, entry, names


def split_scorer(name: str, options: dict[str, Any]) -> str:
    """``scorer`` for ``scorer:DIR`` (DIR then goes to ``options['scorer']``), else
    ``name`` as given: the one place the prefix is read."""
    if name.startswith(SCORER_PREFIX) and name != SCORER_PREFIX:
        options["scorer"] = name[len(SCORER_PREFIX) :]
        return "scorer"
    return name


def registered_name(kind: str, *, task: str, name: str | None, options: dict[str, Any]) -> str:
    """The registered name to build: ``name`` itself, the only one registered when it is
    None, or ``scorer`` for ``scorer:DIR`` (DIR then goes to ``options['scorer']``)."""
    if name is None:
        known = names(kind, task=task)
        if len(known) != 1:
            raise DataError(f"name the {kind} of task {task!r}: one of {', '.join(known)}")
        return known[0]
    return split_scorer(name, options)


def needs_references(task: str, name: Any, options: dict[str, Any]) -> bool:
    """Whether the evaluator ``name`` (with its factory ``options``) compares questions
    with the data's references: False for one registered ``reference_free`` (a judge
    that labels from the text alone), or given a ``nae_fallback`` judge (it labels what
    no reference matches: every question, where there are none)."""
    if name is not None and not isinstance(name, str):
        spec = getattr(name, "spec", None)  # built through the registry: as its spec says
        return spec is None or needs_references(task, spec.name, dict(spec.args))
    if options.get("nae_fallback"):
        return False
    try:
        found = entry(
            "evaluator",
            task=task,
            name=registered_name("evaluator", task=task, name=name, options=dict(options)),
        )
    except DataError:
        return True  # no such evaluator: building it says so, after the data is read
    return not found.metadata.get("reference_free", False)


def references_hint(task: str, name: Any) -> str:
    """What to say when ``name`` is given texts without references: the evaluators of
    ``task`` that judge without them."""
    free = [
        n
        for n in names("evaluator", task=task)
        if entry("evaluator", task=task, name=n).metadata.get("reference_free")
    ]
    if not free:
        return ""
    shown = [f"{n}:DIR" if n == "scorer" else n for n in free]
    what = name if isinstance(name, str) else "this"
    return (
        f"the {what} evaluator compares questions with references; {', '.join(shown)} "
        "judge the texts alone"
    )


def build(kind: str, *, task: str, name: Any, options: dict[str, Any]) -> tuple[Any, list[str]]:
    """The registered component built with ``options`` (its factory's arguments), and
    warnings about them. An option the factory does not take is an error, never
    ignored; one set to None counts as not given, so the factory's default applies; a
    threshold given to a component without a threshold scale (an LLM judge) is an error
    too. A component already built (``registry.create``, then adjusted) is used as it
    is, with no options."""
    if name is not None and not isinstance(name, str):
        if options:
            raise DataError(f"options {sorted(options)} given with a {kind} already built")
        if getattr(name, "spec", None) is None:
            raise DataError(f"a {kind} built outside the registry (it has no spec)")
        return name, []
    options = dict(options)
    name = registered_name(kind, task=task, name=name, options=options)
    found = entry(kind, task=task, name=name)
    warnings = []
    threshold = options.get("threshold")
    if threshold is not None:
        if found.threshold is None:
            raise DataError(f"{kind} {name!r} does not use a threshold (it is an LLM judge)")
        if doubt := found.threshold.doubt(threshold, name):
            warnings.append(doubt)
    # None stands for "not set": always dropped, so the factory's own default applies
    # (an unset option passed through as None once replaced a component's model)
    options = {k: v for k, v in options.items() if v is not None}
    unknown = [k for k in options if k not in found.parameters]
    if unknown:
        raise DataError(
            f"{kind} {name!r} takes no option {unknown[0]!r} (it takes: "
            f"{', '.join(found.parameters) or 'none'})"
        )
    return create(kind, task=task, name=name, **options), warnings
