"""Generating critical-question submissions: model-free templates or an LLM.

LLM generation builds every request up front (interventions × strategies × candidate
samples) and fans them out through the shared client; each reply is parsed into
questions, an intervention's candidates are pooled and a selector keeps three. An
intervention without three usable questions becomes "Missing CQs" with the reason
recorded (naming the generator that fell short: no model runs in the template one).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from maieutic.errors import DataError
from maieutic.generate.fanout import fan_out
from maieutic.generate.parsing import parse_questions
from maieutic.generate.protocol import GenerationRun
from maieutic.generate.strategy import Strategy
from maieutic.language.wellformed import check_question
from maieutic.llm.backends import describe
from maieutic.llm.client import CallFailed, LLMClient
from maieutic.llm.types import ChatRequest, ChatResult, GenerationParams
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
from maieutic.tasks.cqs.data import EXPECTED_QUESTIONS, CQDataset, Intervention
from maieutic.tasks.cqs.outcomes import InterventionGenerator, ItemOutcome, outcome_notes
from maieutic.tasks.cqs.prompts import PromptContext
from maieutic.tasks.cqs.selection import Selector, calls_since, judge_calls, judge_signature
from maieutic.tasks.cqs.template_generator import TemplateGenerator
from maieutic.wording import plural

RUN_SEED_STRIDE = 1000  # run k uses seed + 1000·k, so runs never share a sample's seed
CALL_FAILED = "model call failed"
"""How the reason of an intervention whose model calls all failed begins."""


def select_three(
    iid: str, intervention: Intervention, candidates: list[str], *, selector: Selector, source: str
) -> ItemOutcome:
    """Three questions chosen by ``selector`` among the well-formed candidates.

    A generator that produced no candidate failed ("Missing CQs", with the reason).
    When it produced fewer than three, or the well-formedness check leaves fewer, the
    well-formed ones are written with a note: what it gave is kept, and an ill-formed
    question is never chosen to make up the number.
    """
    if not candidates:
        return ItemOutcome(
            intervention_id=iid,
            questions=None,
            reason=f"{source}: no usable question",
            candidates=candidates,
        )
    text = intervention.intervention
    rejected = {
        c: [str(f) for f in flaws] for c in candidates if (flaws := check_question(c, text))
    }
    usable = [c for c in candidates if c not in rejected]
    chosen = selector(intervention, usable, EXPECTED_QUESTIONS) if usable else []
    if not chosen:
        reason = f"{source}: all {plural(len(candidates), 'candidate')} ill-formed"
        return ItemOutcome(
            intervention_id=iid,
            questions=None,
            reason=reason,
            candidates=candidates,
            rejected=rejected,
        )
    outcome = ItemOutcome(
        intervention_id=iid, questions=chosen, reason=None, candidates=candidates, rejected=rejected
    )
    if len(chosen) < EXPECTED_QUESTIONS and rejected:
        outcome.note = (
            f"{source}: {len(rejected)} of {plural(len(candidates), 'candidate')} ill-formed, "
            f"{plural(len(chosen), 'question')} instead of {EXPECTED_QUESTIONS}"
        )
    elif len(chosen) < EXPECTED_QUESTIONS:
        outcome.note = (
            f"{source}: only {plural(len(chosen), 'distinct usable question')}, written "
            f"instead of {EXPECTED_QUESTIONS}"
        )
    return outcome


@functools.cache
def _offline_generator() -> ClaimsCQGenerator:
    return ClaimsCQGenerator()


FILL_SOURCES = ("claims",)
"""Where ``--fill-from`` takes questions when a model gives fewer than three."""


def fill_up(outcome: ItemOutcome, intervention: Intervention, source: str) -> ItemOutcome:
    """``outcome`` with questions of the offline ``source`` generator added until there
    are three (never one already there), and its note saying how many and from where."""
    have = list(outcome.questions or [])
    if len(have) >= EXPECTED_QUESTIONS:
        return outcome
    offline = _offline_generator().questions_for(intervention.intervention).questions
    seen = {q.lower() for q in have}
    added = [q for q in offline if q.lower() not in seen][: EXPECTED_QUESTIONS - len(have)]
    if not added:
        return outcome
    said = outcome.note or outcome.reason or "model output"
    note = f"{said}; {plural(len(added), 'question')} added from the offline {source} generator"
    return replace(outcome, questions=have + added, reason=None, note=note, filled=added)


def _signature(task_generator: str, dataset: CQDataset, spec: Spec, **fields: Any) -> Signature:
    return Signature(
        task="cqs",
        generator=task_generator,
        dataset=dataset.fingerprint(),
        seed=spec.args.get("seed"),
        model=fields.pop("model", None),
        backend=fields.pop("backend", None),
        extra={k: v for k, v in fields.items() if v is not None},
    )


def _n_useful(item: Intervention) -> int:
    return sum(q.label == "Useful" for q in item.cqs)


class TemplateCQGenerator(InterventionGenerator):
    """Model-free: filled argumentation-scheme templates, reduced to three
    (``run_index`` rotates the templates)."""

    def __init__(self, templates: TemplateGenerator, selector: Selector) -> None:
        self.templates = templates
        self.selector = selector

    def outcome(self, key: str, item: Intervention, *, run_index: int) -> ItemOutcome:
        """Three of the intervention's filled templates."""
        candidates = self.templates.candidates(item, rotation=run_index)
        return select_three(
            key, item, candidates, selector=self.selector, source="template generator"
        )

    def signature(self, dataset: CQDataset) -> Signature:
        """Generator, schemes source, selector and dataset."""
        return _signature(
            "template",
            dataset,
            self.spec,
            schemes=self.templates.library.source,
            fill="every" if self.templates.every_fill else "first",
            selector=self.spec.args.get("selector"),
        )


