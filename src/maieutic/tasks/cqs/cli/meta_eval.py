"""``maieutic meta-eval cqs`` (an evaluator against the human labels, leave one out)
and ``maieutic meta-eval cqs-compare`` (evaluators against each other)."""

from __future__ import annotations

import time
from pathlib import Path

import click
from rich.table import Table

from maieutic.cli._common import (
    build,
    console_for,
    echo_warnings,
    fail_on_call_failures,
)
from maieutic.cli._options import (
    EvaluatorName,
    embedding_options,
    llm_options,
    out_option,
    plot_option,
    refuse_options_none_take,
    split_evaluator,
    stack,
)
from maieutic.data.files import write_json
from maieutic.evaluate.sweep import choose_threshold
from maieutic.provenance import provenance
from maieutic.registry import entry
from maieutic.report.tables import fmt
from maieutic.run.hooks import task_io
from maieutic.run.inputs import load_submissions
from maieutic.tasks import get_task
from maieutic.tasks.cqs.cli.options import apply_preset, preset_option, unscored_option
from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs
from maieutic.tasks.cqs.meta_eval import (
    PREDICTED_LABELS,
    compare,
    leave_one_out,
    meta_signature,
    report,
    sweep,
)
from maieutic.tasks.cqs.records import CqsCompare, CqsMetaEval


def _confusion_table(result: dict) -> Table:
    table = Table(title="confusion (rows: human, columns: evaluator)", title_justify="left")
    table.add_column("human")
    for label in PREDICTED_LABELS:
        table.add_column(label, justify="right")
    for human, row in result["confusion"].items():
        table.add_row(human, *(str(row[p]) for p in PREDICTED_LABELS))
    return table


def _sweep_table(rows: list[dict], chosen: dict) -> Table:
    table = Table(title="threshold sweep", title_justify="left")
    for name in ("threshold", "κ NAE kept", "κ NAE dropped", "NAE %", ""):
        table.add_column(name, justify="right")
    for r in rows:
        table.add_row(
            f"{r['threshold']:g}",
            fmt(r["kappa_nae_kept"], "{:.3f}"),
            fmt(r["kappa_nae_dropped"], "{:.3f}"),
            f"{100 * r['nae_rate']:.1f}",
            "← chosen" if r["threshold"] == chosen["threshold"] else "",
        )
    return table


def _headline(evaluator: str, result: dict, seconds: float, on_outputs: bool = False) -> str:
    what = "system outputs vs people" if on_outputs else "references left out in turn"
    return (
        f"{evaluator} ({what}): n={result['n']} "
        f"kappa(NAE kept)={fmt(result['kappa_nae_kept'], '{:.3f}')} "
        f"kappa(NAE dropped)={fmt(result['kappa_nae_dropped'], '{:.3f}')} "
        f"NAE={fmt(result['nae_rate'], '{:.1%}')} unscored={result['n_unscored']} "
        f"time={seconds:.1f}s"
    )


def _run_sweep(console, items, thresholds) -> dict:
    rows = sweep(items, thresholds)
    chosen = choose_threshold(rows)
    console.print(_sweep_table(rows, chosen))
    console.print(
        f"chosen threshold: {chosen['threshold']:g} (largest κ(NAE dropped) × "
        f"(1 − NAE rate) = {chosen['balance']:.3f})",
        highlight=False,
    )
    return {"rows": rows, "chosen": chosen}


def _plot_sweep(swept: dict, evaluator: str, plot_path: str) -> None:
    from maieutic.report.plots import sweep_plot

    title = f"{evaluator}: leave-one-out agreement by threshold"
    sweep_plot(swept["rows"], swept["chosen"]["threshold"], plot_path, title)


def _curve_table(rows: list[dict]) -> Table:
    table = Table(
        title="references curve: other systems' labelled questions added as references "
        "(mean ± sd over draws)",
        title_justify="left",
    )
    for name in ("extra references", "κ NAE kept", "κ NAE dropped", "NAE %"):
        table.add_column(name, justify="right")
    for r in rows:
        table.add_row(
            str(r["extra_references"]),
            _pm(r["kappa_nae_kept"], r["kappa_nae_kept_sd"], "{:.3f}"),
            _pm(r["kappa_nae_dropped"], r["kappa_nae_dropped_sd"], "{:.3f}"),
            _pm(r["nae_rate"], r["nae_rate_sd"], "{:.1%}"),
        )
    return table


