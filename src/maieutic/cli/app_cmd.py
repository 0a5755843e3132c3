"""``maieutic serve``: the local web app."""

from __future__ import annotations

import click


@click.command("serve")
def serve() -> None:
    """Serve the local web app (being built)."""
    raise click.UsageError("maieutic serve is not built yet")
