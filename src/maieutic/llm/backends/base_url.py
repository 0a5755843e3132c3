"""What a server's base URL may hold, checked where a backend is chosen and again where an
OpenAI-compatible backend keeps it (both import it from here)."""

from __future__ import annotations

from maieutic.errors import DataError


def refuse_fragment(base_url: str) -> None:
    """A base URL has no fragment (``#…``): a client never sends it, so a key written
    there would reach no server, only the cache and the run's records. Refused, with
    nothing after the ``#`` shown."""
    if "#" in base_url:
        from maieutic.provenance import redact_url

        shown = redact_url(base_url.partition("#")[0])
        raise DataError(
            f"--base-url {shown}#…: a base URL has no fragment (nothing after '#' is ever "
            "sent to the server); leave it out, and give a key in MAIEUTIC_API_KEY"
        )
