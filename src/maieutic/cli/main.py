"""Entry point: the ``maieutic`` command group and its error handling.

Errors the user can act on (``MaieuticError``) print one line and exit 2 (data or
usage) or 1 (runtime); ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import errno
import os
import sys

import click

from maieutic._version import __version__
from maieutic.apps.ask import ask
from maieutic.apps.demo import demo
from maieutic.cli._tree import CommandGroups, RootGroup, TaskGroup
from maieutic.cli.compare import compare
from maieutic.cli.report import report
from maieutic.cli.serve import serve
from maieutic.cli.serve_llm import serve_llm
from maieutic.cli.setup_llm import setup_llm
from maieutic.cli.train import scorer
from maieutic.errors import MaieuticError
from maieutic.integrations.cli import import_group
from maieutic.terminal_text import terminal_safe


@click.group(
    cls=RootGroup,
    context_settings={"help_option_names": ["-h", "--help"], "auto_envvar_prefix": "MAIEUTIC"},
)
@click.version_option(__version__, prog_name="maieutic")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="No progress bars on a terminal, no progress lines off one.",
)
@click.pass_context
def cli(ctx: click.Context, debug: bool, *, quiet: bool) -> None:
    """Generate questions that challenge a text, and evaluate them reproducibly.

    Commands are verb first (maieutic evaluate TASK); a task's own tools are in a
    group named after it (maieutic TASK --help). See docs/cli.md.
    """
    from maieutic.progress import set_quiet

    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
    if quiet:
        set_quiet(True)


@cli.group(cls=TaskGroup)
def generate() -> None:
    """Generate questions (or answers) for a task's inputs."""


@cli.group(cls=TaskGroup)
def evaluate() -> None:
    """Score a task's system outputs."""


@cli.group("meta-eval", cls=TaskGroup)
def meta_eval() -> None:
    """Measure how well evaluators agree with people (and with each other)."""


@cli.group(cls=TaskGroup)
def train() -> None:
    """Train learned components (a task's scorer) from labelled data."""


def _mount_core() -> CommandGroups:
    """The core commands, the applications (``ask`` and ``demo`` compose several
    tasks; they are not tasks), and the groups the tasks' commands join on demand."""
    for command in (compare, report, serve, serve_llm, setup_llm, ask, demo, import_group):
        cli.add_command(command)
    train.add_command(scorer)
    tree = CommandGroups(
        root=cli, generate=generate, evaluate=evaluate, meta_eval=meta_eval, train=train
    )
    for group in (cli, generate, evaluate, meta_eval, train):
        group.tree = tree
    return tree


TREE = _mount_core()


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
        # a message may quote the user's input (a file name, a field): never escapes
        click.echo(f"maieutic: error: {terminal_safe(str(exc))}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("maieutic: interrupted", err=True)
        return 130
    except SystemExit as exc:  # a command that chose its exit code
        return exc.code if isinstance(exc.code, int) else 1
    except RecursionError:
        # input nested deeper than the readers go (JSON thousands of levels deep) that
        # reached a parser without its own check
        if debug:
            raise
        click.echo("maieutic: error: the input is nested too deeply to read", err=True)
        return 2
    except BrokenPipeError:
        # the reader of our output went away (| head): stop quietly, as Unix tools do
        _silence_stdout()
        return 141
    except OSError as exc:
        if debug or exc.errno not in _DISK_ERRORS:
            raise
        # stdout or a file on a full (or read-only) disk, a folder it may not write:
        # what was written stays whole (every file is written whole or not at all)
        _silence_stdout()
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"maieutic: error: {where}{exc.strerror}", err=True)
        return 1
    return code if isinstance(code, int) else 0


_DISK_ERRORS = {
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EROFS,
    errno.EIO,
    errno.EFBIG,
    errno.EACCES,
    errno.EPERM,
    errno.ENOTDIR,
}


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of what could
    not be written does not print a traceback at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
