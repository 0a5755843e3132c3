"""FOCUS generation with a language model, through the shared client (cached, logged,
resumable): one request per argument, the reply parsed, each span grounded in the
argument, and the type's template filled — optionally rewritten by the model, kept
only when the span survives word for word."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from maieutic.errors import DataError
from maieutic.generate.fanout import FanOutStats, fan_out
from maieutic.generate.protocol import GenerationRun
from maieutic.generate.strategy import Strategy
from maieutic.llm.backends import describe
from maieutic.llm.client import CallFailed, LLMClient
from maieutic.llm.types import ChatRequest, GenerationParams
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.focus.generate import FocusOutcome, focus_signature
from maieutic.tasks.focus.llm_prompts import REWRITE_PROMPT, PromptContext
from maieutic.tasks.focus.reply_parsing import parse_reply
from maieutic.tasks.focus.span_snap import snap_span
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet, SpanLabel
from maieutic.tasks.focus.typology import NONE_ID, typology


def ground(
    argument: str, category: str | None, parsed_labels, *, problems: list[str]
) -> list[SpanLabel]:
    """Parsed (type, span) pairs as labels with offsets of the closest exact substring;
    a span not in the argument is reported and kept without offsets."""
    allowed = typology().category_types(category)
    labels = []
    for position, (type_id, span) in enumerate(parsed_labels, start=1):
        if type_id == NONE_ID:
            continue
        snap = snap_span(argument, span=span)
        if snap is None and span.strip():
            problems.append(f"span {span.strip()[:60]!r} is not in the argument")
        text = snap.text(argument) if snap else span
        slot = allowed.index(type_id) + 1 if category and type_id in allowed else position
        labels.append(
            SpanLabel(
                type=type_id,
                text=text,
                start=snap.start if snap else None,
                end=snap.end if snap else None,
                slot=slot,
                question=typology().types[type_id].question(text),
            )
        )
    return labels


class LLMFocusGenerator:
    """Types, spans and questions from a language model prompted with one strategy."""

    uses_llm = True
    spec: Spec

    def __init__(
        self,
        client: LLMClient,
        strategy: Strategy[FocusItem, PromptContext],
        context: PromptContext,
        *,
        params: GenerationParams,
        use_categories: bool = True,
        rewrite: bool = False,
    ) -> None:
        self.client = client
        self.strategy = strategy
        self.context = context
        self.params = params
        self.use_categories = use_categories
        self.rewrite = rewrite

    whole_input: tuple[PromptContext, list[str]] | None = None
    """Set where the input is generated for in parts (the Ray engine): the context and
    warnings of the whole input, used for every part."""

    def _context_for(self, dataset: FocusSet) -> tuple[PromptContext, list[str]]:
        return self.whole_input or self.context_for(dataset)

    def context_for(self, dataset: FocusSet) -> tuple[PromptContext, list[str]]:
        """The prompt context of a run over ``dataset`` (pool arguments being generated
        for are never shown), and what to warn about."""
        if self.strategy.name != "few-shot":
            return self.context, []
        pool = self.context.pool
        if pool is None or not any(i.labels for i in pool.items.values()):
            raise DataError("the few-shot strategy needs a labelled pool (--shots-from)")
        texts = frozenset(i.argument for i in dataset.items.values())
        shared = sum(
            " ".join(i.argument.split()) in {" ".join(t.split()) for t in texts}
            for i in pool.items.values()
        )
        warnings = (
            [f"{shared} pool argument(s) are being generated for and are never shown"]
            if shared
            else []
        )
        return replace(self.context, excluded=texts), warnings

    def _item(self, item):
        return item if self.use_categories else replace(item, category=None)

    def generate(
        self,
        dataset: FocusSet,
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """One request per argument; failures and unparseable replies become outcomes
        with no label and a reason."""
        context, warnings = self._context_for(dataset)
        params = replace(
            self.params,
            seed=None if self.params.seed is None else self.params.seed + 1000 * run_index,
        )
        jobs = [
            (
                key,
                ChatRequest.of(
                    self.strategy.messages(self._item(item), context), params=params, tag=key
                ),
            )
            for key, item in dataset.items.items()
        ]
        replies, stats = fan_out(self.client, jobs, on_progress)
        outcomes = []
        for key, item in dataset.items.items():
            [reply] = replies[key]
            if isinstance(reply, CallFailed):
                outcomes.append(
                    FocusOutcome(id=key, labels=[], failure=f"model call failed: {reply.reason}")
                )
                continue
            parsed = parse_reply(reply.text)
            problems = list(parsed.problems)
            category = item.category if self.use_categories else None
            labels = ground(item.argument, category, parsed.labels, problems=problems)
            outcomes.append(FocusOutcome(id=key, labels=labels, problems=problems, raw=reply.text))
        if self.rewrite:
            self._rewrite(outcomes, params, stats)
        return GenerationRun(outcomes=outcomes, stats=stats, warnings=warnings)

    def _rewrite(
        self, outcomes: list[FocusOutcome], params: GenerationParams, stats: FanOutStats
    ) -> None:
        jobs = []
        for outcome in outcomes:
            for index, label in enumerate(outcome.labels):
                if label.question and label.start is not None:
                    prompt = REWRITE_PROMPT.format(span=label.text, question=label.question)
                    request = ChatRequest.of([{"role": "user", "content": prompt}], params=params)
                    jobs.append(((outcome.id, index), request))
        replies, more = fan_out(self.client, jobs)
        stats.add(more)
        by_id = {o.id: o for o in outcomes}
        for (key, index), [reply] in replies.items():
            outcome = by_id[key]
            label = outcome.labels[index]
            if isinstance(reply, CallFailed):
                outcome.problems.append(
                    f"rewrite of the {label.type} question failed ({reply.reason}); template kept"
                )
                continue
            text = reply.text.strip().strip('"')
            # the template drops the span's trailing punctuation; so may the rewrite
            core = label.text.strip().rstrip(".,;:!?").strip()
            if text and core in text:
                outcome.labels[index] = replace(label, question=text)
            else:
                outcome.problems.append(
                    f"rewrite of the {label.type} question dropped the span; template kept"
                )

    def signature(self, dataset: FocusSet) -> Signature:
        """Generator, model, strategy, sampling settings and dataset."""
        model, backend = describe(self.client.backend)
        signature = focus_signature("llm", dataset, self.spec, temperature=self.params.temperature)
        return replace(signature, model=model, backend=backend, seed=self.params.seed)
