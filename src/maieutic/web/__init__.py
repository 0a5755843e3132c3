"""``maieutic serve``: a local web app over the library — Ask (questions for a pasted
or uploaded text, spans highlighted), Leaderboard (score critical-question
submissions) and Report (results files as the HTML report)."""

from __future__ import annotations

from typing import Any

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # FastAPI is imported only when the app is built: ``maieutic --help`` and every
    # other command stay quick to start
    if name in __all__:
        from maieutic.web import app

        return getattr(app, name)
    raise AttributeError(name)
