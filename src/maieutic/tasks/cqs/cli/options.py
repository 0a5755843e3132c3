"""Options shared by the critical-question commands."""

from __future__ import annotations

import click

from maieutic.tasks.cqs.scoring import AS_NAE, UNSCORED_RULES

unscored_option = click.option(
    "--unscored",
    type=click.Choice(UNSCORED_RULES),
    default=AS_NAE,
    show_default=True,
    help="LLM judges: how a question whose reply failed or could not be parsed is "
    "scored. as-nae: as not_able_to_evaluate, i.e. not Useful and in every denominator "
    "(the paper's rule); drop-and-rescale: left out of the denominators, the rest "
    "scaled up. Either way the count is shown.",
)
"""``--unscored``: the LLM judges' rule for a question they could not score."""

preset_option = click.option(
    "--preset",
    type=click.Choice(["paper"]),
    help="paper: the leaderboard's setting (sts, stsb-mpnet-base-v2, threshold 0.65); "
    "refused, with how to get the model, when that model is not on this machine.",
)
"""``--preset``: a named setting that reproduces a published number."""


def apply_preset(ctx: click.Context, preset: str | None, evaluator: str, options: dict) -> str:
    """The evaluator to build, with ``preset``'s options put into ``options``."""
    if not preset:
        return evaluator
    from maieutic.cli._options import is_explicit
    from maieutic.tasks.cqs.presets import preset_options

    given = {p.name for p in ctx.command.params if p.name and is_explicit(ctx, p.name)}
    return preset_options(preset, evaluator, options, given)
