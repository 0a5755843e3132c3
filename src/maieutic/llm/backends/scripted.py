"""A scripted backend: queued replies and a recorded history, for tests and dry runs."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from maieutic.llm.types import BackendReply, ChatRequest

Reply = str | Exception | Callable[[ChatRequest], "str | Exception"]


class ScriptedBackend:
    """Answers each call with the next queued item (a text, an exception to raise, or a
    function of the request). With an empty queue it uses ``default`` if given."""

    kind = "scripted"
    secrets: tuple[str, ...] = ()

    def __init__(
        self,
        replies: list[Reply] | None = None,
        *,
        default: Reply | None = None,
        model: str = "scripted",
        delay_s: float = 0.0,
    ) -> None:
        self.queue: deque[Reply] = deque(replies or [])
        self.default = default
        self.model_identity = model
        self.delay_s = delay_s
        self.history: list[ChatRequest] = []

    def enqueue(self, *replies: Reply) -> None:
        """Add replies to the end of the queue."""
        self.queue.extend(replies)

    async def chat(self, request: ChatRequest, timeout: float) -> BackendReply:
        """Record the request and play the next scripted reply."""
        self.history.append(request)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if self.queue:
            item = self.queue.popleft()
        elif self.default is not None:
            item = self.default
        else:
            raise AssertionError("scripted backend: no reply queued")
        if callable(item) and not isinstance(item, Exception):
            item = item(request)
        if isinstance(item, Exception):
            raise item
        return BackendReply(
            text=item,
            model=self.model_identity,
            prompt_tokens=sum(len(c.split()) for _, c in request.messages),
            completion_tokens=len(item.split()),
        )
