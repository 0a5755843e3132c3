"""``maieutic train TASK``: what the tasks' training commands share (the options of a
learned scorer, the run and its report), and ``train scorer --task TASK``, the old
spelling of ``train TASK``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from rich.table import Table

from maieutic.cli.printing import console_for
from maieutic.report.tables import fmt


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
    outputs = report.get("system_outputs")
    if outputs:
        rows += [
            ("systems' outputs: κ (positive vs rest)", _figure(outputs["kappa"])),
            ("systems' outputs: ROC AUC", _figure(outputs["auc"])),
            (
                "systems' outputs: positive rate of the top 3 per text",
                _figure(outputs["top3_positive_rate"]),
            ),
            (
                "systems' outputs: pairs / texts / positive rate",
                f"{outputs['n']} / {outputs['n_groups']} / {outputs['positive_rate']:.3f}",
            ),
        ]
    for name, value in rows:
        if value != "—" or name != "κ (three classes)":
            table.add_row(name, value)
    return table


def scorer_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Where the scorer goes, its regularisation and seed, the embedding model; and
    ``--out``, the old spelling of ``--out-dir``."""
    from maieutic.cli.option_types import number
    from maieutic.cli.options import deprecated_alias, embedding_options, seed_option, stack

    return stack(
        [
            click.option(
                "--out-dir",
                "out_dir",
                type=click.Path(file_okay=False),
                help="Directory to write the scorer to (manifest.json, model.npz).  [required]",
            ),
            deprecated_alias(
                "--out",
                new="--out-dir",
                dest="out_dir",
                required=True,
                type=click.Path(file_okay=False),
            ),
            click.option(
                "--c",
                "c",
                type=number(min=0, min_open=True),
                help="Inverse regularisation strength of the logistic regression (default: "
                "0.3 with the n-gram features of critical questions, 0.001 otherwise).",
            ),
            seed_option("Folds and model seed."),
            embedding_options,
        ]
    )(func)


OUT_DIR_OPTIONS = ("--out-dir", "--out")


def _command_line() -> str:
    """The command as typed, from ``maieutic`` on (how to train the scorer again), with
    the output folder written ``DIR``: where a scorer was saved is no part of how it was
    made, so the same training gives the same manifest in any folder (a run killed and
    rerun elsewhere included)."""
    import shlex
    import sys

    words, given = [], iter(sys.argv[1:])
    for word in given:
        name = word.split("=", 1)[0]
        if name in OUT_DIR_OPTIONS and "=" in word:
            word = f"{name}=DIR"
        words.append(word)
        if word in OUT_DIR_OPTIONS and next(given, None) is not None:
            words.append("DIR")
    return shlex.join(["maieutic", *words])


def train_scorer(task: str, path: str | list[str], options: dict[str, Any], **kind: Any) -> None:
    """Learn task ``task``'s scorer from ``path``, print its grouped cross-validation
    figures, fit on all the data and save it to ``options["out_dir"]`` (``kind``: what
    it learns from, passed on to ``train_from_file``)."""
    from maieutic.data import guard
    from maieutic.embed.encoder import Encoder
    from maieutic.scorers.model import saved_files
    from maieutic.scorers.training_run import train_from_file

    # before the training: an input the scorer's files would replace is refused at once
    guard.check_outputs(saved_files(options["out_dir"]), "--out-dir")

    encoder = Encoder(
        options["embedding_model"],
        backend=options["embedding_backend"],
        batch_size=options["batch_size"],
    )
    trained = train_from_file(
        task,
        path,
        encoder,
        c=options["c"],
        seed=options["seed"],
        cache=not options["no_cache"],
        **kind,
    )
    trained.scorer.manifest["recipe"] = {"command": _command_line()}
    directory = trained.scorer.save(options["out_dir"])
    learned = f" ({kind['kind']})" if "kind" in kind else ""
    title = f"{task} scorer{learned}: grouped {trained.report['folds']}-fold cross-validation"
    console_for(None).print(figures_table(trained.report, title))
    click.echo(f"wrote {directory} (threshold {trained.scorer.threshold:.3f})", err=True)


@click.command(
    "scorer",
    hidden=True,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.option("--task", required=True, help="Deprecated: the task, now `maieutic train TASK`.")
@click.pass_context
def scorer(ctx: click.Context, task: str) -> None:
    """Deprecated: ``maieutic train scorer --task TASK …`` is ``maieutic train TASK …``."""
    group = ctx.parent.command if ctx.parent else None
    command = group.get_command(ctx.parent, task) if isinstance(group, click.Group) else None
    if command is None or command is scorer:
        raise click.UsageError(f"no task {task!r} trains a scorer")
    click.echo(
        f"warning: `train scorer --task {task}` is deprecated: use `maieutic train {task}`",
        err=True,
    )
    with command.make_context(task, list(ctx.args), parent=ctx.parent) as sub:
        command.invoke(sub)
