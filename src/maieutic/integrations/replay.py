"""Clients whose backend is a framework's run: one that records what a generator asks
(answering nothing), and one that answers each request with the reply the framework
got for it.

Both have no cache and no call log (the framework keeps its own) and never retry: a
request the run has no reply for, or an empty reply, fails at once, and the generator
treats it as it treats a failed call (``Missing CQs``, an empty prediction, with its
reason). maieutic's own client would retry an empty reply with another seed; a
framework's reply is what it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import LLMClient, RetryPolicy
from maieutic.llm.types import ChatRequest, PermanentError

Messages = tuple[tuple[str, str], ...]
"""A chat request's messages as (role, content) pairs."""

NOT_ANSWERED = "no reply in the framework's run for this request"


def _client(backend: ScriptedBackend) -> LLMClient:
    return LLMClient(backend, None, concurrency=4, retry=RetryPolicy(retries=0))


def recording_client() -> LLMClient:
    """A client whose backend keeps every request (``client.backend.history``) and
    answers none."""

    def refuse(request: ChatRequest) -> Exception:
        return PermanentError(NOT_ANSWERED)

    return _client(ScriptedBackend(default=refuse, model="framework"))


def replaying_client(replies: Mapping[Messages, str]) -> LLMClient:
    """A client answering each request with ``replies[request.messages]``."""

    def answer(request: ChatRequest) -> str | Exception:
        found = replies.get(request.messages)
        return PermanentError(NOT_ANSWERED) if found is None else found

    return _client(ScriptedBackend(default=answer, model="framework"))


def replayed_judgements(judged: list[list[Any]], *, model: str) -> ScriptedBackend:
    """A backend answering a judge's calls with the judgements a framework's run
    recorded (``[messages, seed, reply]`` each, as the inspect tasks keep them); a call
    the run did not make fails at once."""
    found = {(messages_of(listed), seed): reply for listed, seed, reply in judged}

    def answer(request: ChatRequest) -> str | Exception:
        reply = found.get((request.messages, request.params.seed))
        return PermanentError(NOT_ANSWERED) if reply is None else reply

    return ScriptedBackend(default=answer, model=model)


def messages_of(listed: Any) -> Messages:
    """Messages as a log or a JSON file lists them (``[[role, content], …]``)."""
    return tuple((str(role), str(content)) for role, content in listed)


def llm_judges(component: Any, depth: int = 0) -> Iterator[Any]:
    """The LLM judges (``maieutic.evaluate.judge.LLMJudge``) inside an evaluator: each
    reaches its model through ``judge.client``, whose backend a framework's run
    replaces (a few attribute levels down: evaluator → matcher or rubric → judge)."""
    from maieutic.evaluate.judge import LLMJudge

    if isinstance(component, LLMJudge):
        yield component
        return
    if depth >= 4 or not hasattr(component, "__dict__"):
        return
    for value in vars(component).values():
        yield from llm_judges(value, depth + 1)
