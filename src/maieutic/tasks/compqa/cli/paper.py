"""``maieutic compqa breakdown``: the paper's Tables 3–4 and Figures 6–7 from scored
answers, one column per judge, people included (Figure 8 is ``compqa extremes``, in
``extremes.py``)."""

from __future__ import annotations

import click
from rich.table import Table

from maieutic.cli.options import out_option, stack
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.errors import DataError
from maieutic.path_text import path_exists
from maieutic.tasks.compqa.paper_tables import AVERAGES, BY, PARTS, SPREAD


def _judge_specs(specs: tuple[str, ...]) -> dict[str, list[str]]:
    """``NAME=PATH`` options grouped by name (a name given twice gathers its paths, so
    two annotators' files make one column). A bare PATH is refused: the column's name
    is what the table and its signature show, so it is never guessed."""
    columns: dict[str, list[str]] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name.strip() or not path:
            raise click.UsageError(
                f"--judge {spec!r}: expected NAME=PATH (e.g. gpt-4o=judged/gpt-4)"
            )
        if not path_exists(path):
            raise click.BadParameter(f"{path!r} does not exist", param_hint="--judge")
        columns.setdefault(name, []).append(path)
    return columns


def _read_columns(columns: dict[str, list[str]]):
    """Each column's answers, what scored them, and (columns of people's files) how many
    of people's rows were left out as unscored or partly scored."""
    from maieutic.tasks.compqa.scored_files import left_out_rows, read_judged

    answers, scored_by, left_out = {}, {}, {}
    for name, paths in columns.items():
        files = read_judged(paths)
        _check_column(name, paths, files)
        echo_warnings(f"compqa breakdown: {name}", [n for f in files for n in f.notes])
        answers[name] = [a for f in files for a in f.answers]
        scored_by[name] = "+".join(sorted({s for f in files for s in f.scored_by}))
        if (count := left_out_rows(files)) is not None:
            left_out[name] = count
    return answers, scored_by, left_out


def _check_column(name: str, paths: list[str], files) -> None:
    """A column is one judge: scored answers all, and a judge's or people's, not both
    (one cell would pool a judge's and people's scores of the same answers)."""
    from maieutic.tasks.compqa.scored_files import UNSCORED, from_people

    where = ", ".join(paths)
    if any(UNSCORED in f.scored_by for f in files):
        raise DataError(
            f"--judge {name}: answers with no scores (score them first with maieutic "
            "evaluate compqa, and give its results file)",
            where=where,
        )
    people = [from_people(f) for f in files]
    if any(people) and not all(people):
        raise DataError(
            f"--judge {name}: mixes a judge's scored answers and people's score files; "
            "give each its own NAME (one column each)",
            where=where,
        )


def _shown(figure) -> str:
    if figure is None or figure.n == 0:
        return "—"
    spread = "" if figure.spread is None else f" ± {figure.spread:.2f}"
    cells = figure.n_spread_cells
    # the ± of a generator rests only on its cells with two or more answers: say so
    # when that is not all of them
    fewer = ""
    if figure.spread is not None and cells is not None and cells < figure.n_cells:
        fewer = f"; ± of {cells}/{figure.n_cells} cells"
    return f"{figure.mean:.2f}{spread} ({figure.n}{fewer})"


def _print_part(console, rows, names, *, title: str, caption: str) -> None:
    table = Table(title=title, title_justify="left")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    for label, figures in rows:
        table.add_row(label, *(_shown(figures.get(name)) for name in names))
    table.caption = caption
    console.print(table)


def _options(func):
    """The options of ``compqa breakdown``."""
    options = [
        click.option(
            "--judge",
            "specs",
            multiple=True,
            required=True,
            metavar="NAME=PATH",
            help="A column: NAME and its scored answers (judged files or folder, results "
            "files, or people's score TSVs; repeat a NAME to add files, e.g. both "
            "annotators). Repeatable; columns in the order given.",
        ),
        click.option(
            "--by",
            type=click.Choice(BY),
            default="generator",
            show_default=True,
            help="Rows: generator (Table 3), aspect: whether the question names one "
            "(Table 4), or scenario (Figure 6).",
        ),
        click.option(
            "--groups",
            is_flag=True,
            help="Also each criterion group: structure, relevance, quality (Figure 7).",
        ),
        click.option(
            "--average",
            type=click.Choice(AVERAGES),
            default="cells",
            show_default=True,
            help="cells: over the generator × scenario cells, as the paper; answers: "
            "over the answers pooled (± their sd).",
        ),
        out_option,
    ]
    return stack(options)(func)


@click.command("breakdown")
@_options
@click.pass_context
def breakdown(ctx, specs, by, *, groups, average, out_path) -> None:
    """Mean rubric scores with one column per judge (people's TSVs included), by
    generator, aspect or scenario; a cell shows mean ± spread (answers)."""
    from maieutic.tasks.compqa.paper_tables import breakdown as compute
    from maieutic.tasks.compqa.records import CompqaBreakdown
    from maieutic.tasks.compqa.scored_files import LEFT_OUT
    from maieutic.tasks.compqa.signatures import breakdown_signature

    answers, scored_by, left_out = _read_columns(_judge_specs(specs))
    spread = SPREAD.get((by, average), "sd of the answers")
    signature = breakdown_signature(answers, scored_by, by, rule=f"{average}:{spread}")
    console, out_rows = console_for(out_path), []
    dropped = "".join(f"{name}: {LEFT_OUT}: {n}\n" for name, n in left_out.items())
    for part in PARTS if groups else ("total",):
        rows = compute(answers, by, part=part, average=average)
        if not rows:
            raise DataError("no scored answers", where=", ".join(specs))
        caption = f"{part}: mean ± {spread} (complete answers)\n{dropped}signature: {signature}"
        _print_part(console, rows, list(answers), title=f"CompQA: {part} by {by}", caption=caption)
        out_rows += [
            {"row": r, "part": part, "columns": {k: f.to_json() for k, f in fs.items()}}
            for r, fs in rows
        ]
    write_record(
        out_path,
        CompqaBreakdown,
        ctx=ctx,
        with_signature=signature,
        by=by,
        average=average,
        spread=spread,
        rows=out_rows,
        human_rows_left_out=left_out or None,
    )