def outcome_of_replies(
    iid: str,
    item: Intervention,
    replies: Sequence[ChatResult | CallFailed | str],
    *,
    selector: Selector,
    fill_from: str | None = None,
    whole_items: bool = False,
) -> tuple[ItemOutcome, list[str]]:
    """The questions kept from a model's replies for one intervention (the llm
    generator's rule, also applied to replies an evaluation framework got): every
    distinct question parsed, three chosen among the well-formed ones, and with
    ``fill_from`` the offline generator's questions up to three. Also the notes on
    replies too long to be a question list, which were read in part.
    ``whole_items`` keeps the questions of one listed item together
    (``parse_questions``)."""
    candidates: list[str] = []
    seen: set[str] = set()
    failure = None
    cut: list[str] = []
    for reply in replies:
        if isinstance(reply, CallFailed):
            failure = failure or f"{CALL_FAILED}: {reply.reason}"
            continue
        text = reply if isinstance(reply, str) else reply.text
        for question in parse_questions(text, notes=cut, whole_items=whole_items):
            if question.lower() not in seen:
                seen.add(question.lower())
                candidates.append(question)
    if failure and not candidates:
        outcome = ItemOutcome(
            intervention_id=iid, questions=None, reason=failure, candidates=candidates
        )
    else:
        outcome = select_three(iid, item, candidates, selector=selector, source="model output")
    if fill_from:
        outcome = fill_up(outcome, item, fill_from)
    return outcome, list(dict.fromkeys(cut))


