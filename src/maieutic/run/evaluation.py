"""``maieutic.evaluate``: score submissions of any task from Python, the way ``maieutic
evaluate TASK`` does — the evaluate skeleton written once.

Load the reference data, read and check every submission before any model work, build
the evaluator through the registry, score each submission (persisting the results file
after each one when ``out`` is given), and collect the warnings and failed model calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maieutic.core import get_task
from maieutic.core.task_io import task_io
from maieutic.data import guard
from maieutic.data.files import write_json
from maieutic.data.flags import refuse_flags
from maieutic.engines import RayOptions
from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.results_file import ResultsFile
from maieutic.registry import Spec
from maieutic.run import frames
from maieutic.run.components import build
from maieutic.run.engine import Engine
from maieutic.run.inputs import (
    as_list,
    described,
    input_warnings,
    load_submissions,
    reference_for,
    refuse_overwriting_inputs,
)
from maieutic.signature import Signature

if TYPE_CHECKING:
    import pandas as pd


@dataclass(kw_only=True)
class Evaluation:
    """Every submission of one run scored by one evaluator."""

    task: str
    evaluator: Spec
    """How the evaluator was built (``maieutic.registry.rebuild`` makes it again)."""
    results: list[EvalResult]
    """One per submission, in the order given (each with its signature)."""
    provenance: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    """About the inputs and the evaluator as a whole (each result has its own too)."""
    failures: list[str] = field(default_factory=list)
    """Model calls that failed for good (their items are unscored)."""
    evaluator_warnings: list[str] = field(default_factory=list)
    """The part of ``warnings`` the evaluator gave about the run as a whole (an
    embedding model swapped…), apart from those about the inputs and the options."""
    run_figures: tuple[str, ...] = ()
    reference: Any = field(default=None, repr=False)
    """The reference data as loaded (None for a task without one)."""

    def __iter__(self) -> Iterator[EvalResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, key: int | str) -> EvalResult:
        """A result by position or by submission name."""
        if isinstance(key, int):
            return self.results[key]
        for result in self.results:
            if result.submission == key:
                return result
        raise KeyError(f"no submission {key!r} (known: {[r.submission for r in self.results]})")

    @property
    def signatures(self) -> dict[str, Signature]:
        """Each submission's signature, by name."""
        return {r.submission: r.signature for r in self.results}

    @property
    def scores(self) -> dict[str, float | None]:
        """Each submission's headline score, by name."""
        return {r.submission: r.score for r in self.results}

    def to_frame(self, explode: str | None = None) -> pd.DataFrame:
        """One row per scored item (see ``maieutic.run.frames.records_frame``)."""
        return frames.items_frame(self.results, explode)

    def summary_frame(self) -> pd.DataFrame:
        """One row per submission, indexed by its name."""
        return frames.summary_frame(self.results)

    def to_json(self) -> dict[str, Any]:
        """The results file's content (as ``maieutic evaluate --out`` writes it)."""
        results = ResultsFile(None, self.task, self.provenance, run_figures=self.run_figures)
        results.results = list(self.results)
        return results.payload()

    def save(self, path: str | Path) -> Path:
        """Write the results file (readable by ``maieutic report``); its path."""
        write_json(path, self.to_json())
        return Path(path)


def _call_options(
    task: str, data: Any, submissions: Sequence[Any], *, evaluator: Any, options: dict
) -> dict[str, Any]:
    """The call, as the provenance of its results records it."""
    call = {"task": task, "data": data, "submissions": submissions, "evaluator": evaluator}
    return {**described({**call, **options}), "via": "maieutic.evaluate"}