def _pm(mean: float | None, sd: float | None, spec: str) -> str:
    if mean is None:
        return "—"
    return f"{spec.format(mean)} ± {spec.format(sd or 0.0)}"


def _plot_curve(curve: dict, evaluator: str, plot_path: str) -> None:
    from maieutic.report.plots import curve_plot

    title = f"{evaluator}: agreement with people as references are added"
    curve_plot(curve["rows"], plot_path, title)


def _check_modes(evaluator, scale, do_sweep, do_curve, plot_path, outputs_path, sample) -> None:
    if plot_path and not (do_sweep or do_curve):
        raise click.UsageError(
            "--plot draws the threshold sweep or the curve: add --sweep or --curve"
        )
    if plot_path and do_sweep and do_curve:
        raise click.UsageError("--plot draws one figure: give --sweep or --curve, not both")
    if (do_sweep or do_curve) and scale is None:
        what = "--sweep" if do_sweep else "--curve"
        raise click.UsageError(f"{what} needs an evaluator with a threshold, not {evaluator!r}")
    if do_curve and not outputs_path:
        raise click.UsageError("--curve adds labelled system outputs as references: give --outputs")
    if sample and outputs_path:
        raise click.UsageError(
            "--sample draws references to leave out; with --outputs every output is judged"
        )


def _judge(dataset, outputs, scorer, sample, seed):
    """The items judged: every labelled output, or each reference left out in turn."""
    if outputs is not None:
        from maieutic.tasks.cqs.outputs_agreement import judge_outputs

        return judge_outputs(dataset, outputs, scorer)
    return leave_one_out(dataset, scorer, sample=sample, seed=seed)


def _curve(console, dataset, outputs, scorer, batch, draws, seed) -> dict:
    from maieutic.tasks.cqs.outputs_agreement import references_curve

    rows = references_curve(dataset, outputs, scorer, batch=batch, draws=draws, seed=seed)
    console.print(_curve_table(rows))
    return {"batch": batch, "draws": draws, "seed": seed, "rows": rows}


def _outputs_summary(outputs) -> dict | None:
    if outputs is None:
        return None
    return {
        "source": outputs.source,
        "fingerprint": outputs.fingerprint(),
        "n": len(outputs.outputs),
        "n_references_skipped": outputs.n_references_skipped,
        "flags": [f.to_json() for f in outputs.flags],
    }


_META_EVAL_OPTIONS = [
    click.option(
        "--data",
        "data_path",
        required=True,
        type=click.Path(dir_okay=False),
        help="Labelled dataset: every reference is evaluated against the others (or, with "
        "--outputs, the references the outputs are evaluated against).",
    ),
    click.option(
        "--outputs",
        "outputs_path",
        type=click.Path(dir_okay=False),
        help="Generated questions labelled by people (the benchmark's extended_test.json "
        "layout: each intervention's references first, then the systems' questions): "
        "measure the evaluator on these against the people's labels instead of leaving "
        "references out.",
    ),
    click.option(
        "--evaluator",
        type=EvaluatorName("cqs"),
        default="sts",
        show_default=True,
        help="The evaluator to measure (scorer:DIR: a learned scorer; on its own training "
        "data the figures are not a fair test, and a warning says so).",
    ),
    click.option("--threshold", type=float, help="Threshold of a similarity evaluator."),
    preset_option,
    embedding_options,
    llm_options,
    unscored_option,
    click.option("--sweep", "do_sweep", is_flag=True, help="Kappa and NAE rate across thresholds."),
    click.option(
        "--curve",
        "do_curve",
        is_flag=True,
        help="With --outputs: kappa and NAE rate as other systems' labelled questions are "
        "added as references in batches (sts, chrf).",
    ),
    click.option(
        "--batch",
        type=click.IntRange(1),
        default=5,
        show_default=True,
        help="Extra references per step of --curve (the paper adds 5 at a time).",
    ),
    click.option(
        "--draws",
        type=click.IntRange(1),
        default=5,
        show_default=True,
        help="Seeded orders of the extra references that --curve averages over.",
    ),
    plot_option("the threshold sweep (with --sweep) or the references curve (with --curve)"),
    click.option(
        "--sample", type=click.IntRange(1), help="Evaluate a seeded sample of N references."
    ),
    click.option(
        "--seed", type=int, default=0, show_default=True, help="Seed of --sample and --curve."
    ),
    out_option,
]


