"""One meaning per option name: every option of every command, its kind of value and
what it means; part of the public ``maieutic.cli`` API, as a task's options take the
names and kinds of this table. A test walks the whole command tree (the tasks'
commands included) and fails on an option missing here or taking another kind of
value; docs/cli.md shows the table.

Naming rules the table follows: ``--out`` is an output file and ``--out-dir`` an
output directory (``--official-dir`` another one); an option naming a file that
examples come from ends in ``-from`` (``--shots-from``) while ``--shots`` is their
number; ``--llm`` is always a language model and ``--embedding-model`` a sentence
embedding model (no bare ``--model``); a flag that turns something off is the
``--no-`` form of the flag that turns it on. Renamed options keep their old spelling
as a hidden ``DeprecatedAlias`` (``maieutic.cli.options.deprecated_alias``). Every
option of kind NUMBER takes ``maieutic.cli.option_types.number()``: a finite number,
NaN never.
"""

from __future__ import annotations

from dataclasses import dataclass

import click

from maieutic.cli.option_types import RegisteredOrScorer

FILE, DIRECTORY, PATH = "file", "directory", "file or directory"
INTEGER, NUMBER, FLAG, CHOICE, TEXT = "integer", "number", "flag", "choice", "text"


@dataclass(frozen=True)
class Meaning:
    """What an option name means, and the kinds of value it takes."""

    kinds: tuple[str, ...]
    text: str


def _m(kinds: str | tuple[str, ...], text: str) -> Meaning:
    return Meaning(kinds if isinstance(kinds, tuple) else (kinds,), text)