class LLMCQGenerator:
    """An LLM prompted with one or more strategies; candidates pooled, three selected."""

    uses_llm = True
    spec: Spec

    def __init__(
        self,
        client: LLMClient,
        strategies: Sequence[Strategy[Intervention, PromptContext]],
        context: PromptContext,
        *,
        selector: Selector,
        params: GenerationParams,
        candidates: int = 1,
        fill_from: str | None = None,
    ) -> None:
        self.client = client
        self.fill_from = fill_from
        self.strategies = list(strategies)
        self.context = context
        self.selector = selector
        self.params = params
        self.candidates = candidates
        self.whole_items = False
        """Keep the questions of one listed item together (the model-first route)."""
        self.whole_input: tuple[PromptContext, list[str]] | None = None
        """Set where the input is generated for in parts (the Ray engine): the context
        and warnings of the whole input, used for every part."""

    def _context_for(self, dataset: CQDataset) -> tuple[PromptContext, list[str]]:
        return self.whole_input or self.context_for(dataset)

    def context_for(self, dataset: CQDataset) -> tuple[PromptContext, list[str]]:
        """The prompt context of a run over ``dataset`` (few-shot examples drawn from it
        when no pool is named), and what to warn about."""
        if not any(s.name == "fewshot" for s in self.strategies):
            return self.context, []
        pool = self.context.pool
        warnings = []
        if pool is None:
            # without a named pool, examples come from the split being generated for
            pool = dataset
            warnings.append(
                "few-shot examples are drawn from the interventions being generated for "
                "(never an intervention's own); name another pool with --shots-from"
            )
        elif shared := set(pool.interventions) & set(dataset.interventions):
            warnings.append(
                f"the few-shot pool shares {len(shared)} intervention(s) with the data "
                "being generated for; their labelled questions may appear as examples"
            )
        usable = [i for i in pool.interventions.values() if _n_useful(i) >= 3]
        if not usable:
            raise DataError(
                "the fewshot strategy needs labelled examples (interventions with three "
                "Useful questions) and the pool has none: pass --shots-from LABELLED.json",
                where=pool.source,
            )
        return replace(self.context, pool=pool), warnings

    def requests(
        self, dataset: CQDataset, run_index: int = 0, context: PromptContext | None = None
    ) -> list[tuple[str, ChatRequest]]:
        """Every (intervention id, request) of a run, in a fixed order."""
        params = self.params
        base = None if params.seed is None else params.seed + RUN_SEED_STRIDE * run_index
        run_params = GenerationParams(
            temperature=params.temperature,
            top_p=params.top_p,
            max_tokens=params.max_tokens,
            seed=base,
        )
        out = []
        for iid, item in dataset.interventions.items():
            for strategy in self.strategies:
                messages = strategy.messages(item, context or self.context)
                for s in range(self.candidates):
                    request = ChatRequest.of(
                        messages,
                        params=run_params.for_sample(s),
                        sample_index=s,
                        tag=f"{iid}|{strategy.name}",
                    )
                    out.append((iid, request))
        return out

    def generate(
        self,
        dataset: CQDataset,
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """Questions for every intervention; failures become "Missing CQs" with a reason."""
        context, whole_warnings = self._context_for(dataset)
        warnings = list(whole_warnings)  # its own list: the whole input's is shared
        requests = self.requests(dataset, run_index, context)
        replies, stats = fan_out(self.client, requests, on_progress)
        judged_before = judge_calls(self.selector)
        outcomes = []
        for iid, item in dataset.interventions.items():
            outcome, cut = outcome_of_replies(
                iid,
                item,
                replies.get(iid, []),
                selector=self.selector,
                fill_from=self.fill_from,
                whole_items=self.whole_items,
            )
            warnings.extend(f"{iid}: {note}" for note in cut)
            outcomes.append(outcome)
        # a judging selector's calls are the run's too (same client, cache and log)
        stats.add(calls_since(judge_calls(self.selector), before=judged_before))
        return GenerationRun(
            outcomes=outcomes, stats=stats, warnings=warnings, notes=outcome_notes(outcomes)
        )

    def signature(self, dataset: CQDataset) -> Signature:
        """Generator, model, strategies, sampling settings and dataset."""
        model, backend = describe(self.client.backend)
        return _signature(
            "llm",
            dataset,
            self.spec,
            model=model,
            backend=backend,
            strategies="+".join(s.name for s in self.strategies),
            candidates=self.candidates,
            selector=self.spec.args.get("selector"),
            temperature=self.params.temperature,
            fill=self.fill_from,
            **judge_signature(self.selector),
        )
