"""A framework's run brought back: the replies of an inspect_ai log of a ``maieutic/…``
task, or of an lm-eval ``--log_samples`` file of a ``maieutic_…`` task, replayed
through the task's generator and scored by ``maieutic.evaluate`` with the options the
run recorded, so ``maieutic compare``, ``report`` and the leaderboard read it like any
results file.

Replaying the replies, rather than copying the run's labels, makes the file exactly
what ``maieutic generate`` then ``maieutic evaluate`` write for them (per-item records,
flags, signature); the run's own headline figure is checked against it and a
difference is said, never hidden.
"""

from __future__ import annotations

import json
import math
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.data import guard
from maieutic.data.files import max_input_bytes, open_input, read_bytes
from maieutic.errors import DataError
from maieutic.integrations.bridge import SPECS, Benchmark
from maieutic.integrations.extras import require
from maieutic.integrations.options import benchmark_from
from maieutic.integrations.replay import Messages, llm_judges, messages_of, replayed_judgements

TOLERANCE = 1e-9
"""How far a run's own figure may be from maieutic's score of its replies."""


@dataclass(kw_only=True)
class ImportedRun:
    """The replies a framework's run got, and what it said of them."""

    benchmark: Benchmark
    replies: dict[Messages, str]
    name: str
    source: str
    framework_score: float | None = None
    """The run's own headline figure, where the file holds it."""
    warnings: list[str] = field(default_factory=list)
    judged: list[list[Any]] = field(default_factory=list)
    """The judgements a grader model made in the run (``[messages, seed, reply]``)."""
    grader: str | None = None

    def generation(self) -> Any:
        """What ``maieutic generate`` writes for the replies (``maieutic.run.Generation``)."""
        try:
            return self.benchmark.replayed(self.replies)
        except DataError as error:
            if error.where is not None:
                raise
            raise DataError(error.message, where=self.source) from None

    def evaluate(self, generation: Any) -> Any:
        """``generation`` scored as ``maieutic evaluate`` scores it (an ``Evaluation``),
        with a warning when the run's own figure differs from the score."""
        if self.grader is not None:  # the run's judge answers again, from its record
            backend = replayed_judgements(self.judged, model=self.grader)
            for judge in llm_judges(self.benchmark.evaluator()):
                judge.client.backend = backend
        try:
            evaluation = self.benchmark.score(generation, name=self.name)
        except DataError as error:
            if error.where is not None:
                raise
            raise DataError(error.message, where=self.source) from None
        [result] = evaluation.results
        result.warnings.extend(self.warnings)
        mine, theirs = result.score, self.framework_score
        if (
            theirs is not None
            and mine is not None
            and not math.isnan(theirs)
            and not math.isclose(mine, theirs, rel_tol=0, abs_tol=TOLERANCE)
        ):
            result.warnings.append(
                f"the run's own {self.benchmark.spec.metric} ({theirs:.6f}) differs from "
                f"maieutic's score of its replies ({mine:.6f}): the evaluator judged again "
                "(an LLM judge sampled anew?)"
            )
        return evaluation


def run_name(model: str) -> str:
    """A system name from a framework's model name (``openai-api/local/smollm2`` →
    ``openai-api-local-smollm2``)."""
    return "-".join(part for part in model.replace("\\", "/").split("/") if part) or "run"


def from_inspect_log(path: str | Path, *, name: str | None = None) -> ImportedRun:
    """The replies of an inspect_ai log of a ``maieutic/…`` task."""
    where = str(path)
    with open_input(path):  # a regular file (never a pipe), noted as an input
        pass
    _check_archive(Path(path))
    logs = require("inspect_ai.log", extra="inspect", needed_by="reading an inspect log")
    try:
        log = logs.read_eval_log(str(path))
    except Exception as error:  # inspect's own reader: any failure means not a log
        # its validation errors run to many lines: the first says what is wrong
        first = (str(error).strip().splitlines() or [""])[0][:300]
        kind = type(error).__name__
        raise DataError(f"not an inspect log ({kind}: {first})", where=where) from None
    metadata = log.eval.metadata or {}
    task = metadata.get("maieutic_task")
    if not isinstance(task, str) or task not in SPECS:
        raise DataError(f"not a run of a maieutic task (task {log.eval.task!r})", where=where)
    bench = benchmark_from(task, {k: v for k, v in (log.eval.task_args or {}).items()})
    replies: dict[Messages, str] = {}
    judged: list[list[Any]] = []
    grader = None
    unscored = []
    for sample in log.samples or []:
        score = next(
            (s for s in (sample.scores or {}).values() if "replies" in (s.metadata or {})), None
        )
        if score is None:
            unscored.append(str(sample.id))
            continue
        try:
            for listed, reply in score.metadata["replies"]:
                if not isinstance(reply, str):
                    raise TypeError("a reply is no text")
                reply.encode("utf-8")  # a lone surrogate cannot be written anywhere
                replies[messages_of(listed)] = reply
            found = score.metadata.get("judged") or []
            if not isinstance(found, list) or not all(
                isinstance(j, list) and len(j) == 3 for j in found
            ):
                raise TypeError("judged records are not [messages, seed, reply] triples")
            judged += found
        except (TypeError, ValueError, KeyError, UnicodeEncodeError) as error:
            raise DataError(
                f"sample {sample.id!r}: its score's replies are not what a maieutic task "
                f"writes ({error})",
                where=where,
            ) from None
        grader = score.metadata.get("grader") or grader
    if not replies:
        raise DataError("the log holds no scored sample", where=where)
    warnings = []
    if unscored:
        warnings.append(
            f"{len(unscored)} sample(s) without a score (an error in the run?) are left out, "
            f"as inspect's metrics leave them: {', '.join(unscored[:5])}"
        )
    return ImportedRun(
        benchmark=bench,
        replies=replies,
        name=name or run_name(log.eval.model),
        source=where,
        framework_score=_inspect_figure(log, bench.spec.metric),
        warnings=warnings,
        judged=judged,
        grader=grader,
    )


