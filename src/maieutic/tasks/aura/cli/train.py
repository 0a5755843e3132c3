"""``maieutic train aura``: an answerability scorer learned from human ratings."""

from __future__ import annotations

import click

from maieutic.cli.train import scorer_options, train_scorer
from maieutic.tasks.aura.cli.group import qgeval_option


@click.command("aura")
@qgeval_option("QGEval-style answerability ratings (instances JSON).")
@scorer_options
def train_aura(qgeval_path, **options) -> None:
    """Learn P(answerable | passage, question), report its grouped cross-validation
    figures (no passage on both sides of a fold), then fit on all the data and save it."""
    train_scorer("aura", qgeval_path, options, kind="references")
