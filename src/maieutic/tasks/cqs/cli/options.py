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