MEANINGS: dict[str, Meaning] = {
    # where results go
    "--out": _m(FILE, "output file (JSON results unless the command says; '-': stdout)"),
    "--out-dir": _m(DIRECTORY, "output directory (several files, or a saved model)"),
    "--official-dir": _m(DIRECTORY, "directory for files in a benchmark script's own layout"),
    "--out-submission": _m(FILE, "a system's output to write too, as `generate` writes it"),
    "--plot": _m(FILE, "an SVG figure file to write (the report draws the same figure)"),
    "--title": _m(TEXT, "title of a written page"),
    "--format": _m(CHOICE, "how results are printed (terminal, json, markdown)"),
    # inputs
    "--data": _m(FILE, "the task's dataset file (labelled, or the inputs to generate for)"),
    "--gold": _m(FILE, "gold (reference) labels file"),
    "--annotators": _m(PATH, "per-annotator label files, or their folder (repeatable)"),
    "--questions": _m(FILE, "file of questions to answer"),
    "--document": _m(FILE, "a document file (Markdown, text, PDF or passage JSON)"),
    "--qgeval": _m(FILE, "QGEval-style file: passages, questions and human ratings"),
    "--judged": _m(PATH, "scored answer files, or their folder (repeatable)"),
    "--humans": _m(FILE, "people's averaged rubric scores (a table file)"),
    "--hum1": _m(FILE, "the first annotator's scores file"),
    "--hum2": _m(FILE, "the second annotator's scores file"),
    "--extra-references": _m(FILE, "a labelled submission used as extra references"),
    "--outputs": _m(FILE, "generated questions labelled by people (judging evaluators)"),
    "--schemes": _m(FILE, "argumentation-scheme templates file"),
    "--scheme-mapping": _m(FILE, "CSV mapping dataset scheme labels to --schemes names"),
    "--shots-from": _m(FILE, "file the few-shot examples come from"),
    "--role": _m(CHOICE, "which labels of a file to read (gold or predictions)"),
    # components
    "--generator": _m(CHOICE, "registered generator name"),
    "--evaluator": _m(CHOICE, "registered evaluator name (or scorer:DIR where offered)"),
    "--selector": _m(CHOICE, "how candidates are reduced (registered name or scorer:DIR)"),
    "--strategy": _m(CHOICE, "prompting strategy of a model"),
    "--scorer": _m(DIRECTORY, "a learned scorer's directory"),
    "--threshold": _m(
        (NUMBER, TEXT), "an evaluator's threshold on its own scale (EVALUATOR=VALUE for several)"
    ),
    "--threshold-rule": _m(CHOICE, "whether a score must exceed (gt) or reach (ge) the threshold"),
    "--preset": _m(CHOICE, "a named setting that reproduces a published number"),
    "--unscored": _m(CHOICE, "how a question an LLM judge could not score is counted"),
    "--nae-fallback": _m(CHOICE, "a reference-free judge for questions no reference matches"),
    "--answerability": _m(TEXT, "who decides that a question is answerable"),
    "--cross-encoder": _m((TEXT, DIRECTORY), "cross-encoder model name or directory"),
    "--top-k": _m(INTEGER, "candidates retrieved before reranking"),
    "--link-threshold": _m(NUMBER, "cosine at which two units are linked"),
    "--entropy": _m(CHOICE, "which structural-entropy definition"),
    "--non-redundancy": _m(CHOICE, "which non-redundancy definition"),
    "--aggregate": _m(CHOICE, "how several metrics make one preference"),
    "--judge": _m(
        TEXT, "a column of a table: NAME=PATH, scored answers or people's score files (repeatable)"
    ),
    "--by": _m(CHOICE, "what the rows of a breakdown are"),
    "--groups": _m(FLAG, "also each criterion group of the rubric"),
    "--average": _m(CHOICE, "how a breakdown averages: over cells or over answers"),
    "--high": _m(NUMBER, "the lowest total that counts as a high score"),
    "--low": _m(NUMBER, "the highest total that counts as a low score"),
    "--mode": _m(CHOICE, "which predictions count (category or open)"),
    "--pairing": _m(CHOICE, "how predicted and gold spans are paired"),
    "--span-embedding": _m(FLAG, "also score spans with an embedding model (--no-…: do not)"),
    "--rules": _m(FLAG, "score with the rule-based judge instead"),
    "--per-criterion": _m(FLAG, "also report each criterion"),
    "--order": _m(CHOICE, "whose questions come first (model-first route)"),
    "--per-reply": _m(INTEGER, "stored questions per replayed reply"),
    "--model-first": _m(FLAG, "choose as the model-first route shows a model's questions"),
    "--examples": _m(CHOICE, "what a scorer learns from (references or templates)"),
    "--c": _m(NUMBER, "inverse regularisation strength"),
    "--task": _m(TEXT, "a task's name"),
    # generation
    "--shots": _m(INTEGER, "how many few-shot examples"),
    "--candidates": _m(INTEGER, "samples pooled before selection"),
    "--fill-from": _m(CHOICE, "an offline generator that fills up to three questions"),
    "--runs": _m(INTEGER, "independent runs"),
    "--limit": _m(INTEGER, "only the first N inputs"),
    "--sample": _m(INTEGER, "a seeded sample of N inputs"),
    "--samples": _m(INTEGER, "answers drawn per question, each its own seed"),
    "--seed": _m(INTEGER, "random seed"),
    "--temperature": _m(NUMBER, "sampling temperature"),
    "--top-p": _m(NUMBER, "nucleus sampling mass"),
    "--max-tokens": _m(INTEGER, "longest model reply, in tokens"),
    "--fill": _m(CHOICE, "how template slots are filled"),
    "--rewrite": _m(FLAG, "let the model rewrite filled templates (--no-…: do not)"),
    "--granularity": _m(CHOICE, "what one generation call covers"),
    "--scenario": _m(CHOICE, "prompting scenario (repeatable)"),
    "--name": _m(TEXT, "a system's name, used in file names and results"),
    "--ignore-categories": _m(FLAG, "consider every type, whatever an input's category"),
    "--question-set": _m(FLAG, "also write and score a question set (--no-…: never)"),
    "--min-score": _m(NUMBER, "lowest score kept"),
    # language and embedding models
    "--llm": _m(
        (TEXT, FILE), "language model: embedded, a name at --base-url, a GGUF file, or a HF name"
    ),
    "--llm-backend": _m(CHOICE, "how the language model is run"),
    "--base-url": _m(TEXT, "OpenAI-compatible endpoint"),
    "--concurrency": _m(INTEGER, "model calls in flight at once"),
    "--timeout": _m(NUMBER, "seconds per model call attempt"),
    "--retries": _m(INTEGER, "retries of a failed model call"),
    "--budget": _m(NUMBER, "seconds all model calls may take together"),
    # where the work runs
    "--engine": _m(CHOICE, "where items are processed: this process (local) or Ray"),
    "--ray-actors": _m(INTEGER, "replicas of the generator or evaluator on Ray"),
    "--embedding-model": _m((TEXT, DIRECTORY), "sentence-embedding model name or directory"),
    "--embedding-backend": _m(CHOICE, "how the embedding model is run (torch or onnx)"),
    "--batch-size": _m(INTEGER, "texts per embedding batch"),
    "--no-cache": _m(FLAG, "neither read nor write the embedding cache"),
    # checks
    "--strict": _m(FLAG, "refuse flagged inputs instead of scoring them"),
    "--skip-unknown": _m(FLAG, "skip ids absent from the references (default: error)"),
    "--sweep": _m(FLAG, "also try every threshold of the evaluator's grid"),
    "--curve": _m(FLAG, "also add other systems' labelled questions as references, in batches"),
    "--batch": _m(INTEGER, "extra references added per step of a curve"),
    "--draws": _m(INTEGER, "seeded draws a figure is averaged over"),
    # paired comparisons
    "--baseline": _m(TEXT, "the system others are tested against, by name"),
    "--pairwise": _m(FLAG, "test every pair of systems"),
    "--trials": _m(INTEGER, "approximate-randomization shuffles"),
    "--resamples": _m(INTEGER, "bootstrap resamples"),
    "--confidence": _m(NUMBER, "coverage of an interval (significance: p < 1 − it)"),
    # servers and set-up
    "--host": _m(TEXT, "interface to listen on"),
    "--allow-host": _m(TEXT, "another Host name the web app answers to (repeatable)"),
    "--port": _m(INTEGER, "port to listen on (0: a free one)"),
    "--max-upload-mb": _m(NUMBER, "largest upload accepted, in MB"),
    "--header-timeout": _m(NUMBER, "seconds a connection has to send its request headers"),
    "--max-connections": _m(INTEGER, "most connections the web app keeps open at once"),
    "--job-seconds": _m(NUMBER, "time budget of each web app job"),
    "--llamacpp": _m(FLAG, "also build llama-cpp-python"),
    "--dry-run": _m(FLAG, "print the commands instead of running them"),
    # the command line itself
    "--debug": _m(FLAG, "tracebacks instead of one-line errors"),
    "--quiet": _m(FLAG, "no progress bars or progress lines"),
    "--version": _m(FLAG, "print the version"),
}


