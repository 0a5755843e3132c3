"""Three questions per text chosen from a file of stored candidates (``maieutic cqs
select``): which of a system's candidates would a selector keep?

It writes what ``generate cqs`` writes — a submission in the benchmark's layout and its
``.meta.json`` record, with the signature naming the candidates file's content hash
and the selector — so the choice is scored by ``evaluate cqs`` like any system. With
``model_first`` the choice is the model-first route's, run offline on the stored
questions as if a model had written them (``maieutic.tasks.cqs.model_first``).
"""

from __future__ import annotations

from maieutic.generate.protocol import GenerationRun
from maieutic.signature import Signature
from maieutic.tasks.cqs.candidates import Candidates
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
from maieutic.tasks.cqs.data import EXPECTED_QUESTIONS, CQDataset, Intervention
from maieutic.tasks.cqs.model_first import choose, outcome_of
from maieutic.tasks.cqs.outcomes import InterventionGenerator, ItemOutcome
from maieutic.tasks.cqs.selection import Selector, calls_since, judge_calls
from maieutic.wording import plural


class SelectingGenerator(InterventionGenerator):
    """A selector (or the model-first route) over each text's stored candidates."""

    spec: object

    def __init__(
        self, candidates: Candidates, selector: Selector, *, model_first: bool = False
    ) -> None:
        self.candidates = candidates
        self.selector = selector
        self.model_first = model_first
        self.claims = ClaimsCQGenerator() if model_first else None

    def outcome(self, key: str, item: Intervention, *, run_index: int) -> ItemOutcome:
        """Three of the text's candidates (fewer, with a note, where it has fewer)."""
        stored = self.candidates.sets.get(key)
        questions = list(dict.fromkeys(stored.questions)) if stored else []
        if self.claims is not None:
            choice = choose(item, questions, claims=self.claims, selector=self.selector)
            return outcome_of(key, questions, choice)
        if not questions:
            return ItemOutcome(intervention_id=key, questions=None, reason="no candidate questions")
        chosen = self.selector(item, questions, EXPECTED_QUESTIONS)
        note = None
        if len(chosen) < EXPECTED_QUESTIONS:
            note = f"only {plural(len(questions), 'candidate')}"
        return ItemOutcome(intervention_id=key, questions=chosen, candidates=questions, note=note)

    @property
    def uses_llm(self) -> bool:  # type: ignore[override]
        """Whether the selector asks a model (``llm-judge``)."""
        return getattr(self.selector, "judge", None) is not None

    def generate(self, dataset: CQDataset, **kwargs) -> GenerationRun:
        """The choice for every text, with the model calls of a judging selector."""
        before = judge_calls(self.selector)
        run = super().generate(dataset, **kwargs)
        run.stats.add(calls_since(judge_calls(self.selector), before=before))
        return run

    def signature(self, dataset: CQDataset) -> Signature:
        """The candidates' content hash, the selector and whether model-first chose."""
        spec = self.spec.args  # type: ignore[attr-defined]
        extra = {
            "candidates": self.candidates.fingerprint(),
            "selector": spec.get("selector"),
            "route": "model-first" if self.model_first else None,
        }
        judge = getattr(self.selector, "judge", None)
        model = backend = None
        if judge is not None:  # the judge's model and prompt decide the choice
            fields = judge.signature_fields()
            model, backend, extra["judge_prompt"] = (
                fields["model"],
                fields["backend"],
                fields["prompt"],
            )
        return Signature(
            task="cqs",
            generator="select",
            dataset=dataset.fingerprint(),
            model=model,
            backend=backend,
            seed=spec.get("seed"),
            extra=extra,
        )
