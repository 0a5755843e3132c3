"""``maieutic demo``: the main job on the embedded defaults, with no network.

It generates critical questions for the bundled sample dataset with the model-free
claims generator, then evaluates that submission and the bundled sample submission
against the sample references with the embedded embedding model, shows some of the
generated questions with the labels they received, and explains every column. Then it
finds weakness types, spans and Socratic questions (FOCUS) for the bundled sample
arguments with the model-free cue generator, and scores two bundled comparative
answers (CompQA) with the offline rubric rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from maieutic.paths import maieutic_home

if TYPE_CHECKING:
    from rich.table import Table

SHOWN_INTERVENTIONS = 3


def questions_table(records: list[dict], limit: int) -> Table:
    """Some generated questions beside the label each received and why."""
    from rich.table import Table

    from maieutic.report.tables import fmt

    table = Table(title="generated questions and their labels", title_justify="left")
    table.add_column("intervention", no_wrap=True)
    table.add_column("question", overflow="fold")
    table.add_column("label")
    table.add_column("similarity", justify="right")
    for record in records[:limit]:
        questions = record["cqs"] if isinstance(record["cqs"], list) else []
        for n, q in enumerate(questions):
            table.add_row(
                record["intervention_id"] if n == 0 else "",
                q["cq"],
                q["label"],
                fmt(q["similarity"], "{:.3f}"),
            )
    return table


def socratic_table(path: Path) -> Table:
    """Each sample argument's weakness types, spans and questions."""
    from rich.table import Table

    from maieutic.tasks.focus.data import load_predictions
    from maieutic.tasks.focus.typology import typology

    table = Table(title="weakness types, spans and Socratic questions", title_justify="left")
    for header in ("argument", "type", "span", "question"):
        table.add_column(header, overflow="fold")
    for item in load_predictions(path).items.values():
        for n, label in enumerate(item.labels):
            table.add_row(
                item.id if n == 0 else "",
                typology().name(label.type),
                label.text,
                label.question or "— (no well-formed wording for this span)",
            )
    return table


def rubric_table(path: Path) -> Table:
    """The criteria the rules decided for each bundled comparative answer."""
    from rich.table import Table

    from maieutic.evaluate.results_file import load_results
    from maieutic.report.tables import fmt

    [result] = load_results(path)
    table = Table(title="comparative answers: criteria the rules decide", title_justify="left")
    table.add_column("question", overflow="fold")
    decided = sorted({int(c) for r in result.records() for c in r["score_dict"]})
    for criterion in decided:
        table.add_column(f"C{criterion}", justify="right")
    for record in result.records():
        aspect = f" {record['aspect']}" if record["aspect"] else ""
        question = f"{record['object1']} or {record['object2']}{aspect}"
        scores = record["score_dict"]
        table.add_row(question, *(fmt(scores.get(str(c)), "{:g}") for c in decided))
    return table


@click.command()
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where to write the generated submission and results (default: MAIEUTIC_HOME/demo).",
)
@click.pass_context
def demo(ctx: click.Context, out_dir: str | None) -> None:
    """Generate questions for the bundled sample texts, then evaluate them."""
    from maieutic.cli._common import console_for
    from maieutic.evaluate.results_file import load_results
    from maieutic.report.tables import legend
    from maieutic.samples import sample_path
    from maieutic.tasks import get_task
    from maieutic.tasks.compqa.cli.evaluate import evaluate_compqa
    from maieutic.tasks.cqs.cli.evaluate import evaluate_cqs
    from maieutic.tasks.cqs.cli.generate import generate_cqs
    from maieutic.tasks.focus.cli.generate import generate_focus

    directory = Path(out_dir) if out_dir else maieutic_home() / "demo"
    dataset = str(sample_path("cqs/sample_dataset.json"))
    generated = directory / "claims_generator.json"
    results_path = directory / "results.json"
    ctx.invoke(generate_cqs, data_path=dataset, out_path=str(generated))
    ctx.invoke(
        evaluate_cqs,
        data_path=dataset,
        submissions=(str(generated), str(sample_path("cqs/sample_submission.json"))),
        out_path=str(results_path),
    )
    console = console_for(None)
    [mine] = [r for r in load_results(results_path) if r.submission == generated.stem]
    console.print(questions_table(mine.records(), SHOWN_INTERVENTIONS))
    console.print(
        "label: the label of the most similar reference question when the cosine "
        "similarity is above the threshold, else not_able_to_evaluate",
        highlight=False,
    )
    for line in legend(get_task("cqs")):
        console.print(line, highlight=False)
    socratic = directory / "focus_cues.jsonl"
    ctx.invoke(
        generate_focus,
        data_path=str(sample_path("focus/sample_arguments.jsonl")),
        out_path=str(socratic),
    )
    console.print(socratic_table(socratic))
    rubric = directory / "compqa_rules.json"
    ctx.invoke(
        evaluate_compqa, answers=(str(sample_path("compqa/shots.json")),), out_path=str(rubric)
    )
    console.print(rubric_table(rubric))
    console.print(
        "C1-C7 structure, C13 no repetition, C15 length; the other criteria need a "
        "judge: maieutic evaluate compqa --evaluator rules+llm",
        highlight=False,
    )
    click.echo(f"submissions and full results in {directory}", err=True)
