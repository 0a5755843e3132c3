"""``maieutic meta-eval cqs``: an evaluator against people's labels, on references left
out in turn or on system outputs people labelled (with the references curve)."""

from __future__ import annotations

import time
from pathlib import Path

import click
from rich.table import Table

from maieutic.cli.components import build, split_evaluator
from maieutic.cli.option_types import number
from maieutic.cli.options import (
    component_option,
    data_option,
    embedding_options,
    llm_options,
    out_option,
    plot_option,
    seed_option,
    stack,
)
from maieutic.cli.printing import console_for, echo_warnings, fail_on_call_failures
from maieutic.core.task import get_task
from maieutic.data.files import write_json
from maieutic.evaluate.sweep import choose_threshold
from maieutic.provenance import provenance
from maieutic.registry import entry
from maieutic.report.tables import fmt
from maieutic.run.inputs import reference_for
from maieutic.tasks.cqs.cli.options import (
    apply_preset,
    nae_fallback_option,
    preset_option,
    unscored_option,
)
from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs
from maieutic.tasks.cqs.meta_eval import (
    PREDICTED_LABELS,
    leave_one_out,
    meta_signature,
    report,
    sweep,
)
from maieutic.tasks.cqs.records import CqsMetaEval


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


def _headline(evaluator: str, result: dict, seconds: float, *, on_outputs: bool = False) -> str:
    what = " (system outputs vs people)" if on_outputs else ""
    intervals = result.get("intervals") or {}
    return (
        f"{evaluator}{what}: n={result['n']} "
        f"kappa(NAE kept)={fmt(result['kappa_nae_kept'], '{:.3f}')}"
        f"{_bounds(intervals.get('kappa_nae_kept'))} "
        f"kappa(NAE dropped)={fmt(result['kappa_nae_dropped'], '{:.3f}')} "
        f"NAE={fmt(result['nae_rate'], '{:.1%}')} unscored={result['n_unscored']} "
        f"time={seconds:.1f}s\n"
        f"  Useful vs rest: kappa(NAE kept)="
        f"{fmt(result.get('kappa_useful_nae_kept'), '{:.3f}')}"
        f"{_bounds(intervals.get('kappa_useful_nae_kept'))} kappa(NAE dropped)="
        f"{fmt(result.get('kappa_useful_nae_dropped'), '{:.3f}')}" + _interval_note(intervals)
    )


def _bounds(interval: dict | None) -> str:
    if not interval or interval.get("low") is None:
        return ""
    return f" [{interval['low']:.3f}, {interval['high']:.3f}]"


def _interval_note(intervals: dict) -> str:
    shown = [k for k in ("kappa_nae_kept", "kappa_useful_nae_kept") if _bounds(intervals.get(k))]
    if not shown:
        return ""
    return (
        f"\n  [ ]: {intervals['confidence']:.0%} interval, bootstrap over the "
        f"{intervals['n_units']} {intervals['unit']} ({intervals['n_resamples']:,} resamples)"
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


def _plot_sweep(swept: dict, evaluator: str, *, plot_path: str) -> None:
    from maieutic.report.plots import sweep_plot

    title = f"{evaluator}: leave-one-out agreement by threshold"
    sweep_plot(swept["rows"], swept["chosen"]["threshold"], plot_path, title=title)


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
            _pm(r["kappa_nae_kept"], sd=r["kappa_nae_kept_sd"], spec="{:.3f}"),
            _pm(r["kappa_nae_dropped"], sd=r["kappa_nae_dropped_sd"], spec="{:.3f}"),
            _pm(r["nae_rate"], sd=r["nae_rate_sd"], spec="{:.1%}"),
        )
    return table


def _pm(mean: float | None, *, sd: float | None, spec: str) -> str:
    if mean is None:
        return "—"
    return f"{spec.format(mean)} ± {spec.format(sd or 0.0)}"


def _plot_curve(curve: dict, evaluator: str, *, plot_path: str) -> None:
    from maieutic.report.plots import curve_plot

    title = f"{evaluator}: agreement with people as references are added"
    curve_plot(curve["rows"], plot_path, title)


def _check_modes(evaluator, scale, do_sweep, *, do_curve, plot_path, outputs_path, sample) -> None:
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


