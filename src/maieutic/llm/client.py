"""The one path every LLM call takes.

``LLMClient`` adds to any backend: a concurrency limit, a per-request timeout,
retries with exponential backoff and full jitter that honour ``Retry-After``, the time
budget of the work it runs in (``maieutic.llm.budget``), the
persistent cache (a hit never reaches the backend) and a log row per call. Secrets
are scrubbed from every error message it produces, and from every reply before it is
cached or handed out: a server that echoes the request would otherwise put the key
into the cache and into whatever is written from the reply.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from maieutic.llm import budget
from maieutic.llm.keys import cache_key
from maieutic.llm.store import CallStore
from maieutic.llm.types import (
    EMPTY_REPLY,
    BackendReply,
    ChatRequest,
    ChatResult,
    PermanentError,
    TransientError,
)

MAX_RETRY_AFTER_S = 120.0
MIN_SECRET_PIECE = 8
"""A run of this many characters of a secret is a leak too (a key cut short by a
server's message or by a truncation still gives most of it away)."""
_sleep = asyncio.sleep  # one indirection, so tests can record backoff delays


class CallFailed(Exception):
    """A call that failed for good (after retries, or at once for permanent errors)."""

    def __init__(self, reason: str, request: ChatRequest) -> None:
        super().__init__(reason)
        self.reason = reason
        self.request = request


@dataclass
class RetryPolicy:
    """How failed calls are retried."""

    retries: int = 4
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number ``attempt`` (1-based)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), MAX_RETRY_AFTER_S)
        ceiling = min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))
        return rng.uniform(ceiling / 2, ceiling)


