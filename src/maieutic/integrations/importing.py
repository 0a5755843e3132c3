"""A framework's run brought back: the questions of an inspect_ai log or of an
lm-eval ``--log_samples`` file, scored again by ``maieutic.evaluate`` with the options
the run recorded, so ``maieutic compare``, ``report`` and the leaderboard read it like
any results file.

Scoring again, rather than copying the labels, makes the file exactly what ``maieutic
evaluate`` writes for those questions (per-item records, flags, signature); the run's
own metric is checked against it and a difference is said, never hidden.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.errors import DataError
from maieutic.integrations.bridge import CQsBenchmark
from maieutic.integrations.options import OPTION_NAMES, benchmark_from

TOLERANCE = 1e-9
"""How far a run's own metric may be from maieutic's score of its questions."""


@dataclass(kw_only=True)
class ImportedRun:
    """The questions a framework's run kept per item, and what it said of them."""

    benchmark: CQsBenchmark
    questions: dict[str, list[str] | None]
    name: str
    source: str
    framework_score: float | None = None
    """The run's own ``overall`` metric, where the file holds it."""
    warnings: list[str] = field(default_factory=list)

    def evaluate(self) -> Any:
        """The run scored by ``maieutic.evaluate`` (an ``Evaluation``), with a warning
        when the run's own metric differs from the score."""
        from maieutic.run import evaluate

        bench = self.benchmark
        submission = bench.submission(self.questions, name=self.name)
        evaluation = evaluate(
            bench.task,
            bench.dataset,
            submissions=[submission],
            evaluator=bench.evaluator_name,
            **bench.evaluator_options,
        )
        [result] = evaluation.results
        result.warnings.extend(self.warnings)
        mine, theirs = result.score, self.framework_score
        if (
            theirs is not None
            and mine is not None
            and not math.isclose(mine, theirs, rel_tol=0, abs_tol=TOLERANCE)
        ):
            result.warnings.append(
                f"the run's own overall ({theirs:.6f}) differs from maieutic's score of its "
                f"questions ({mine:.6f}): the evaluator's judgements changed (an LLM judge "
                "sampled again?)"
            )
        return evaluation


def run_name(model: str) -> str:
    """A system name from a framework's model name (``openai-api/local/smollm2`` →
    ``openai-api-local-smollm2``)."""
    return "-".join(part for part in model.replace("\\", "/").split("/") if part) or "run"


def _options(found: Mapping[str, Any]) -> dict[str, Any]:
    return {k: found[k] for k in OPTION_NAMES if found.get(k) is not None}


def from_inspect_log(path: str | Path, *, name: str | None = None) -> ImportedRun:
    """The questions of an inspect_ai log written by ``maieutic/cqs``."""
    where = str(path)
    if not Path(path).is_file():
        raise DataError("no such file", where=where)
    from inspect_ai.log import read_eval_log
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # inspect's own reader: any failure means not a log
        raise DataError(
            f"not an inspect log ({type(error).__name__}: {error})", where=where
        ) from None
    metadata = log.eval.metadata or {}
    if metadata.get("maieutic_task") != "cqs":
        raise DataError(f"not a run of maieutic/cqs (task {log.eval.task!r})", where=where)
    bench = benchmark_from(_options(log.eval.task_args or {}))
    questions: dict[str, list[str] | None] = {}
    errored = []
    for sample in log.samples or []:
        score = next(
            (s for s in (sample.scores or {}).values() if "questions" in (s.metadata or {})), None
        )
        if score is None:
            errored.append(str(sample.id))
            continue
        questions[str(sample.id)] = score.metadata["questions"]
    if not questions:
        raise DataError("the log holds no scored sample", where=where)
    warnings = []
    if errored:
        warnings.append(
            f"{len(errored)} sample(s) without a score (an error in the run?) are left out, "
            f"as inspect's metric leaves them: {', '.join(errored[:5])}"
        )
    metric = None
    for scores in log.results.scores if log.results else []:
        if "overall" in scores.metrics:
            metric = scores.metrics["overall"].value
    return ImportedRun(
        benchmark=bench,
        questions=questions,
        name=name or run_name(log.eval.model),
        source=where,
        framework_score=metric,
        warnings=warnings,
    )


def _sample_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataError(f"line {number}: not JSON ({error.msg})", where=str(path)) from None
            if not isinstance(record, dict):
                raise DataError(f"line {number}: expected an object", where=str(path))
            yield number, record


def from_lm_eval_samples(path: str | Path, *, name: str | None = None) -> ImportedRun:
    """The questions of an lm-eval ``--log_samples`` file of ``maieutic_cqs``."""
    path = Path(path)
    where = str(path)
    if not path.is_file():
        raise DataError("no such file", where=where)
    questions: dict[str, list[str] | None] = {}
    options: dict[str, Any] | None = None
    for number, record in _sample_lines(path):
        verdict, doc = record.get("overall"), record.get("doc")
        if not isinstance(verdict, dict) or not isinstance(doc, dict) or "options" not in doc:
            raise DataError(
                f"line {number}: not a maieutic_cqs sample (no doc options or overall)",
                where=where,
            )
        found = json.loads(doc["options"])
        if options is None:
            options = found
        elif found != options:
            raise DataError(f"line {number}: options differ from the first line's", where=where)
        questions[str(verdict["id"])] = verdict["questions"]
    if options is None:
        raise DataError("no samples in the file", where=where)
    return ImportedRun(
        benchmark=benchmark_from(options),
        questions=questions,
        name=name or run_name(path.parent.name),
        source=where,
        framework_score=_lm_eval_metric(path),
    )


def _lm_eval_metric(samples: Path) -> float | None:
    """The aggregate of the results file lm-eval wrote beside ``samples`` (same stamp)."""
    stamp = samples.stem.rsplit("_", 1)[-1]
    results = samples.with_name(f"results_{stamp}.json")
    if not results.is_file():
        return None
    try:
        found = json.loads(results.read_text(encoding="utf-8"))["results"]["maieutic_cqs"]
        return float(found["overall,none"])
    except (ValueError, KeyError, TypeError):
        return None
