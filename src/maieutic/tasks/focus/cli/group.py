"""``maieutic focus``: FOCUS data tools (format conversion), and ``meta-eval focus-humans``
(agreement among annotators)."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.cli.options import out_option
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.core.task import get_task
from maieutic.data.files import write_json
from maieutic.errors import DataError
from maieutic.provenance import provenance
from maieutic.tasks.focus.annotators import attach_annotators
from maieutic.tasks.focus.cli.evaluate import (
    annotators_option,
    gold_option,
    load_gold_with_annotators,
)
from maieutic.tasks.focus.data import ROLES, load_focus
from maieutic.tasks.focus.records import FocusAgreement
from maieutic.tasks.focus.write import write_focus


@click.group()
def focus() -> None:
    """FOCUS data tools: convert between layouts (agreement among annotators: maieutic
    meta-eval focus-humans)."""


@focus.command("convert")
@click.argument("source", type=click.Path(dir_okay=False))
@click.argument("target", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--role",
    type=click.Choice(ROLES),
    default="gold",
    show_default=True,
    help="Which labels of a released CSV to read and write: the gold columns or the "
    "Predicted_* columns.",
)
@annotators_option
@click.option(
    "--gold",
    "gold_path",
    type=click.Path(dir_okay=False, exists=True),
    help="With --role predictions and a CSV TARGET: gold data whose columns are written "
    "beside the predictions (the released layout).",
)
def convert(source, target, role, *, annotators, gold_path) -> None:
    """Convert SOURCE to TARGET: a .csv TARGET gets the released layout (annotators'
    labels go to TARGET_annotators_<category>.csv beside it), anything else maieutic's
    JSONL (annotators' labels included).
    """
    if annotators and role != "gold":
        raise click.UsageError("--annotators applies to --role gold")
    if gold_path and role != "predictions":
        raise click.UsageError("--gold applies to --role predictions")
    data = load_focus(source, role)
    if annotators:
        data = attach_annotators(data, annotators)
    echo_warnings(Path(source).name, [*data.warnings, *(f.short for f in data.flags)])
    gold = load_focus(gold_path, "gold") if gold_path else None
    if Path(source).resolve() == Path(target).resolve():
        raise click.UsageError("TARGET is SOURCE")
    written = write_focus(data, target, predictions=role == "predictions", gold=gold)
    for path in written:
        if str(path) != "-":
            click.echo(f"wrote {path}", err=True)


@click.command("focus-humans")
@gold_option("Gold data the annotator files join to (released CSV or JSONL with annotators).")
@annotators_option
@click.option(
    "--span-embedding/--no-span-embedding",
    default=True,
    show_default=True,
    help="Also compare spans with the BERTScore-style embedding score (loads the model).",
)
@out_option
def focus_humans(gold_path, annotators, span_embedding, *, out_path) -> None:
    """How well FOCUS annotators agree with each other, per type: observed agreement,
    Fleiss' kappa, PABAK, Gwet's AC1, Krippendorff's alpha, applicability, pairwise
    agreement and Cohen's kappa, span similarity between annotators (Jaccard, BiJaccard,
    edit, ROUGE-L), and both types of a category together."""
    from maieutic.tasks.focus.annotation_agreement import (
        agreement_signature,
        category_agreement,
        type_agreement,
    )

    gold = load_gold_with_annotators(get_task("focus"), gold_path, annotators)
    items = list(gold.items.values())
    if not any(item.annotations for item in items):
        raise DataError(
            "no annotator labels: give --annotators (or a JSONL with annotators)", where=gold_path
        )
    similarity = None
    if span_embedding:
        from maieutic.tasks.focus.span_metrics import TokenEmbeddingSimilarity

        similarity = TokenEmbeddingSimilarity()
    report = {k: v.to_json() for k, v in type_agreement(items, embedding=similarity).items()}
    categories = {k: v.to_json() for k, v in category_agreement(items).items()}
    judged = sum(bool(i.annotations) or i.category in categories for i in items)
    signature = agreement_signature(gold.fingerprint(), judged, similarity)
    if out_path:
        record = FocusAgreement(
            gold=gold_path,
            dataset=gold.fingerprint(),
            provenance=provenance({}),
            types=report,
            categories=categories,
            signature=signature.as_dict(),
            signature_string=str(signature),
        )
        write_json(out_path, record.to_json())
    _print_agreement(console_for(out_path), report, categories=categories, signature=signature)


def _print_agreement(console, report: dict, *, categories: dict, signature) -> None:
    from maieutic.tasks.focus import tables

    console.print(tables.agreement_table(report))
    console.print(tables.label_statistics_table(report))
    console.print(tables.category_table(categories))
    console.print(tables.pairwise_table(report))
    console.print(tables.span_similarity_table(report))
    console.print(f"signature: {signature}", highlight=False)