def _record(
    ctx, dataset, scorer, signature, result, seconds, items, swept, outputs, curve
) -> CqsMetaEval:
    return CqsMetaEval(
        task="cqs",
        provenance=provenance(ctx.params),
        evaluator=scorer.spec,
        signature=signature.as_dict(),
        signature_string=str(signature),
        report=result,
        seconds=seconds,
        items=[i.to_json() for i in items],
        sweep=swept,
        on="outputs" if outputs is not None else "references",
        outputs=_outputs_summary(outputs),
        curve=curve,
        flags=[f.to_json() for f in _input_flags(dataset, outputs)],
    )


@click.command("cqs")
@stack(_META_EVAL_OPTIONS)
@click.pass_context
def meta_eval_cqs(
    ctx,
    data_path,
    outputs_path,
    evaluator,
    preset,
    do_sweep,
    do_curve,
    batch,
    draws,
    plot_path,
    sample,
    seed,
    out_path,
    **options,
) -> None:
    """Agreement of an evaluator with people: each reference of --data left out in turn
    and labelled against the others, or (--outputs) generated questions people labelled."""
    evaluator = apply_preset(ctx, preset, evaluator, options)
    registered = split_evaluator(evaluator, options)
    scale = entry("evaluator", "cqs", registered).threshold
    _check_modes(evaluator, scale, do_sweep, do_curve, plot_path, outputs_path, sample)
    dataset = get_task("cqs").load_reference(data_path)
    outputs = load_labelled_outputs(outputs_path, dataset) if outputs_path else None
    echo_warnings(Path(outputs_path or data_path).name, _input_warnings(dataset, outputs))
    scorer = build(ctx, "evaluator", "cqs", registered, options)
    start = time.perf_counter()
    items = _judge(dataset, outputs, scorer, sample, seed)
    seconds = time.perf_counter() - start
    echo_warnings(evaluator, getattr(scorer.matcher, "warnings", []))
    result = report(items, scorer.unscored)
    curve_setting = (batch, draws) if do_curve else None
    signature = meta_signature(dataset, scorer, sample, seed, outputs, curve_setting)
    console = console_for(out_path)
    console.print(_headline(evaluator, result, seconds, outputs is not None), highlight=False)
    console.print(_confusion_table(result))
    swept = _run_sweep(console, items, scale.sweep) if do_sweep else None
    curve = _curve(console, dataset, outputs, scorer, batch, draws, seed) if do_curve else None
    console.print(f"signature: {signature}", highlight=False)
    if out_path:
        record = _record(
            ctx, dataset, scorer, signature, result, seconds, items, swept, outputs, curve
        )
        write_json(out_path, record.to_json())
    # drawn after --out is written: a plot path that cannot be written (a file where
    # its folder should be) must not throw away a long run's results
    if plot_path and swept:
        _plot_sweep(swept, evaluator, plot_path)
    if plot_path and curve:
        _plot_curve(curve, evaluator, plot_path)
    fail_on_call_failures(scorer.failures, "judge")


def _input_flags(dataset, outputs) -> list:
    return [*dataset.flags, *(outputs.flags if outputs is not None else [])]


def _input_warnings(dataset, outputs) -> list[str]:
    return [*dataset.warnings, *(f.short for f in _input_flags(dataset, outputs))]


