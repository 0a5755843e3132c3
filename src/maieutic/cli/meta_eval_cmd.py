"""``maieutic meta-eval``: measure evaluators against human judgements."""

from __future__ import annotations

import itertools
import time

import click
from rich.console import Console
from rich.table import Table

from maieutic._version import __version__
from maieutic.cli._common import write_json_atomic
from maieutic.cli._evaluators import (
    EVALUATORS,
    build_matcher,
    evaluator_options,
    fail_on_judge_errors,
)
from maieutic.cli.evaluate_cmd import check_threshold
from maieutic.data.cqs import load_cq_dataset, load_submission
from maieutic.signature import Signature
from maieutic.stats import UndefinedStatistic, cohen_kappa, pearson, spearman
from maieutic.tasks.compqa.human_agreement import agreement_table, load_pairs
from maieutic.tasks.cqs.evaluate import evaluate_submissions
from maieutic.tasks.cqs.meta_eval import (
    PREDICTED_LABELS,
    agreement_report,
    choose_threshold,
    default_thresholds,
    leave_one_out,
    sweep_thresholds,
)


@click.group("meta-eval")
def meta_eval() -> None:
    """Measure how well evaluators agree with people (and with each other)."""


def _fmt(value, digits: int = 3) -> str:
    if value is None:
        return "undefined"
    if isinstance(value, str):
        return value
    return f"{value:.{digits}f}"