def kind_of(param: click.Option) -> str:
    """The kind of value ``param`` takes, as the table names it."""
    kind = param.type
    if param.is_flag or isinstance(kind, click.types.BoolParamType):
        return FLAG
    if isinstance(kind, click.Path):
        if kind.file_okay and not kind.dir_okay:
            return FILE
        return DIRECTORY if kind.dir_okay and not kind.file_okay else PATH
    if isinstance(kind, click.types.IntParamType):
        return INTEGER
    if isinstance(kind, click.types.FloatParamType):
        return NUMBER
    if isinstance(kind, click.Choice | RegisteredOrScorer):
        return CHOICE
    return TEXT if isinstance(kind, click.types.StringParamType) else type(kind).__name__


def disagreements(param: click.Option) -> list[str]:
    """What is wrong with ``param`` against the table (nothing: an empty list)."""
    problems = []
    for name in (o for o in param.opts if o.startswith("--")):
        meaning = MEANINGS.get(name)
        if meaning is None:
            problems.append(f"{name} is not in the table of option meanings")
        elif kind_of(param) not in meaning.kinds:
            problems.append(f"{name} takes a {kind_of(param)}; the table says {meaning.kinds}")
    for name in param.secondary_opts:
        if name.startswith("--") and f"--no-{param.opts[0][2:]}" != name:
            problems.append(f"{name} should be --no-{param.opts[0][2:]}")
    return problems
