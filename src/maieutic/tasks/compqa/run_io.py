"""How the library run layer (``maieutic.run``) reads and writes CompQA: answers are
scored on the rubric alone (no reference), a folder stands for its answer files, and
generation answers questions under the chosen scenarios, written in the released
layout (``NAME_scenario_K.json``, one per scenario) with a ``.meta.json`` record each."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maieutic.data.files import json_text, write_together
from maieutic.data.flags import Flag
from maieutic.generate.protocol import GenerationRun
from maieutic.tasks.compqa.generation import AnswerOutcome
from maieutic.tasks.compqa.questions import QuestionSet, read_questions
from maieutic.tasks.compqa.scenarios import NEEDS_ARGUMENTS, SCENARIOS
from maieutic.tasks.compqa.scored_files import answer_files
from maieutic.tasks.io import GeneratedPart, RecordContext, TaskIO, meta_path


def file_stem(model: str) -> str:
    """A generator name for file names, from a model name or path."""
    base = Path(model).stem if model.endswith(".gguf") else model.rsplit("/", 1)[-1]
    return re.sub(r"[^a-z0-9.-]+", "-", base.lower()).strip("-") or "llm"


def question_flags(questions: Any, scenarios: Sequence[str]) -> list[Flag]:
    """The question file's flags, and each question without arguments when a scenario
    that shows arguments is asked for."""
    flags = list(getattr(questions, "flags", []))
    items = getattr(questions, "questions", questions)
    source = getattr(questions, "source", "<memory>")
    if any(s in NEEDS_ARGUMENTS for s in scenarios):
        flags += [
            Flag(
                file=source,
                at=f"[{i}]",
                code="no-arguments",
                message=f"{q.text!r} has no arguments",
            )
            for i, q in enumerate(items)
            if not q.arguments
        ]
    return flags


class CompQAIO(TaskIO):
    """CompQA: answer files scored without references; questions to answer."""

    needs_reference = False

    def submission_files(self, paths: Sequence[str]) -> list[str]:
        """The files given, each folder replaced by its answer files."""
        return [str(p) for p in answer_files(paths)]

    def read_generation_input(self, task: Any, path: str | Path) -> QuestionSet:
        """The questions (JSON, JSONL or text lines)."""
        return read_questions(path)

    def generator_input(self, data: Any) -> Any:
        """The questions themselves (a question set or a list of them)."""
        return getattr(data, "questions", data)

    def first(self, data: Any, n: int) -> Any:
        """The first ``n`` questions."""
        if isinstance(data, QuestionSet):
            return dataclasses.replace(data, questions=data.questions[:n])
        return list(data)[:n]

    def items(self, data: Any) -> dict[str, Any]:
        """The questions by position (the rows of a Ray run)."""
        return {str(i): q for i, q in enumerate(self.generator_input(data))}

    def with_items(self, data: Any, items: dict[str, Any]) -> Any:
        """The questions ``items`` only."""
        if isinstance(data, QuestionSet):
            return dataclasses.replace(data, questions=list(items.values()), flags=[])
        return list(items.values())

    def outcome_groups(self, run: GenerationRun, n_items: int) -> list[list[Any]]:
        """Per question, its answer(s) in each scenario (the run orders them by sample,
        scenario, then question)."""
        if n_items == 0:
            return []
        return [run.outcomes[i::n_items] for i in range(n_items)]

    def merged_outcomes(self, groups: list[list[Any]]) -> list[Any]:
        """By scenario, then question, each numbered by its place in the whole input."""
        n_scenarios = len(groups[0]) if groups else 0
        return [
            dataclasses.replace(group[s], index=i)
            for s in range(n_scenarios)
            for i, group in enumerate(groups)
        ]

    def failed_outcomes(self, generator: Any, key: str, item: Any, *, reason: str) -> list[Any]:
        """An unanswered outcome for each of the generator's samples and scenarios."""
        return [
            AnswerOutcome(index=int(key), scenario=s, question=item, failure=reason, sample=k)
            for k in range(getattr(generator, "samples", 1))
            for s in generator.scenarios
        ]

    def input_flags(self, data: Any, options: dict[str, Any]) -> list[Flag]:
        """What the questions hold that is worth a warning for these scenarios."""
        return question_flags(data, options.get("scenarios") or SCENARIOS)

    def parts(self, run: GenerationRun, data: Any, context: RecordContext) -> list[GeneratedPart]:
        """One answer list and record per scenario (as ``maieutic generate compqa``)."""
        scenarios = context.generator.args.get("scenarios") or SCENARIOS
        prefix = f"run{context.run_index + 1}_" if context.n_runs > 1 else ""
        flags = [f.to_json() for f in context.flags]
        parts = []
        for scenario in scenarios:
            # a question's samples side by side, as in the released files
            outcomes = sorted(
                (o for o in run.outcomes if o.scenario == scenario),
                key=lambda o: (o.index, o.sample),
            )
            failed = [{"index": o.index, "failure": o.failure} for o in outcomes if o.failed]
            details = {"scenario": scenario, "flags": flags}
            record = context.record(run, details, model_calls=False, failed=failed)
            answers = [o.to_json() for o in outcomes if not o.failed]
            parts.append(GeneratedPart(f"{prefix}scenario_{scenario}", answers, record))
        return parts

    def write(self, generation: Any, out: Path, *, name: str | None = None) -> list[Path]:
        """``OUT/NAME_scenario_K.json`` and its ``.meta.json`` per scenario (``NAME``: the
        model's name unless given; ``NAME-runK_…`` for repeated runs)."""
        name = name or file_stem(generation.signature.model or "llm")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for part in generation.parts:
            joiner = "-" if part.name.startswith("run") else "_"
            path = out / f"{name}{joiner}{part.name}.json"
            # the output and its record together: a full disk leaves neither half-done
            write_together({path: json_text(part.output), meta_path(path): json_text(part.record)})
            written.append(path)
        return written


IO = CompQAIO()
