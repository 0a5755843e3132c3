"""``maieutic serve``: the local web app."""

from __future__ import annotations

import click

from maieutic.cli.option_types import number
from maieutic.cli.options import stack
from maieutic.errors import RunError
from maieutic.web.jobs import DEFAULT_JOB_SECONDS
from maieutic.web.server import (
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_HOST,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_PORT,
)


def _check_names(ctx: click.Context, param: click.Parameter, names: tuple[str, ...]):
    """The ``--allow-host`` values: each one host name or address (a port is ignored),
    never a pattern: answering every name is what lets DNS rebinding through."""
    for name in names:
        if not name.strip() or any(c.isspace() or c in "/*@" for c in name):
            raise click.BadParameter(f"{name!r} is not a host name (e.g. box.lan or 10.0.0.5)")
    return tuple(name.strip() for name in names)


_OPTIONS = [
    click.option(
        "--host",
        default=DEFAULT_HOST,
        show_default=True,
        help="Interface to listen on (loopback by default; anything else is reachable from "
        "other machines, and the app has no login).",
    ),
    click.option(
        "--allow-host",
        "allow_host",
        multiple=True,
        metavar="NAME",
        callback=_check_names,
        help="Also answer requests whose Host is NAME (repeatable): the name others use to "
        "reach this machine. Loopback names are always answered, any other refused (so a web "
        "page cannot reach the app through DNS rebinding).",
    ),
    click.option(
        "--port",
        type=click.IntRange(0, 65535),
        default=DEFAULT_PORT,
        show_default=True,
        help="Port; 0 picks a free one.",
    ),
    click.option(
        "--max-upload-mb",
        type=number(min=0.001),
        default=10.0,
        show_default=True,
        help="Largest request the app accepts (all files of one upload together), in MB.",
    ),
    click.option(
        "--header-timeout",
        type=number(min=0.1),
        default=DEFAULT_HEADER_TIMEOUT,
        show_default=True,
        metavar="SECONDS",
        help="Close a connection whose request line and headers have not all arrived this "
        "many seconds after it opened (or after its previous response).",
    ),
    click.option(
        "--max-connections",
        type=click.IntRange(min=1),
        default=DEFAULT_MAX_CONNECTIONS,
        show_default=True,
        help="Most connections open at once; one more is answered 503 and closed.",
    ),
    click.option(
        "--job-seconds",
        type=number(min=1),
        default=DEFAULT_JOB_SECONDS,
        show_default=True,
        metavar="SECONDS",
        help="Time budget of each job (an ask, a leaderboard, a report): past it the job "
        "stops at its next step and its page says so.",
    ),
    click.option(
        "--llm",
        default=None,
        help="Language model the Ask page asks, as maieutic ask --llm does: embedded "
        "(SmolLM2-135M-Instruct, in this process), its name at --base-url, or a GGUF file "
        "(default: none, every part offline).",
    ),
    click.option(
        "--base-url",
        default=None,
        help="OpenAI-compatible endpoint of --llm, e.g. http://127.0.0.1:8080/v1.",
    ),
]
"""The server's options, in the order --help lists them."""


def _check_limits() -> None:
    """Read every limit the jobs use from the environment now, so that one set wrong
    stops the server at its start, not each job later as if the input were at fault."""
    import importlib

    # each reads its limits when imported: MAIEUTIC_ASK_MAX_CHARS, MAIEUTIC_PDF_MAX_*,
    # MAIEUTIC_PROGRESS_INTERVAL (the web app's own imports read MAIEUTIC_WEB_*)
    for module in ("maieutic.ask.reading", "maieutic.data.pdf_bounds", "maieutic.progress"):
        importlib.import_module(module)
    from maieutic.data.files import max_input_bytes

    max_input_bytes()


@click.command("serve")
@stack(_OPTIONS)
def serve(
    host: str,
    allow_host: tuple[str, ...],
    port: int,
    *,
    max_upload_mb: float,
    header_timeout: float,
    max_connections: int,
    job_seconds: float,
    llm: str | None,
    base_url: str | None,
) -> None:
    """Serve the local web app until interrupted: ask about a text (spans highlighted),
    score critical-question submissions into a leaderboard, and see results files as
    the HTML report. The URL is printed once the port is bound.

    \b
      maieutic serve               # http://127.0.0.1:8000/
      maieutic serve --port 0      # a free port
      maieutic serve --host 0.0.0.0 --allow-host box.lan   # others use http://box.lan:8000/
      maieutic serve --llm NAME --base-url http://127.0.0.1:8080/v1   # Ask asks a model
    """
    from maieutic.web import Settings, create_app, server
    from maieutic.web.guard import allowed_hosts

    _check_limits()
    if llm is not None or base_url is not None:
        # a model that cannot be had is refused now, not by every ask later
        from maieutic.llm.backends.factory import make_backend

        make_backend("auto", model=llm, base_url=base_url)

    allowed = allowed_hosts(host, allow_host)
    warning = server.host_warning(host, allowed)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    settings = Settings(
        max_upload_bytes=int(max_upload_mb * 1_000_000),
        allowed_hosts=allowed,
        job_seconds=job_seconds,
        llm=llm,
        base_url=base_url,
    )
    app = create_app(settings)
    try:
        server.run(
            app,
            host,
            port,
            announce=lambda url: click.echo(f"maieutic: serving {url} (Ctrl+C stops it)"),
            header_timeout=header_timeout,
            max_connections=max_connections,
        )
    except OSError as exc:  # port taken, address not on this machine
        raise RunError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
