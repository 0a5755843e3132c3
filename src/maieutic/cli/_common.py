"""Pieces shared by the subcommands: writing results files safely, printing warnings."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from maieutic.errors import RunError

MAX_WARNINGS_SHOWN = 10


def write_json_atomic(path: str | Path, payload: Any) -> None:
    """Write JSON to ``path`` via a temporary file, so a crash never leaves half a file."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(payload, handle, ensure_ascii=False, indent=2)
            handle.write("\n")
        os.replace(tmp, path)
    except OSError as exc:
        raise RunError(f"cannot write results: {exc.strerror}", where=str(path)) from None


def echo_warnings(prefix: str, warnings: Sequence[str]) -> None:
    """Print up to ``MAX_WARNINGS_SHOWN`` warnings on stderr, then a count of the rest."""
    for line in warnings[:MAX_WARNINGS_SHOWN]:
        click.echo(f"warning: {prefix}: {line}", err=True)
    if len(warnings) > MAX_WARNINGS_SHOWN:
        rest = len(warnings) - MAX_WARNINGS_SHOWN
        click.echo(f"warning: {prefix}: … and {rest} more (all are in the results file)", err=True)
