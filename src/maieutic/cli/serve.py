"""``maieutic serve``: the local web app."""

from __future__ import annotations

import click

from maieutic.errors import RunError
from maieutic.web.server import DEFAULT_HOST, DEFAULT_PORT


@click.command("serve")
@click.option(
    "--host",
    default=DEFAULT_HOST,
    show_default=True,
    help="Interface to listen on (loopback by default; anything else is reachable from "
    "other machines, and the app has no login).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="Port; 0 picks a free one.",
)
@click.option(
    "--max-upload-mb",
    type=click.FloatRange(min=0.001),
    default=10.0,
    show_default=True,
    help="Largest request the app accepts (all files of one upload together), in MB.",
)
def serve(host: str, port: int, max_upload_mb: float) -> None:
    """Serve the local web app until interrupted: ask about a text (spans highlighted),
    score critical-question submissions into a leaderboard, and see results files as
    the HTML report. The URL is printed once the port is bound.

    \b
      maieutic serve               # http://127.0.0.1:8000/
      maieutic serve --port 0      # a free port
    """
    from maieutic.web import Settings, create_app, server

    warning = server.host_warning(host)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    settings = Settings(
        max_upload_bytes=int(max_upload_mb * 1_000_000), loopback_only=warning is None
    )
    app = create_app(settings)
    try:
        server.run(
            app,
            host,
            port,
            announce=lambda url: click.echo(f"maieutic: serving {url} (Ctrl+C stops it)"),
        )
    except OSError as exc:  # port taken, address not on this machine
        raise RunError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
