"""``maieutic ask``: questions for the text in front of you."""

from __future__ import annotations

import sys

import click
from rich.console import Console

from maieutic.cli.option_types import number
from maieutic.cli.options import deprecated_alias, stack
from maieutic.llm.budget import DEFAULT_BUDGET_S

ask_options = stack(
    [
        click.option(
            "--format",
            "output_format",
            type=click.Choice(["terminal", "json", "markdown"]),
            default="terminal",
            show_default=True,
            help="terminal: spans highlighted in the text; json: everything, with the "
            "signatures; markdown: for notes and slides.",
        ),
        click.option(
            "--llm",
            default=None,
            help="Language model for all three parts: embedded (SmolLM2-135M-Instruct, "
            "run in-process), its name at --base-url, or a GGUF file (default: no model — "
            "the text's claims, templates and AURA's bi-encoder). The model's usable "
            "critical questions come first, the claims generator's fill the slots left; "
            "a model measured to write worse ones than the rules, the embedded one among "
            "them (rated Useful 0.01 against 0.28 on held-out texts), is not asked for "
            "them (docs/models.md).",
        ),
        click.option(
            "--base-url",
            default=None,
            help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1.",
        ),
        click.option(
            "--scorer",
            type=click.Path(file_okay=False),
            default=None,
            help="Usefulness scorer directory (made by maieutic train cqs) that picks the "
            "critical questions from every LLM sample, or offline from every scheme-template "
            "filling (the scorer must have been trained on template fillings for that).",
        ),
        click.option(
            "--candidates",
            type=click.IntRange(1, 16),
            default=3,
            show_default=True,
            help="LLM samples for the critical questions (their questions pooled first).",
        ),
        click.option(
            "--question-set/--no-question-set",
            "document",
            default=None,
            help="Also write a question set about the text and score it with AURA "
            "(default: for texts of 1,500 characters or four paragraphs and more).",
        ),
        deprecated_alias("--document/--no-document", new="--question-set", dest="document"),
        click.option("--seed", type=int, default=0, show_default=True, help="Sampling seed."),
        click.option(
            "--timeout",
            type=number(min=1),
            default=None,
            help="Seconds one model call attempt may take (default: each generator's own, 120).",
        ),
        click.option(
            "--budget",
            type=number(min=1),
            default=DEFAULT_BUDGET_S,
            show_default=True,
            help="Seconds all model calls may take together; when they run out, the parts "
            "still to come are written offline, under a heading that says so.",
        ),
    ]
)


@click.command("ask")
@click.argument("source", metavar="TEXT|FILE|-")
@ask_options
def ask(source: str, *, output_format: str, **options) -> None:
    """Critical and Socratic questions for a text: TEXT itself, a .txt/.md/.pdf FILE, or
    - for standard input. A long document also gets a question set with its AURA scores.

    \b
      maieutic ask "We should ban cars downtown because pollution harms children."
      maieutic ask essay.md --format markdown
      cat op-ed.txt | maieutic ask - --format json
    """
    from maieutic.ask import AskOptions, ask_text, read_input
    from maieutic.ask.render import print_terminal, to_json, to_markdown
    from maieutic.terminal_text import terminal_safe

    text, where = read_input(source)
    asked = AskOptions(**options)
    result = ask_text(text, asked, source=where, on_step=_step_printer(asked))
    if output_format == "json":
        sys.stdout.write(to_json(result))
    elif output_format == "markdown":
        sys.stdout.write(to_markdown(result))
    else:
        print_terminal(result, Console(soft_wrap=False))
    if output_format != "terminal":
        for warning in result.warnings:
            click.echo(f"warning: {terminal_safe(warning)}", err=True)
    if result.failures:
        click.echo(f"maieutic: error: {terminal_safe('; '.join(result.failures))}", err=True)
        sys.exit(1)


def _step_printer(options):
    """With a model, each step of ``ask`` on stderr as it starts, with the time so far
    (a model on a slow machine can take minutes, and silence looks like a hang); none
    offline, where the whole answer takes a second."""
    if not options.uses_llm:
        return None
    import time

    start = time.perf_counter()
    budget = f", budget {options.budget:g} s" if options.budget else ""

    def say(step: str) -> None:
        click.echo(f"ask: {step} ({time.perf_counter() - start:.0f} s{budget})", err=True)

    return say
