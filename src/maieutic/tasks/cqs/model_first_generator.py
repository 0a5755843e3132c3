"""The model-first generator: a language model's critical questions first, the offline
claims generator's only in the slots the model leaves empty
(``maieutic.tasks.cqs.model_first`` has the rule).

It runs the llm generator's requests (its prompts, sampling, cache and log), reads each
listed item of a reply as one question, and chooses per intervention: the model's
usable questions in its order (or the named selector's), then the claims generator's.
What it writes is a submission like any other; the record keeps, per intervention, the
questions the claims generator added (``filled``) and the model's questions left out,
with why (``rejected``).
"""

from __future__ import annotations

from collections.abc import Callable

from maieutic.generate.protocol import GenerationRun
from maieutic.llm.backends import describe
from maieutic.signature import Signature
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
from maieutic.tasks.cqs.data import CQDataset
from maieutic.tasks.cqs.generate import CALL_FAILED, LLMCQGenerator
from maieutic.tasks.cqs.model_first import (
    OFFLINE,
    ModelFirstChoice,
    choose,
    measured_weaker,
    offline_choice,
    order_for,
    outcome_of,
)
from maieutic.tasks.cqs.outcomes import ItemOutcome, outcome_notes
from maieutic.tasks.cqs.selection import Selector, calls_since, judge_calls, judge_signature
from maieutic.wording import plural


def call_failed(model_outcome: ItemOutcome) -> bool:
    """Whether the model could not be had for this intervention (its calls failed, or
    the time budget ran out), as opposed to replying with nothing usable."""
    return (
        model_outcome.failed
        and not model_outcome.candidates
        and ((model_outcome.reason or "").startswith(CALL_FAILED))
    )


class ModelFirstCQGenerator:
    """A language model's usable questions first; the claims generator fills the rest."""

    uses_llm = True
    spec: object

    def __init__(
        self,
        model: LLMCQGenerator,
        claims: ClaimsCQGenerator,
        *,
        selector: Selector,
        order: str = "auto",
    ) -> None:
        self.model = model
        self.model.whole_items = True
        self.claims = claims
        self.selector = selector
        name, _ = describe(model.client.backend)
        self.order = order_for(order, name)
        """``model-first``, or ``offline`` (the rules' questions alone): ``auto`` is
        ``offline`` for a model measured to write worse critical questions than the
        rules (``maieutic.tasks.cqs.model_first.MEASURED_WEAKER``)."""
        weaker = measured_weaker(name) if order == "auto" else None
        self.why_offline = (
            f"{name} writes worse critical questions than the offline rules ({weaker}; "
            "docs/models.md): its questions are not shown"
            if weaker
            else "the order asked for (--order offline)"
        )

    @property
    def whole_input(self):
        """The model generator's (set by the Ray engine for a part of the input)."""
        return self.model.whole_input

    @whole_input.setter
    def whole_input(self, value) -> None:
        self.model.whole_input = value

    def context_for(self, dataset: CQDataset):
        """The model generator's prompt context and warnings."""
        return self.model.context_for(dataset)

    def requests(self, dataset: CQDataset, run_index: int = 0, context=None):
        """The model generator's requests (for the Ray engine and the budget)."""
        return self.model.requests(dataset, run_index, context)

    @property
    def client(self):
        """The model's client."""
        return self.model.client

    def choice(self, dataset: CQDataset, model_outcome: ItemOutcome) -> ModelFirstChoice:
        """What the route shows for one intervention, from the model's outcome."""
        item = dataset.interventions[model_outcome.intervention_id]
        if self.order == OFFLINE:
            return offline_choice(item, claims=self.claims)
        return choose(item, model_outcome.candidates, claims=self.claims, selector=self.selector)

    def outcome(self, dataset: CQDataset, model_outcome: ItemOutcome) -> ItemOutcome:
        """One intervention's model-first questions, from the model's outcome. A model
        call that failed leaves the intervention "Missing CQs" with the reason, as the
        llm generator does: the offline questions never stand in for a model that could
        not be had (``ask`` shows them, and says so)."""
        if call_failed(model_outcome):
            return model_outcome
        choice = self.choice(dataset, model_outcome)
        return outcome_of(model_outcome.intervention_id, model_outcome.candidates, choice)

    def generate(
        self,
        dataset: CQDataset,
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """The model's run, then the model-first choice for every intervention (with the
        ``offline`` order no model call is made)."""
        if self.order == OFFLINE:
            return self._offline(dataset)
        run = self.model.generate(dataset, run_index=run_index, on_progress=on_progress)
        before = judge_calls(self.selector)
        outcomes = [self.outcome(dataset, o) for o in run.outcomes]
        # the model judging its own candidates: its calls are the run's too
        run.stats.add(calls_since(judge_calls(self.selector), before=before))
        shown = sum(len(o.questions or ()) for o in outcomes)
        offline = sum(len(o.filled) for o in outcomes)
        warnings = [
            *run.warnings,
            f"{plural(shown, 'question')} written: {shown - offline} from the model, "
            f"{offline} from the offline claims generator",
        ]
        return GenerationRun(
            outcomes=outcomes,
            stats=run.stats,
            warnings=warnings,
            notes=outcome_notes(outcomes),
            this_run=run.this_run,
        )

    def _offline(self, dataset: CQDataset) -> GenerationRun:
        """The rules' questions for every intervention, and why."""
        outcomes = []
        for iid, item in dataset.interventions.items():
            choice = offline_choice(item, claims=self.claims)
            outcomes.append(outcome_of(iid, [], choice))
        return GenerationRun(
            outcomes=outcomes,
            warnings=[f"offline: {self.why_offline}"],
            notes=outcome_notes(outcomes),
        )

    def signature(self, dataset: CQDataset) -> Signature:
        """The model generator's signature, named ``model-first``, with the claims
        generator's parts (it fills empty slots) and the selector among the model's."""
        model = self.model.signature(dataset)
        claims = self.claims.signature(dataset)
        extra = {
            **model.extra,
            **claims.extra,
            "selector": self.spec.args.get("selector"),
            "order": self.order,
        }
        extra.update(judge_signature(self.selector))  # a judging selector's prompt
        return Signature(
            task="cqs",
            generator="model-first",
            dataset=model.dataset,
            seed=model.seed,
            model=model.model,
            backend=model.backend,
            extra=extra,
        )