def _thresholds(values: tuple[str, ...], evaluators: list[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for value in values:
        name, sep, number = value.partition("=")
        if not sep or name not in evaluators:
            raise click.UsageError(
                f"--threshold {value!r}: expected EVALUATOR=VALUE with EVALUATOR one of "
                f"{', '.join(evaluators)}"
            )
        try:
            out[name] = float(number)
        except ValueError:
            raise click.UsageError(f"--threshold {value!r}: {number!r} is not a number") from None
    return out


def _print_comparison(console, result: dict) -> None:
    console.print(_kappa_table(result))
    for r in result["rankings"]:
        console.print(
            f"score correlation {r['a']} vs {r['b']} over {len(result['submissions'])} "
            f"submissions: pearson={fmt(r['pearson'], '{:.3f}')} "
            f"spearman={fmt(r['spearman'], '{:.3f}')}",
            highlight=False,
        )


def _plot_comparison(result: dict, plot_path: str) -> None:
    from maieutic.report.plots import heatmap

    heatmap(result["evaluators"], result["kappa"], plot_path, "Cohen's κ between evaluators")


def _kappa_table(result: dict) -> Table:
    table = Table(title="Cohen's κ between evaluators (NAE kept as a class)", title_justify="left")
    table.add_column("")
    for n in result["evaluators"]:
        table.add_column(n, justify="right")
    table.add_column("signature", overflow="fold")
    for n, row in zip(result["evaluators"], result["kappa"], strict=True):
        table.add_row(n, *(fmt(v, "{:.3f}") for v in row), result["signatures"][n])
    return table


def _build_scorers(ctx, names: list[str], thresholds: dict, options: dict) -> dict:
    """Each evaluator built with its own options: its threshold, and a scorer:DIR's
    directory (an option none of them takes is refused)."""
    own = {n: {**options, "threshold": thresholds.get(n)} for n in names}
    registered = {n: split_evaluator(n, own[n]) for n in names}
    refuse_options_none_take(
        ctx, [entry("evaluator", "cqs", r) for r in registered.values()], options
    )
    return {
        n: build(ctx, "evaluator", "cqs", registered[n], own[n], refuse_unused=False) for n in names
    }


def _compared_evaluators(evaluators, submissions, outputs_path) -> list[str]:
    """The distinct evaluators to compare: two or more, or one beside people."""
    names = list(dict.fromkeys(evaluators))
    if bool(submissions) == bool(outputs_path):
        raise click.UsageError("give SUBMISSIONS or --outputs (one of the two)")
    if len(names) < (1 if outputs_path else 2):
        raise click.UsageError("give at least two different --evaluator")
    return names


def _compared(task, dataset, submissions, outputs_path):
    """The submissions to compare on, people's labels of them with their signature (or
    None), and the inputs' flags."""
    if not outputs_path:
        loaded = load_submissions(task, task_io(task), list(submissions), dataset)
        return loaded, (None, ""), list(dataset.flags)
    outputs = load_labelled_outputs(outputs_path, dataset)
    echo_warnings(Path(outputs_path).name, [f.short for f in outputs.flags])
    systems, people = outputs.as_systems()
    return systems, (people, outputs_signature(outputs)), _input_flags(dataset, outputs)


def outputs_signature(outputs) -> str:
    """How people's labels of system outputs are identified beside the evaluators'."""
    digest = outputs.fingerprint().removeprefix("sha256:")[:12]
    return f"task:cqs-people|outputs:{digest}|n:{len(outputs.outputs)}"


@click.command("cqs-compare")
@click.option(
    "--data",
    "data_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Labelled dataset the submissions are evaluated against.",
)
@click.option(
    "--evaluator",
    "evaluators",
    multiple=True,
    required=True,
    type=EvaluatorName("cqs"),
    help="Repeat: two or more evaluators (scorer:DIR: a learned scorer).",
)
@click.option(
    "--threshold",
    "thresholds",
    multiple=True,
    help="EVALUATOR=VALUE, e.g. sts=0.65 or chrf=30 (repeatable; default: each evaluator's own).",
)
@click.argument("submissions", nargs=-1, type=click.Path(dir_okay=False))
@click.option(
    "--outputs",
    "outputs_path",
    type=click.Path(dir_okay=False),
    help="Instead of SUBMISSIONS: generated questions labelled by people (the "
    "extended_test.json layout), read as one submission per system (3 questions each); "
    "people join the comparison as one more rater (Figure 3 of the CQs paper).",
)
@embedding_options
@llm_options
@unscored_option
@plot_option("the kappa heatmap")
@out_option
@click.pass_context
def meta_eval_compare(
    ctx,
    data_path,
    evaluators,
    thresholds,
    submissions,
    outputs_path,
    plot_path,
    out_path,
    **options,
) -> None:
    """Kappa between evaluators over the questions of SUBMISSIONS, and the correlation of
    the system scores they give (Pearson and Spearman over submissions); with --outputs,
    people's labels join as one more rater."""
    names_ = _compared_evaluators(evaluators, submissions, outputs_path)
    per_evaluator = _thresholds(thresholds, names_)
    task = get_task("cqs")
    dataset = task.load_reference(data_path)
    loaded, people, flags = _compared(task, dataset, submissions, outputs_path)
    scorers = _build_scorers(ctx, names_, per_evaluator, options)
    result = compare(dataset, loaded, scorers, *people)
    _print_comparison(console_for(out_path), result)
    if out_path:
        specs = {n: s.spec for n, s in scorers.items()}
        record = CqsCompare(
            provenance=provenance(ctx.params),
            evaluator_specs=specs,
            flags=[f.to_json() for f in flags],
            **result,
        )
        write_json(out_path, record.to_json())
    if plot_path:  # after --out, as in meta-eval cqs
        _plot_comparison(result, plot_path)
    fail_on_call_failures([f for s in scorers.values() for f in s.failures], "judge")