def _judge(dataset, outputs, scorer, *, sample, seed):
    """The items judged: every labelled output, or each reference left out in turn."""
    if outputs is not None:
        from maieutic.tasks.cqs.outputs_agreement import judge_outputs

        return judge_outputs(dataset, outputs, scorer)
    return leave_one_out(dataset, scorer, sample=sample, seed=seed)


def _curve(console, dataset, outputs, *, scorer, batch, draws, seed) -> dict:
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
    data_option(
        "Labelled dataset: every reference is evaluated against the others (or, with "
        "--outputs, the references the outputs are evaluated against)."
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
    component_option(
        "evaluator",
        task="cqs",
        default="sts",
        help="The evaluator to measure (scorer:DIR: a learned scorer; on its own training "
        "data the figures are not a fair test, and a warning says so).",
    ),
    click.option("--threshold", type=number(), help="Threshold of a similarity evaluator."),
    preset_option,
    embedding_options,
    llm_options,
    unscored_option,
    nae_fallback_option,
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
    seed_option("Seed of --sample and --curve."),
    out_option,
]


def _record(
    ctx, dataset, scorer, *, signature, result, seconds, items, swept, outputs, curve
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
    *,
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
    evaluator = apply_preset(ctx, preset, evaluator, options=options)
    registered = split_evaluator(evaluator, options)
    scale = entry("evaluator", task="cqs", name=registered).threshold
    if options.get("nae_fallback") and (do_sweep or do_curve):
        # both relabel from the stored similarities alone: their figures would not be
        # the fallback's, under a signature that says it
        what = "--sweep" if do_sweep else "--curve"
        raise click.UsageError(f"{what} measures the references alone: drop --nae-fallback")
    _check_modes(
        evaluator,
        scale,
        do_sweep,
        do_curve=do_curve,
        plot_path=plot_path,
        outputs_path=outputs_path,
        sample=sample,
    )
    # people's labels on generated questions (--outputs) need the texts alone when the
    # evaluator needs no references; left out in turn, the references are what is judged
    why = "" if outputs_path else "without --outputs, the references are the questions judged"
    dataset = reference_for(
        get_task("cqs"), data_path, evaluator=evaluator, options=options, why=why
    )
    outputs = load_labelled_outputs(outputs_path, dataset) if outputs_path else None
    echo_warnings(Path(outputs_path or data_path).name, _input_warnings(dataset, outputs))
    scorer = build(ctx, "evaluator", task="cqs", name=registered, options=options)
    start = time.perf_counter()
    items = _judge(dataset, outputs, scorer, sample=sample, seed=seed)
    seconds = time.perf_counter() - start
    echo_warnings(evaluator, scorer.warnings)
    result = report(items, scorer.unscored)
    curve_setting = (batch, draws) if do_curve else None
    signature = meta_signature(
        dataset, scorer, sample, seed=seed, outputs=outputs, curve=curve_setting
    )
    console = console_for(out_path)
    console.print(
        _headline(evaluator, result, seconds, on_outputs=outputs is not None), highlight=False
    )
    console.print(_confusion_table(result))
    swept = _run_sweep(console, items, scale.sweep) if do_sweep else None
    curve = (
        _curve(console, dataset, outputs, scorer=scorer, batch=batch, draws=draws, seed=seed)
        if do_curve
        else None
    )
    console.print(f"signature: {signature}", highlight=False)
    if out_path:
        record = _record(
            ctx,
            dataset,
            scorer,
            signature=signature,
            result=result,
            seconds=seconds,
            items=items,
            swept=swept,
            outputs=outputs,
            curve=curve,
        )
        write_json(out_path, record.to_json())
    # drawn after --out is written: a plot path that cannot be written (a file where
    # its folder should be) must not throw away a long run's results
    if plot_path and swept:
        _plot_sweep(swept, evaluator, plot_path=plot_path)
    if plot_path and curve:
        _plot_curve(curve, evaluator, plot_path=plot_path)
    fail_on_call_failures(scorer.failures, "judge")


def _input_flags(dataset, outputs) -> list:
    return [*dataset.flags, *(outputs.flags if outputs is not None else [])]


def _input_warnings(dataset, outputs) -> list[str]:
    return [*dataset.warnings, *(f.short for f in _input_flags(dataset, outputs))]
