"""``maieutic train scorer``: learn a reference-free scorer from people's labels."""

from __future__ import annotations

import click
from rich.table import Table

from maieutic.cli._common import console_for
from maieutic.cli._options import embedding_options, scheme_file_options
from maieutic.report.tables import fmt


@click.group()
def train() -> None:
    """Train learned components from labelled data."""


def _figure(value: dict | None) -> str:
    if not value or value.get("value") is None:
        return "—"
    return f"{value['value']:.3f} [{value['low']:.3f}, {value['high']:.3f}]"


def figures_table(report: dict, title: str) -> Table:
    """The grouped cross-validation figures with their bootstrap intervals."""
    table = Table(title=title, title_justify="left")
    table.add_column("figure")
    table.add_column("value [95% interval over texts]", justify="right")
    rows = [
        ("κ (positive vs rest)", _figure(report["kappa"])),
        ("κ (three classes)", _figure(report.get("kappa_3class"))),
        ("ROC AUC", _figure(report["auc"])),
        ("Spearman (label or rating)", _figure(report["spearman"])),
        ("pairs / texts", f"{report['n']} / {report['n_groups']}"),
        ("positive rate", fmt(report["positive_rate"], "{:.3f}")),
    ]
    for name, value in rows:
        if value != "—" or name != "κ (three classes)":
            table.add_row(name, value)
    return table


def _data_options(func):
    """What the scorer learns from."""
    options = [
        click.option(
            "--task",
            type=click.Choice(["cqs", "aura"]),
            required=True,
            help="cqs: P(Useful | intervention, question); aura: P(answerable | passage, "
            "question).",
        ),
        click.option(
            "--data",
            "data_path",
            type=click.Path(dir_okay=False),
            help="Labelled critical questions (the benchmark's layout) for --task cqs.",
        ),
        click.option(
            "--qgeval",
            "qgeval_path",
            type=click.Path(dir_okay=False),
            help="QGEval-style answerability ratings (instances JSON) for --task aura.",
        ),
        click.option(
            "--examples",
            type=click.Choice(["references", "templates"]),
            default="references",
            show_default=True,
            help="cqs: learn from the labelled reference questions (a usefulness judge), "
            "or from the template generator's candidates labelled by the reference each "
            "matches (a selector for generate cqs --generator template).",
        ),
        *scheme_file_options("whose candidates join the built-in ones (--examples templates)"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@train.command("scorer")
@_data_options
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Directory to write the scorer to (manifest.json, model.npz).",
)
@click.option(
    "--c",
    "c",
    type=click.FloatRange(min=0, min_open=True),
    help="Inverse regularisation strength of the logistic regression (default: 0.3 with "
    "the n-gram features of cqs, 0.001 otherwise).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Folds and model seed.")
@embedding_options
def train_scorer(
    task, data_path, qgeval_path, examples, schemes, scheme_mapping, out_dir, c, seed, **embedding
) -> None:
    """Learn a scorer, report its grouped cross-validation figures (no text on both
    sides of a fold), then fit on all the data and save it."""
    from maieutic.embed.encoder import Encoder
    from maieutic.scorers.training_run import train_from_file

    path = data_path if task == "cqs" else qgeval_path
    if path is None or (data_path and qgeval_path):
        raise click.UsageError("give --data for --task cqs, or --qgeval for --task aura")
    if examples == "templates" and task != "cqs":
        raise click.UsageError("--examples templates is for --task cqs")
    if (schemes or scheme_mapping) and examples != "templates":
        raise click.UsageError("--schemes and --scheme-mapping go with --examples templates")
    encoder = Encoder(
        embedding["embedding_model"],
        backend=embedding["embedding_backend"],
        batch_size=embedding["batch_size"],
    )
    trained = train_from_file(
        task, path, encoder, c=c, seed=seed, cache=not embedding["no_cache"], kind=examples,
        schemes=schemes, scheme_mapping=scheme_mapping,
    )  # fmt: skip
    directory = trained.scorer.save(out_dir)
    title = f"{task} scorer ({examples}): grouped {trained.report['folds']}-fold cross-validation"
    console_for(None).print(figures_table(trained.report, title))
    click.echo(f"wrote {directory} (threshold {trained.scorer.threshold:.3f})", err=True)
