"""One valid, cheap, offline invocation per leaf command, and the commands left out.

A ``Call`` is the words after the command path; a word ``@NAME`` is the file NAME in
the folder a probe runs in (``KEY=@NAME``: that file, after ``KEY=``). ``FILES`` says
what each input file holds (written fresh for every probe by ``write_files``); an
``@NAME`` not in ``FILES`` is an output.
A command may have several calls when its file options exclude each other (``--humans``
or ``--hum1``/``--hum2``): each slot is probed in the first call that gives it a file.

A new command fails ``test_every_command_is_in_the_table`` until it is added here (or to
``EXEMPT`` with the reason); its file slots are then found from its click parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.hardening.valid_files import FILES, write_files

__all__ = ["CALLS", "EXEMPT", "FILES", "Call", "at_name", "place", "put", "write_files"]


def at_name(word: str) -> str | None:
    """The ``@NAME`` a word of a call holds: the word itself, or what follows ``KEY=``
    in a word ``KEY=@NAME`` (``--judge gpt4=@judged.json``); None for other words."""
    if word.startswith("@"):
        return word
    head, sep, tail = word.partition("=@")
    return f"@{tail}" if sep and head else None


def put(word: str, value: str) -> str:
    """``word`` with its ``@NAME`` replaced by ``value`` (its ``KEY=`` kept)."""
    return value if word.startswith("@") else f"{word.partition('=@')[0]}={value}"


def place(argv: tuple[str, ...], name: str) -> int:
    """The index of the word of ``argv`` that holds ``@NAME`` ``name``."""
    return next(i for i, word in enumerate(argv) if at_name(word) == name)


@dataclass(frozen=True)
class Call:
    """A base invocation: ``argv`` after the command path, and how to treat it."""

    argv: tuple[str, ...]
    model: str = ""  # "embedding" or "llm": the call loads a model (slow)
    extra_slots: tuple[str, ...] = ()  # params that take files without a click.Path type
    derived_argv: tuple[str, ...] = ()  # added when probing outputs named after --out
    indirect: tuple[str, ...] = ()  # input files read through another (a preferences list)


_AURA = ("--no-cache",)
_CQS_GEN = ("--data", "@cqs_data.json", "--out", "@out.json", "--limit", "2")
_LLM_AURA = ("--out", "@out.json", "--max-tokens", "48", "--granularity", "document")
_LISTED = ("@aura_doc.md", "@aura_set1.txt")  # named inside aura_prefs.jsonl
_HUMANS = (
    Call(("--judged", "@gpt4_scenario_1.json", "--humans", "@humans.tsv")),
    Call(("--judged", "@gpt4_scenario_1.json", "--hum1", "@hum1.tsv", "--hum2", "@hum2.tsv")),
)

# fmt: off
CALLS: dict[str, tuple[Call, ...]] = {
    "ask": (Call(("@ask_text.txt", "--format", "json"), extra_slots=("source",)),),
    "aura agree": (Call(("@aura_prefs.jsonl", *_AURA), model="embedding", indirect=_LISTED),),
    "aura compare": (
        Call(("@aura_doc.md", "@aura_set1.txt", "@aura_set2.txt", *_AURA), model="embedding"),
    ),
    "aura sweep": (
        Call(("@aura_doc.md", "@aura_set1.txt", "--qgeval", "@aura_qgeval.json", *_AURA),
             model="embedding"),
    ),
    "compqa agree": _HUMANS,
    "compqa breakdown": (Call(("--judge", "gpt4=@gpt4_scenario_1.json"), extra_slots=("specs",)),),
    "compqa extremes": _HUMANS,
    "compqa export-sft": (
        Call(("--judged", "@gpt4_scenario_1.json", "--out", "@out.jsonl", "--min-score", "0")),
    ),
    "compqa table": (Call(("--judged", "@gpt4_scenario_1.json")),),
    "evaluate aura": (Call(("@aura_doc.md", "@aura_set1.txt", *_AURA), model="embedding"),),
    "evaluate compqa": (
        Call(("@gpt4_scenario_1.json",)),
        Call(("@one_scenario_2.json", "--evaluator", "llm", "--strategy", "few-shot",
              "--shots-from", "@compqa_shots.json", "--shots", "1", "--max-tokens", "40"),
             model="llm"),
    ),
    "cqs stats": (Call(("@cqs_data.json", "--out", "@out.json")),),
    "cqs select": (
        Call(("@cqs_sub.json", "--data", "@cqs_data.json", "--out", "@out.json",
              "--model-first")),
        Call(("@cqs_data.json", "--out", "@out.json", "--selector", "llm-judge", "--llm",
              "embedded"), model="llm"),
    ),
    "evaluate cqs": (
        Call(("--data", "@cqs_data.json", "@cqs_sub.json", "--evaluator", "chrf",
              "--extra-references", "@cqs_extra.json")),
    ),
    "evaluate focus": (
        Call(("--gold", "@focus_gold.csv", "@focus_pred.csv", "--annotators",
              "@dev_annotators_clarity.csv", "--no-span-embedding")),
    ),
    "focus agreement": (
        Call(("--gold", "@focus_gold.csv", "--annotators", "@dev_annotators_clarity.csv",
              "--no-span-embedding")),
    ),
    "focus convert": (
        Call(("@focus_gold.csv", "@out.jsonl", "--annotators", "@dev_annotators_clarity.csv")),
        Call(("@focus_pred.csv", "@out.csv", "--role", "predictions", "--gold", "@focus_gold.csv")),
    ),
    "generate aura": (  # the passage JSON too: an input that can be named OUT.meta.json
        Call(("--document", "@aura_doc.md", *_LLM_AURA), model="llm"),
        Call(("--document", "@aura_passage.json", *_LLM_AURA), model="llm"),
    ),
    "generate compqa": (
        Call(("--questions", "@compqa_questions.jsonl", "--out-dir", "@outdir", "--scenario", "1",
              "--max-tokens", "32"), model="llm"),
    ),
    "generate cqs": (
        Call((*_CQS_GEN, "--generator", "template", "--schemes", "@cqs_schemes.jsonl",
              "--scheme-mapping", "@cqs_mapping.csv"), derived_argv=("--runs", "2")),
        Call(("--data", "@cqs_data.json", "--out", "@out.json", "--limit", "1",
              "--generator", "llm", "--strategy", "fewshot", "--strategy", "baseline",
              "--candidates", "2", "--shots-from", "@cqs_shots.json"), model="llm"),
    ),
    "generate focus": (
        Call(("--data", "@focus_gold.csv", "--out", "@out.jsonl")),
        Call(("--data", "@focus_gold.csv", "--out", "@out.jsonl", "--limit", "1",
              "--generator", "llm", "--strategy", "few-shot", "--shots-from",
              "@focus_shots.jsonl", "--shots", "1", "--max-tokens", "48"), model="llm"),
    ),
    "meta-eval aura": (Call(("--qgeval", "@aura_qgeval.json", *_AURA), model="embedding"),),
    "meta-eval aura-preferences": (
        Call(("@aura_prefs.jsonl", *_AURA), model="embedding", indirect=_LISTED),
    ),
    "meta-eval compqa": _HUMANS,
    "meta-eval compqa-humans": (Call(("@hum1.tsv", "@hum2.tsv")),),
    "meta-eval cqs": (
        Call(("--data", "@cqs_data.json", "--evaluator", "chrf", "--sweep", "--plot",
              "@plot.svg")),
        Call(("--data", "@cqs_data.json", "--outputs", "@cqs_outputs.json", "--evaluator",
              "chrf", "--curve", "--batch", "1", "--draws", "2", "--out", "@out.json")),
    ),
    "meta-eval cqs-compare": (
        Call(("--data", "@cqs_data.json", "@cqs_sub.json", "@cqs_sub2.json", "--evaluator",
              "chrf", "--evaluator", "sts", *_AURA, "--plot", "@plot.svg"), model="embedding"),
        Call(("--data", "@cqs_data.json", "--outputs", "@cqs_outputs.json", "--evaluator",
              "chrf", "--out", "@out.json")),
    ),
    "meta-eval focus-humans": (
        Call(("--gold", "@focus_gold.csv", "--annotators", "@dev_annotators_clarity.csv",
              "--no-span-embedding")),
    ),
    "report": (Call(("@results.json", "--out", "@out.html")),),
    "compare": (Call(("@results.json", "--out", "@out.json")),),
    "import inspect-log": (
        Call(("@inspect_run.eval", "--out", "@out.json", "--out-submission", "@sub.json")),
    ),
    "import lm-eval-samples": (Call(("@lm_eval_samples.jsonl", "--out", "@out.json")),),
    "train aura": (
        Call(("--qgeval", "@aura_qgeval.json", "--out-dir", "@scorer", *_AURA),
             model="embedding"),
    ),
    "train cqs": (
        Call(("--data", "@cqs_data.json", "--schemes", "@cqs_schemes.jsonl", "--scheme-mapping",
              "@cqs_mapping.csv", "--out-dir", "@scorer", "--examples", "templates", *_AURA),
             model="embedding"),
        Call(("--data", "@cqs_data.json", "--outputs", "@cqs_outputs.json", "--out-dir",
              "@scorer", *_AURA), model="embedding"),
    ),
    "train scorer": (  # a pass-through to `train TASK`: its options are not its own
        Call(("--task", "cqs", "--data", "@cqs_data.json", "--out-dir", "@scorer", *_AURA),
             model="embedding", extra_slots=("--data",)),
    ),
}
# fmt: on

EXEMPT: dict[str, str] = {
    "serve": "starts a web server that runs until stopped",
    "serve-llm": "starts a language-model server that runs until stopped",
    "cqs replay": "starts a model server that runs until stopped (its inputs: test_replay.py)",
    "setup-llm": "installs packages with pip (network)",
    "demo": "takes no input file (only --out-dir); runs every task end to end",
}