def redact(text: str, secrets: Sequence[str]) -> str:
    """Replace every secret in ``text`` by ``***``, and every run of
    ``MIN_SECRET_PIECE`` or more of its characters (a cut-off prefix, a suffix, a
    middle part) too."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return _redact_pieces(text, [s for s in secrets if len(s) >= MIN_SECRET_PIECE])


def redact_reply(text: str, secrets: Sequence[str]) -> str:
    """``redact`` for a model's reply, which must not lose ordinary words: a secret
    shorter than ``MIN_SECRET_PIECE`` is a placeholder (``?key=x`` for a local proxy),
    never replaced, or every ``x`` of every question would be lost; a whole secret is
    replaced, and a piece of one only when it looks like key material (a digit, or
    upper and lower case mixed, or a character other than a letter or ``-``), so a
    placeholder such as ``sk-no-key-required`` never blanks the word "required"."""
    long_enough = [s for s in secrets if len(s) >= MIN_SECRET_PIECE]
    for secret in long_enough:
        text = text.replace(secret, "***")
    return _redact_pieces(text, long_enough, only=_looks_like_key)


def _looks_like_key(piece: str) -> bool:
    letters = [c for c in piece if c.isalpha()]
    mixed_case = any(c.isupper() for c in letters) and any(c.islower() for c in letters)
    return mixed_case or any(not (c.isalpha() or c == "-") for c in piece)


def _redact_pieces(text: str, secrets: Sequence[str], only=None) -> str:
    # every piece of MIN_SECRET_PIECE characters or more is covered by overlapping
    # windows of exactly that length, so marking the windows finds them all
    size = MIN_SECRET_PIECE
    windows = {s[i : i + size] for s in secrets for i in range(len(s) - size + 1)}
    if only is not None:
        windows = {w for w in windows if only(w)}
    if not windows:
        return text
    hidden = [False] * len(text)
    for start in range(len(text) - size + 1):
        if text[start : start + size] in windows:
            hidden[start : start + size] = [True] * size
    out: list[str] = []
    for index, char in enumerate(text):
        if not hidden[index]:
            out.append(char)
        elif index == 0 or not hidden[index - 1]:
            out.append("***")
    return "".join(out)


def _result(reply: BackendReply, latency: float, cached: bool, *, key: str, redacted: bool):
    return ChatResult(
        text=reply.text,
        model=reply.model,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        latency_s=latency,
        cached=cached,
        key=key,
        redacted=redacted,
    )


def _say_redacted(count: int) -> None:
    """One line on stderr when replies held a secret: the text kept has ``***`` where
    it was, and the server (or the model) is worth a look."""
    if count:
        print(
            f"warning: {count} model {'reply' if count == 1 else 'replies'} held the API "
            "key or credentials from --base-url (or a piece of them), replaced by *** "
            "before anything was cached or written (the server or the model repeats what it "
            "is sent)",
            file=sys.stderr,
        )


class LLMClient:
    """Runs chat requests through a backend with caching, logging, limits and retries.

    Args:
        backend: an object with ``kind``, ``model_identity``, ``secrets`` and an async
            ``chat(request, timeout)`` returning a ``BackendReply``.
        store: the call cache and log; ``None`` disables both.
        concurrency: the most calls in flight at once.
        timeout_s: limit for one attempt.
        retry: the retry policy.
    """

    def __init__(
        self,
        backend,
        store: CallStore | None = None,
        *,
        concurrency: int = 4,
        timeout_s: float = 120.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.backend = backend
        self.store = store
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.retry = retry or RetryPolicy()
        self._rng = random.Random()
        self.backend_calls = 0
        """Attempts that reached the backend (cache hits excluded)."""
        self.redacted_replies = 0
        """Replies that held a secret (or a piece of one), replaced by ``***``."""

    def key(self, request: ChatRequest) -> str:
        """The cache key of ``request`` for this client's backend."""
        return cache_key(self.backend.model_identity, request)

    async def _attempt(self, request: ChatRequest):
        self.backend_calls += 1
        if getattr(self.backend, "times_its_calls", False):
            # a model in this process runs one call at a time: its clock starts when a
            # call's turn comes, not while it waits, and it stops a call out of time
            # (``maieutic.llm.backends.turns``); the time budget is applied there too
            return await self.backend.chat(request, self.timeout_s)
        left = budget.remaining()
        timeout = self.timeout_s if left is None else min(self.timeout_s, left)
        try:
            return await asyncio.wait_for(self.backend.chat(request, timeout), timeout)
        except TimeoutError:
            raise TransientError(f"timed out after {timeout:g} s") from None

    def _log(
        self,
        request: ChatRequest,
        key: str,
        reply,
        *,
        latency: float,
        cache_hit: bool,
        attempts: int,
        error: str | None,
        cache_under: tuple[str, ...] = (),
    ) -> None:
        if self.store:
            self.store.log(
                cache_under=cache_under,
                backend=self.backend.kind,
                model=self.backend.model_identity,
                key=key,
                tag=request.tag,
                latency_s=latency,
                reply=reply,
                cache_hit=cache_hit,
                attempts=attempts,
                error=error,
            )

    async def complete(self, request: ChatRequest, semaphore: asyncio.Semaphore) -> ChatResult:
        """Run one request (cached if possible); raises ``CallFailed`` when it cannot."""
        key = self.key(request)
        if self.store and (hit := self.store.get(key)) is not None:
            # a row cached before replies were scrubbed is scrubbed on its way out,
            # and stored again without the secret (pieces are replaced only where they
            # look like key material, so an ordinary reply is never rewritten)
            hit, redacted = self._scrub(hit)
            if redacted:
                self.store.put(key, hit)
            self._log(request, key, hit, latency=0.0, cache_hit=True, attempts=0, error=None)
            return _result(hit, 0.0, True, key=key, redacted=redacted)
        attempts = empties = 0
        sent = request  # what the next attempt sends: another seed after an empty reply
        while True:
            attempts += 1
            if budget.remaining() == 0.0:
                self._log(
                    request,
                    key,
                    None,
                    latency=0.0,
                    cache_hit=False,
                    attempts=attempts - 1,
                    error=budget.SPENT,
                )
                raise CallFailed(budget.SPENT, request)
            async with semaphore:
                start = time.perf_counter()
                reply, error, retry_after, permanent = await self._try(sent)
                latency = time.perf_counter() - start
            log = {"latency": latency, "cache_hit": False, "attempts": attempts}
            if reply is not None:
                reply, redacted = self._scrub(reply)
                # cached with its log row, in one commit: under the request's key (a
                # resumed run gets it at once, as this run did) and, when it came from
                # a retry after an empty reply, under the key of the request that drew
                # it (its seed recorded)
                under = (key,) if sent is request else (key, self.key(sent))
                self._log(request, key, reply, **log, error=None, cache_under=under)
                return _result(reply, latency, False, key=key, redacted=redacted)
            if error == EMPTY_REPLY:
                empties += 1
                sent = replace(request, params=request.params.after_empty(empties))
            error = redact(error or "unknown error", self.backend.secrets)
            left = budget.remaining()
            if permanent or attempts > self.retry.retries or left == 0.0:
                self._log(request, key, None, **log, error=error)
                tries = f" after {attempts} attempts" if attempts > 1 else ""
                spent = f"; {budget.SPENT}" if left == 0.0 and not permanent else ""
                raise CallFailed(f"{error}{tries}{spent}", request)
            delay = self.retry.delay(attempts, retry_after, self._rng)
            await _sleep(delay if left is None else min(delay, left))

    def _scrub(self, reply: BackendReply) -> tuple[BackendReply, bool]:
        """``reply`` with the backend's secrets (and pieces of them) replaced by ``***``
        in its text and model name, and whether anything was replaced."""
        secrets = list(getattr(self.backend, "secrets", ()))
        text, model = redact_reply(reply.text, secrets), redact_reply(reply.model, secrets)
        if (text, model) == (reply.text, reply.model):
            return reply, False
        self.redacted_replies += 1
        return replace(reply, text=text, model=model), True

    async def _try(self, request: ChatRequest):
        """One attempt: ``(reply, error, retry_after, permanent)``."""
        try:
            reply = await self._attempt(request)
            if not reply.text.strip():
                # an empty reply is a failure of the call, whatever the backend:
                # retried with another seed, never cached as if it were the model's answer
                raise TransientError(EMPTY_REPLY)
            return reply, None, None, False
        except TransientError as exc:
            return None, str(exc), exc.retry_after, False
        except PermanentError as exc:
            return None, str(exc), None, True

    async def complete_all(
        self,
        requests: Sequence[ChatRequest],
        on_done: Callable[[int, ChatResult | CallFailed], None] | None = None,
    ) -> list[ChatResult | CallFailed]:
        """Run many requests concurrently; failures are returned, not raised."""
        semaphore = asyncio.Semaphore(self.concurrency)

        async def one(index: int, request: ChatRequest):
            try:
                outcome: ChatResult | CallFailed = await self.complete(request, semaphore)
            except CallFailed as exc:
                outcome = exc
            if on_done:
                on_done(index, outcome)
            return outcome

        redacted_before = self.redacted_replies
        tasks = [asyncio.ensure_future(one(i, r)) for i, r in enumerate(requests)]
        try:
            return await asyncio.gather(*tasks)
        except BaseException:
            # one call's error (a full disk under the cache) ends the run: stop the
            # others and collect how they end here, or asyncio.run reports each one
            # that fails as it is cancelled as an unhandled exception, with a traceback
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        finally:
            close = getattr(self.backend, "aclose", None)
            if close:
                await close()
            _say_redacted(self.redacted_replies - redacted_before)

    def run_all(
        self, requests: Sequence[ChatRequest], on_done=None
    ) -> list[ChatResult | CallFailed]:
        """Synchronous wrapper around ``complete_all`` (with a "model calls" progress bar
        when the caller passes no ``on_done``)."""
        if on_done is not None:
            return asyncio.run(self.complete_all(requests, on_done))
        from maieutic.progress import progress

        with progress("model calls", len(requests)) as update:
            finished = 0

            def count(*_) -> None:
                nonlocal finished
                finished += 1
                update(finished, len(requests))

            return asyncio.run(self.complete_all(requests, count))