@meta_eval.command("cqs")
@click.option(
    "--data",
    "data_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Labelled dataset: every reference is evaluated against the others.",
)
@click.option("--evaluator", type=click.Choice(EVALUATORS), default="sts", show_default=True)
@evaluator_options
@click.option("--sweep", is_flag=True, help="Kappa and NAE rate for thresholds 0.4–0.9.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="With --sweep: write the sweep as a PNG plot here.",
)
@click.option("--sample", type=click.IntRange(1), help="Evaluate a seeded sample of N references.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="Full results as JSON.")
def meta_eval_cqs(
    data_path: str,
    evaluator: str,
    threshold: float | None,
    sweep: bool,
    plot_path: str | None,
    sample: int | None,
    seed: int,
    out_path: str | None,
    **settings,
) -> None:
    """Leave-one-out agreement of an evaluator with the human labels of --data."""
    check_threshold(evaluator, threshold)
    if sweep and evaluator not in ("sts", "chrf"):
        raise click.UsageError("--sweep applies to the similarity evaluators (sts, chrf)")
    dataset = load_cq_dataset(data_path)
    matcher = build_matcher(evaluator, settings)
    threshold = matcher.default_threshold if threshold is None else threshold
    start = time.perf_counter()
    items = leave_one_out(dataset, matcher, threshold, sample=sample, seed=seed)
    seconds = time.perf_counter() - start
    report = agreement_report([i.human for i in items], [i.predicted for i in items])
    fields = dict(matcher.signature_fields())
    signature = Signature(
        task="cqs-meta-eval",
        evaluator=evaluator,
        dataset=dataset.fingerprint(),
        n_references=dataset.n_references,
        model=fields.pop("model", None),
        backend=fields.pop("backend", None),
        threshold=threshold if getattr(matcher, "uses_threshold", True) else None,
        seed=seed if sample else None,
        extra={**fields, **({"sample": sample} if sample else {})},
    )
    click.echo(
        f"{evaluator}: n={report['n']} kappa(NAE kept)={_fmt(report['kappa_nae_kept'])} "
        f"kappa(NAE dropped)={_fmt(report['kappa_nae_dropped'])} "
        f"NAE={100 * report['nae_rate']:.1f}% time={seconds:.1f}s"
    )
    console = Console(soft_wrap=True)
    table = Table(title="confusion (rows: human, columns: evaluator)", title_justify="left")
    table.add_column("human")
    for label in PREDICTED_LABELS:
        table.add_column(label, justify="right")
    for human, row in report["confusion"].items():
        table.add_row(human, *(str(row[p]) for p in PREDICTED_LABELS))
    console.print(table)
    payload = {
        "format": "maieutic.cqs.meta-eval/1",
        "maieutic_version": __version__,
        "signature": signature.as_dict(),
        "signature_string": str(signature),
        "report": report,
        "seconds": seconds,
        "items": [i.__dict__ for i in items],
    }
    if sweep:
        rows = sweep_thresholds(items, default_thresholds(evaluator))
        chosen = choose_threshold(rows)
        sweep_table = Table(title="threshold sweep", title_justify="left")
        for name in ("threshold", "κ NAE kept", "κ NAE dropped", "NAE %", ""):
            sweep_table.add_column(name, justify="right")
        for r in rows:
            mark = "← chosen" if r["threshold"] == chosen["threshold"] else ""
            sweep_table.add_row(
                f"{r['threshold']:g}",
                _fmt(r["kappa_nae_kept"]),
                _fmt(r["kappa_nae_dropped"]),
                f"{100 * r['nae_rate']:.1f}",
                mark,
            )
        console.print(sweep_table)
        click.echo(
            f"chosen threshold: {chosen['threshold']:g} (largest κ(NAE dropped) × "
            f"(1 − NAE rate) = {chosen['balance']:.3f})"
        )
        payload["sweep"] = {"rows": rows, "chosen": chosen}
        if plot_path:
            from maieutic.report.plots import sweep_plot

            sweep_plot(
                rows,
                chosen["threshold"],
                plot_path,
                f"{evaluator}: leave-one-out agreement by threshold",
            )
            click.echo(f"plot: {plot_path}", err=True)
    click.echo(f"signature: {signature}")
    if out_path:
        write_json_atomic(out_path, payload)
    fail_on_judge_errors(matcher)


@meta_eval.command("cqs-compare")
@click.option("--data", "data_path", required=True, type=click.Path(dir_okay=False))
@click.option(
    "--evaluator",
    "evaluators",
    multiple=True,
    required=True,
    type=click.Choice(EVALUATORS),
    help="Repeat: two or more evaluators.",
)
@click.argument("submissions", nargs=-1, required=True, type=click.Path(dir_okay=False))
@evaluator_options
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Write the kappa heatmap as a PNG here.",
)
@click.option("--out", "out_path", type=click.Path(dir_okay=False))
def meta_eval_compare(
    data_path: str,
    evaluators: tuple[str, ...],
    submissions: tuple[str, ...],
    threshold: float | None,
    plot_path: str | None,
    out_path: str | None,
    **settings,
) -> None:
    """Kappa between evaluators over the questions of SUBMISSIONS, and the correlation of
    the system rankings they produce (Pearson and Spearman over submissions)."""
    if len(set(evaluators)) < 2:
        raise click.UsageError("give at least two different --evaluator")
    dataset = load_cq_dataset(data_path)
    loaded = [load_submission(p) for p in submissions]
    labels: dict[str, list[str]] = {}
    overall: dict[str, list[float]] = {}
    for name in dict.fromkeys(evaluators):
        matcher = build_matcher(name, settings)
        results = evaluate_submissions(
            dataset,
            loaded,
            matcher,
            threshold=threshold if name in ("sts", "chrf") else None,
            skip_unknown=True,
        )
        labels[name] = [
            q.label for r in results for i in r.interventions for q in i.questions or []
        ]
        overall[name] = [r.overall for r in results]
    names = list(labels)
    kappas = [[_kappa_or_none(labels[a], labels[b]) for b in names] for a in names]
    table = Table(title="Cohen's κ between evaluators (NAE kept as a class)", title_justify="left")
    table.add_column("")
    for n in names:
        table.add_column(n, justify="right")
    for n, row in zip(names, kappas, strict=True):
        table.add_row(n, *(_fmt(v) for v in row))
    console = Console(soft_wrap=True)
    console.print(table)
    rankings = []
    for a, b in itertools.combinations(names, 2):
        entry = {"a": a, "b": b}
        for key, fn in (("pearson", pearson), ("spearman", spearman)):
            try:
                entry[key] = fn(overall[a], overall[b]).r
            except UndefinedStatistic as exc:
                entry[key] = str(exc)
        rankings.append(entry)
        click.echo(
            f"ranking correlation {a} vs {b} over {len(loaded)} submissions: "
            f"pearson={_fmt(entry['pearson'])} spearman={_fmt(entry['spearman'])}"
        )
    if plot_path:
        from maieutic.report.plots import heatmap

        heatmap(names, kappas, plot_path, "Cohen's κ between evaluators")
    if out_path:
        write_json_atomic(
            out_path,
            {
                "format": "maieutic.cqs.compare/1",
                "evaluators": names,
                "kappa": kappas,
                "overall": overall,
                "submissions": [s.name for s in loaded],
                "rankings": rankings,
            },
        )


def _kappa_or_none(a: list[str], b: list[str]) -> float | None:
    try:
        return cohen_kappa(a, b)
    except UndefinedStatistic:
        return None


@meta_eval.command("compqa-humans")
@click.argument("first", type=click.Path(dir_okay=False))
@click.argument("second", type=click.Path(dir_okay=False))
@click.option("--out", "out_path", type=click.Path(dir_okay=False))
def compqa_humans(first: str, second: str, out_path: str | None) -> None:
    """Agreement of two annotators' CompQA scores (per criterion, pooled, and total)."""
    pairs = load_pairs(first, second)
    rows = agreement_table(pairs)
    table = Table(
        title=f"CompQA human agreement ({len(pairs)} answers scored by both)", title_justify="left"
    )
    for name in ("criterion", "n", "α interval", "α ordinal", "Spearman ρ"):
        table.add_column(name, justify="right")
    for r in rows:
        table.add_row(
            r["column"],
            str(r["n"]),
            _fmt(r["alpha_interval"]),
            _fmt(r["alpha_ordinal"]),
            _fmt(r["spearman"]),
        )
    Console(soft_wrap=True).print(table)
    if out_path:
        write_json_atomic(
            out_path,
            {"format": "maieutic.compqa.human-agreement/1", "n_pairs": len(pairs), "rows": rows},
        )
