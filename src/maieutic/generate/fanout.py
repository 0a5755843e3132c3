"""Request fan-out: many (item, request) jobs through the one LLM client at once.

A task builds every request of a run up front (items × strategies × samples, in a
fixed order); ``fan_out`` runs them concurrently through the client (cached, so a
killed run resumes without repeating a finished call) and hands the replies back
grouped by item, in job order, with counts of what reached the model.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from maieutic.llm.client import CallFailed, LLMClient
from maieutic.llm.types import ChatRequest, ChatResult


@dataclass(kw_only=True)
class FanOutStats:
    """What a fan-out cost."""

    requests: int = 0
    cache_hits: int = 0
    failed: int = 0
    sent: int = 0
    """Requests that reached the model (each retry counted; never a cache hit): what
    the model's server received."""

    @property
    def model_calls(self) -> int:
        """Requests answered by the model itself (not the cache, not failed)."""
        return self.requests - self.cache_hits - self.failed

    def add(self, other: FanOutStats) -> None:
        """Accumulate another fan-out's counts."""
        self.requests += other.requests
        self.cache_hits += other.cache_hits
        self.failed += other.failed
        self.sent += other.sent

    def summary(self) -> str:
        """The line a command prints: the requests it sent to the model (retries
        included: what the server received), the calls the cache answered, the calls
        that failed for good."""
        return (
            f"model calls: {self.sent} made, {self.cache_hits} served from the cache, "
            f"{self.failed} failed"
        )


def fan_out(
    client: LLMClient,
    jobs: Sequence[tuple[Hashable, ChatRequest]],
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[Hashable, list[ChatResult | CallFailed]], FanOutStats]:
    """Run every job's request; replies grouped by item key in job order. Without an
    ``on_progress`` callback, a "model calls" progress bar shows the calls."""
    if on_progress is None:
        from maieutic.progress import progress as progress_bar

        with progress_bar("model calls") as update:
            return fan_out(client, jobs, update)
    done = 0

    def progress(_: int, __: object) -> None:
        nonlocal done
        done += 1
        on_progress(done, len(jobs))

    sent_before = client.backend_calls
    replies = client.run_all([request for _, request in jobs], on_done=progress)
    grouped: dict[Hashable, list[ChatResult | CallFailed]] = {key: [] for key, _ in jobs}
    stats = FanOutStats(requests=len(jobs), sent=client.backend_calls - sent_before)
    for (key, _), reply in zip(jobs, replies, strict=True):
        grouped[key].append(reply)
        if isinstance(reply, CallFailed):
            stats.failed += 1
        elif reply.cached:
            stats.cache_hits += 1
    return grouped, stats