@guard.scoped
def evaluate(
    task: str,
    data: Any,
    *,
    submissions: Any = (),
    evaluator: Any = None,
    strict: bool = False,
    skip_unknown: bool = False,
    out: str | Path | None = None,
    on_result: Callable[[EvalResult], None] | None = None,
    on_loaded: Callable[[Any], None] | None = None,
    provenance: dict[str, Any] | None = None,
    engine: str = "local",
    ray: RayOptions | None = None,
    **options: Any,
) -> Evaluation:
    """Score ``submissions`` against ``data`` with the evaluator registered as
    ``evaluator`` for ``task`` (or ``scorer:DIR``, a learned scorer; or an evaluator
    already built with ``maieutic.registry.create``, then given no options).

    ``data`` and each submission are paths or objects already loaded (``data`` is None
    for a task scored without references; with no submissions, those inside ``data``
    are scored, where a task has such). ``options`` are the evaluator's factory
    arguments (``threshold``, ``embedding_model``, ``llm``…). ``strict`` refuses flagged
    input; ``skip_unknown`` skips, with a warning, ids absent from the reference;
    ``out`` is a results file rewritten after each submission; ``on_result`` sees each
    result as soon as it is done; ``on_loaded`` each submission once read and checked
    (before ``strict`` refuses it and before any model work: to show its flags);
    ``provenance`` replaces the options recorded in the results' provenance (the
    command line records its own). ``engine="ray"`` computes the evaluator's sentence
    embeddings on Ray (``ray.actors`` model replicas; see ``maieutic.engines``): the same
    vectors, so the same numbers; the engine is recorded in the provenance.
    """
    chosen = Engine.for_name(engine, ray)
    found = get_task(task)
    io = task_io(found)
    reference = reference_for(found, data, evaluator=evaluator, options=options)
    loaded = load_submissions(
        found, io, submissions, reference=reference, strict=strict, on_loaded=on_loaded
    )
    inputs = [data, getattr(reference, "source", None), *(s.source for s in loaded)]
    refuse_overwriting_inputs(out, inputs)
    component, warnings = _built(task, evaluator, options, reference=reference, strict=strict)
    recorded = provenance or _call_options(
        task, data, as_list(submissions), evaluator=evaluator, options=options
    )
    results = ResultsFile(
        out,
        task,
        chosen.provenance(recorded),
        run_figures=found.run_figures,
        expected=len(loaded) or None,
    )

    def keep(result: EvalResult) -> None:
        results.add(result)  # persisted at once: a later failure loses nothing
        if on_result:
            on_result(result)

    complete = False
    try:
        with _encoding_on(chosen):
            component.evaluate(reference, loaded, skip_unknown=skip_unknown, on_result=keep)
        complete = True
    finally:
        results.close(complete)
    return _evaluation(
        task,
        component,
        results,
        reference=reference,
        warnings=warnings,
        run_figures=found.run_figures,
    )


def _encoding_on(engine: Engine) -> Any:
    """The evaluator's encoders go through ``engine`` for the length of the block (Ray's
    model replicas, or this process); imported here: the embedding machinery loads only
    when something is scored."""
    from maieutic.embed.encoder import mapping_pieces

    return mapping_pieces(engine.piece_mapper())


def _built(task, evaluator, options, *, reference, strict: bool) -> tuple[Any, list[str]]:
    """The evaluator and its warnings; with ``strict``, what the references hold that is
    read as the benchmark reads it but flagged (the evaluator's own extra references
    included) is refused before any model work."""
    component, warnings = build("evaluator", task=task, name=evaluator, options=options)
    if strict:
        refuse_flags([*getattr(reference, "flags", []), *getattr(component, "reference_flags", [])])
    return component, warnings


def _evaluation(task, component, results, *, reference, warnings, run_figures) -> Evaluation:
    own = _evaluator_warnings(component)
    return Evaluation(
        task=task,
        evaluator=component.spec,
        results=results.results,
        provenance=results.provenance,
        warnings=[*input_warnings(reference), *warnings, *own],
        failures=list(component.failures),
        evaluator_warnings=own,
        run_figures=run_figures,
        reference=reference,
    )


def _evaluator_warnings(component: Any) -> list[str]:
    """What the evaluator warned about as a whole (its own list, or its matcher's)."""
    own = getattr(component, "warnings", None)
    if own is None:  # a reference matcher's warnings (e.g. an embedding model swapped)
        own = getattr(getattr(component, "matcher", None), "warnings", [])
    return list(own)
