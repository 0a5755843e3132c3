"""Options shared by the critical-question commands."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.cli.option_types import RegisteredOrScorer
from maieutic.registry import SCORER_PREFIX
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


def apply_preset(ctx: click.Context, preset: str | None, evaluator: str, *, options: dict) -> str:
    """The evaluator to build, with ``preset``'s options put into ``options``."""
    if not preset:
        return evaluator
    from maieutic.cli.options import is_explicit
    from maieutic.tasks.cqs.presets import preset_options

    given = {p.name for p in ctx.command.params if p.name and is_explicit(ctx, p.name)}
    return preset_options(preset, evaluator=evaluator, options=options, given=given)


class _JudgeName(RegisteredOrScorer):
    """``usefulness`` (the shipped judge) or ``scorer:DIR`` (made absolute, so the
    spec recorded in a results file rebuilds from any directory)."""

    def __init__(self) -> None:
        super().__init__("judge", task="cqs")

    def _known(self) -> list[str]:
        from maieutic.tasks.cqs.usefulness import NAME

        return [NAME]

    def convert(self, value, param, ctx) -> str:
        text = super().convert(value, param, ctx)
        if text.startswith(SCORER_PREFIX):
            return SCORER_PREFIX + str(Path(text.removeprefix(SCORER_PREFIX)).resolve())
        return text


nae_fallback_option = click.option(
    "--nae-fallback",
    "nae_fallback",
    type=_JudgeName(),
    help="sts / chrf: label the questions no reference matches with a reference-free "
    "judge (usefulness: the shipped one) instead of not_able_to_evaluate; each says "
    "so, and the figures by the references alone are kept beside.",
)
"""``--nae-fallback``: a reference-free judge for the questions no reference matches."""
