"""How the library run layer (``maieutic.run``) reads and writes AURA: a document is the
reference (its JSON may carry question sets, scored when none are given), and
generation writes one question list with its ``.meta.json`` record."""

from __future__ import annotations

from typing import Any

from maieutic.errors import DataError
from maieutic.generate.protocol import GenerationRun
from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.evaluate import QuestionSet
from maieutic.tasks.io import GeneratedPart, RecordContext, TaskIO


class AuraIO(TaskIO):
    """AURA: a document, question sets about it."""

    def bundled_submissions(self, reference: Document) -> list[QuestionSet]:
        """The question lists inside the document's JSON (the sample layout)."""
        if not reference.question_sets:
            raise DataError("no question sets: give SETS, or a JSON document with question lists")
        return [
            QuestionSet(questions=list(questions), source=reference.source, name=name)
            for name, questions in reference.question_sets.items()
        ]

    def items(self, data: Any) -> dict[str, Any]:
        """Not split: AURA generates for one document, whose passages already go out
        together (``--concurrency``)."""
        raise DataError(
            "aura generates for one document at a time (its passages go out together, "
            "--concurrency at once): the ray engine splits inputs of many items (cqs, "
            "focus, compqa); run one job per document instead"
        )

    def parts(
        self, run: GenerationRun, data: Document, context: RecordContext
    ) -> list[GeneratedPart]:
        """The questions, each once, and the record (as ``maieutic generate aura`` writes)."""
        record = context.record(run, {"passages": [o.to_json() for o in run.outcomes]})
        questions = list(dict.fromkeys(q for o in run.outcomes for q in o.questions))
        name = f"run{context.run_index + 1}" if context.n_runs > 1 else ""
        return [GeneratedPart(name, questions, record)]


IO = AuraIO()
