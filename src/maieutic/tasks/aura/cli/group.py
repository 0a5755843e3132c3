"""``maieutic evaluate aura`` and ``maieutic aura compare``: question sets scored
against their document alone."""

from __future__ import annotations

import click

from maieutic.cli.components import component_options
from maieutic.cli.option_types import number
from maieutic.cli.options import (
    component_option,
    embedding_options,
    engine_arguments,
    engine_options,
    out_option,
    stack,
    strict_option_for,
)
from maieutic.cli.outputs import refuse_overwriting_inputs, write_record
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.core.task import get_task
from maieutic.data.flags import refuse_flags
from maieutic.errors import DataError
from maieutic.evaluate.result import unique_names
from maieutic.report.tables import print_results
from maieutic.run.evaluation import evaluate
from maieutic.tasks.aura.compare import compare_table, preference
from maieutic.tasks.aura.evaluate import METRICS, QuestionSet
from maieutic.tasks.aura.records import AuraCompare

_AURA_OPTIONS = [
    component_option(
        "evaluator",
        task="aura",
        default="aura",
        help="aura: offline, reranked by bi-encoder cosine; aura-cross: reranked by a "
        "cross-encoder's logits (the paper).",
    ),
    click.option(
        "--threshold",
        type=number(),
        help="Answerability threshold on the reranker's scale (aura: cosine, default "
        "0.5; aura-cross: logit, default 2.5).",
    ),
    click.option(
        "--threshold-rule",
        type=click.Choice(["gt", "ge"]),
        default="gt",
        show_default=True,
        help="gt: a score must exceed the threshold (the paper); ge: reach it (the "
        "reference code, with --threshold 0).",
    ),
    click.option(
        "--cross-encoder",
        help="Cross-encoder for aura-cross (a sentence-transformers name or local "
        "directory; default cross-encoder/ms-marco-MiniLM-L-6-v2).",
    ),
    click.option(
        "--answerability",
        metavar="similarity|scorer:DIR",
        help="Who decides that a question is answerable: similarity (the threshold "
        "above, default) or scorer:DIR (a scorer from maieutic train aura, "
        "with its stored threshold; retrieval is unchanged).",
    ),
    click.option(
        "--top-k",
        type=click.IntRange(1, 100),
        default=5,
        show_default=True,
        help="Units retrieved per question before reranking.",
    ),
    click.option(
        "--link-threshold",
        type=number(-1, max=1),
        default=0.85,
        show_default=True,
        help="Cosine at which a window's sentence links it to a necessary unit.",
    ),
    click.option(
        "--entropy",
        type=click.Choice(["paper", "observed"]),
        default="paper",
        show_default=True,
        help="paper: all questions, |C| = every template class; observed: answerable "
        "questions, |C| = classes seen (the reference code; the one that reaches the "
        "paper's Table 2 magnitudes).",
    ),
    click.option(
        "--non-redundancy",
        type=click.Choice(["paper", "answerable"]),
        default="paper",
        show_default=True,
        help="paper: 1 − redundant/all questions (section 4.3.3); answerable: 1 − "
        "redundant/answerable questions (the reference code, and this tool before "
        "the option). Recorded in the signature as nrs.",
    ),
]


def aura_options(func):
    """The options of the AURA evaluators (and the embedding model's)."""
    return embedding_options(stack(_AURA_OPTIONS)(func))


def qgeval_option(help: str, *, required: bool = True):
    """``--qgeval FILE``: QGEval-style instances (``help`` says what this command
    takes from them)."""
    return click.option(
        "--qgeval", "qgeval_path", required=required, type=click.Path(dir_okay=False), help=help
    )


def load_sets(task, document, paths: tuple[str, ...], *, strict: bool) -> list[QuestionSet]:
    """The question sets: the files given, else those inside the document's JSON."""
    if paths:
        sets = [task.load_submission(p) for p in paths]
    elif document.question_sets:
        sets = [
            QuestionSet(questions=qs, source=document.source, name=name)
            for name, qs in document.question_sets.items()
        ]
    else:
        raise DataError("no question sets: give SETS, or a JSON document with question lists")
    for question_set in sets:
        echo_flags(question_set)
        if strict:
            refuse_flags(question_set.flags)
    for question_set, name in zip(
        sets, unique_names([s.name for s in sets], sources=[s.source for s in sets]), strict=True
    ):
        question_set.name = name
    return sets


def echo_flags(question_set: QuestionSet) -> None:
    """What a question set holds that is scored but worth a warning."""
    echo_warnings(question_set.name, [f.short for f in question_set.flags])


@click.command("aura")
@click.argument("document", type=click.Path(dir_okay=False))
@click.argument("sets", nargs=-1, type=click.Path(dir_okay=False))
@aura_options
@out_option
@strict_option_for("a line of a question set that is not a question")
@engine_options
@click.pass_context
def evaluate_aura(ctx, document, sets, *, evaluator, out_path, strict, **options):
    """Score question SETS (JSON lists or one question per line) against DOCUMENT
    (Markdown, text, PDF, or a JSON with "passage" and question lists)."""
    refuse_overwriting_inputs(out_path, [document, *sets])
    engine = engine_arguments(options)
    args = component_options(ctx, "evaluator", task="aura", name=evaluator, options=options)
    run = evaluate(
        "aura",
        document,
        submissions=list(sets),
        evaluator=evaluator,
        strict=strict,
        out=out_path,
        on_loaded=echo_flags,
        provenance=ctx.params,
        **engine,
        **args,
    )
    print_results(get_task("aura"), run.results, console_for(out_path), out=out_path)


@click.group()
def aura() -> None:
    """AURA tools: compare two question sets on one document; sweep a threshold."""


@aura.command("compare")
@click.argument("document", type=click.Path(dir_okay=False))
@click.argument("sets", nargs=-1, type=click.Path(dir_okay=False))
@aura_options
@out_option
@click.pass_context
def compare(ctx, document, sets, *, evaluator, out_path, **options):
    """Which of two question sets on DOCUMENT is better, per metric and overall (the
    majority of the four metrics, and their mean)."""
    doc = get_task("aura").load_reference(document)
    given = len(sets) or len(doc.question_sets)
    if given and given != 2:
        raise click.UsageError(f"compare needs exactly two question sets, got {given}")
    args = component_options(ctx, "evaluator", task="aura", name=evaluator, options=options)
    scored = evaluate(
        "aura", doc, submissions=list(sets), evaluator=evaluator, on_loaded=echo_flags, **args
    )
    first, second = scored.results
    verdict = preference(first, second=second)
    console_for(out_path).print(compare_table(first, second=second, verdict=verdict))
    write_record(
        out_path,
        AuraCompare,
        ctx=ctx,
        sets=[first, second],
        preference=verdict,
        metrics=list(METRICS),
    )
    click.echo(f"preferred: {verdict['majority_name'] or 'tie'} (majority of metrics)", err=True)


__all__ = ["aura", "evaluate_aura"]