def _check_archive(path: Path) -> None:
    """An ``.eval`` log is a zip archive: refuse, before inspect inflates anything, one
    whose members would inflate past the input limit (a 96 KB log can hold gigabytes),
    and one with no ``header.json`` (no run is described; inspect would make one up
    from what is left). A member cannot inflate past the size it declares: the zip
    reader stops there and refuses the member."""
    if not zipfile.is_zipfile(path):
        return  # a JSON log: read whole, within the input limit already checked
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise DataError(f"not an inspect log ({error})", where=str(path)) from None
    limit = max_input_bytes()
    inflated = sum(m.file_size for m in members)
    if inflated > limit:
        biggest = max(members, key=lambda m: m.file_size)
        raise DataError(
            f"its members would inflate to {inflated:,} bytes ({biggest.filename!r} alone "
            f"{biggest.file_size:,}), over the input limit of {limit:,} "
            "(MAIEUTIC_MAX_INPUT_BYTES)",
            where=str(path),
        )
    if "header.json" not in {m.filename for m in members}:
        raise DataError("not an inspect log: the archive has no header.json", where=str(path))


def _inspect_figure(log: Any, name: str) -> float | None:
    for scores in log.results.scores if log.results else []:
        if name in scores.metrics:
            try:
                return float(scores.metrics[name].value)
            except (TypeError, ValueError):
                return None  # the log's own figure is only shown beside maieutic's
    return None


def _sample_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:  # a regular file only (never a pipe), noted as an input
        text = read_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise DataError("not UTF-8 text", where=str(path)) from None
    for number, line in enumerate(text.splitlines(), 1):
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
    """The replies of an lm-eval ``--log_samples`` file of a ``maieutic_…`` task."""
    path = Path(path)
    where = str(path)
    replies: dict[Messages, str] = {}
    run: tuple[str, str] | None = None
    for number, record in _sample_lines(path):
        try:
            doc, reply = record["doc"], str(record["filtered_resps"][0])
            found = (str(doc["task"]), str(doc["options"]))
            messages = messages_of(json.loads(doc["messages"]))
        except (KeyError, IndexError, TypeError, ValueError):
            raise DataError(
                f"line {number}: not a sample of a maieutic_… task (doc.task, doc.options, "
                "doc.messages and filtered_resps expected)",
                where=where,
            ) from None
        try:  # JSON's \ud800 escape reads as a lone surrogate, which nothing can write
            reply.encode("utf-8")
        except UnicodeEncodeError:
            raise DataError(
                f"line {number}: the reply holds a lone surrogate (\\ud800–\\udfff), "
                "which is no text",
                where=where,
            ) from None
        if run is None:
            run = found
        elif found != run:
            raise DataError(f"line {number}: another task or options than line 1", where=where)
        replies[messages] = reply
    if run is None:
        raise DataError("no samples in the file", where=where)
    task, options = run
    if task not in SPECS:
        raise DataError(f"unknown task {task!r}", where=where)
    try:
        given = json.loads(options)
    except ValueError:
        given = None
    if not isinstance(given, dict):
        raise DataError(f"line 1: doc.options is no JSON object ({options[:80]!r})", where=where)
    return ImportedRun(
        benchmark=benchmark_from(task, given),
        replies=replies,
        name=name or run_name(path.parent.name),
        source=where,
        framework_score=_lm_eval_figure(path, task),
    )


def _lm_eval_figure(samples: Path, task: str) -> float | None:
    """The headline of the results file lm-eval wrote beside ``samples`` (same stamp)."""
    stamp = samples.stem.rsplit("_", 1)[-1]
    results = samples.with_name(f"results_{stamp}.json")
    if not results.is_file():
        return None
    guard.note_input(results)  # read here: never an output of this import
    try:
        found = json.loads(results.read_text(encoding="utf-8"))["results"][f"maieutic_{task}"]
        return float(found[f"{SPECS[task].metric},none"])
    except (ValueError, KeyError, TypeError):
        return None
