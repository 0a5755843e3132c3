"""Entry point: the ``maieutic`` command group and its error handling.

Errors the user can act on (``MaieuticError``) print one line and exit 2 (data or
usage) or 1 (runtime); ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import sys

import click

from maieutic._version import __version__
from maieutic.cli.app_cmd import serve
from maieutic.cli.ask_cmd import ask
from maieutic.cli.demo_cmd import demo
from maieutic.cli.evaluate_cmd import evaluate
from maieutic.cli.generate_cmd import generate
from maieutic.cli.meta_eval_cmd import meta_eval
from maieutic.cli.report_cmd import report
from maieutic.cli.serve_cmd import serve_llm
from maieutic.cli.setup_llm_cmd import setup_llm
from maieutic.cli.train_cmd import train
from maieutic.errors import MaieuticError
from maieutic.tasks.aura.cli.generate import generate_aura  # noqa: F401 (registers the command)
from maieutic.tasks.aura.cli.group import aura
from maieutic.tasks.aura.cli.meta_eval import meta_eval_aura  # noqa: F401 (registers it)
from maieutic.tasks.aura.cli.tools import agree, sweep  # noqa: F401 (register the commands)
from maieutic.tasks.compqa.cli.evaluate import evaluate_compqa  # noqa: F401 (registers it)
from maieutic.tasks.compqa.cli.generate import generate_compqa  # noqa: F401 (registers it)
from maieutic.tasks.compqa.cli.group import compqa
from maieutic.tasks.focus.cli.generate import generate_focus  # noqa: F401 (registers the command)
from maieutic.tasks.focus.cli.group import focus


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "auto_envvar_prefix": "MAIEUTIC"}
)
@click.version_option(__version__, prog_name="maieutic")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="No progress bars (they are shown only on a terminal anyway).",
)
@click.pass_context
def cli(ctx: click.Context, debug: bool, quiet: bool) -> None:
    """Generate questions that challenge a text, and evaluate them reproducibly."""
    from maieutic.progress import set_quiet

    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
    if quiet:
        set_quiet(True)


cli.add_command(ask)
cli.add_command(evaluate)
cli.add_command(focus)
cli.add_command(aura)
cli.add_command(compqa)
cli.add_command(demo)
cli.add_command(generate)
cli.add_command(serve_llm)
cli.add_command(meta_eval)
cli.add_command(setup_llm)
cli.add_command(train)
cli.add_command(report)
cli.add_command(serve)


def run(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit code (used by ``main`` and tests)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    if debug:  # accepted anywhere on the line, not only before the subcommand
        args = ["--debug", *(a for a in args if a != "--debug")]
    if "--quiet" in args:  # likewise
        args = ["--quiet", *(a for a in args if a != "--quiet")]
    try:
        code = cli.main(args=args, prog_name="maieutic", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("maieutic: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except MaieuticError as exc:
        if debug:
            raise
        click.echo(f"maieutic: error: {exc}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("maieutic: interrupted", err=True)
        return 130
    except SystemExit as exc:  # a command that chose its exit code
        return exc.code if isinstance(exc.code, int) else 1
    return code if isinstance(code, int) else 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
