"""Where maieutic keeps its state: one directory, ``MAIEUTIC_HOME``.

Everything persistent (embedding cache, later the LLM call cache and log) lives
under it, so a user can move, inspect or delete all state in one place.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

HOME_ENV = "MAIEUTIC_HOME"


def maieutic_home() -> Path:
    """Return the state directory, creating it if needed.

    ``$MAIEUTIC_HOME`` wins; otherwise the per-user cache directory.
    """
    configured = os.environ.get(HOME_ENV)
    home = Path(configured) if configured else Path(platformdirs.user_cache_dir("maieutic"))
    home.mkdir(parents=True, exist_ok=True)
    return home
