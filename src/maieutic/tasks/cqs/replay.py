"""A stand-in for a language model that answers with a real system's stored questions.

Every route that asks a model for critical questions (``generate cqs --generator llm``
or ``model-first``, ``ask --llm``, the web app) can be measured on what a real system
wrote, offline: ``maieutic cqs replay CANDIDATES`` serves an OpenAI-compatible
endpoint (``maieutic.llm.reply_server``) whose reply to a request is the numbered list
of the questions stored for the text the request is about — the stored text that
occurs in the request's messages (compared with runs of white space made one space;
the one that ends last, as a few-shot prompt's own text follows its examples, and the
longest where one stored text holds another). People's labels of those questions
then score whatever the route shows.

The server answers to one model name, ``replay-`` and the candidates' content hash
(``ReplayIndex.model``), so the cache of model calls never serves one file's replies
for another's. A request that quotes one of the text's stored questions between ``<question>`` tags,
as the LLM judges of this task do (``maieutic.tasks.cqs.judges``), is answered with the
question's stored label, where the file has one: a judge that agrees with people
exactly, the ceiling of the model-as-its-own-judge selector. A request about no stored
text, or a judge's request about a question with no label, is refused (HTTP 404), so
the route records a failed model call rather than an invented reply.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import Any

from maieutic.errors import DataError
from maieutic.generate.parsing import parse_questions
from maieutic.llm.reply_server import ReplyRefused
from maieutic.tasks.cqs.candidates import Candidates

REPLAY_PREFIX = "replay-"
"""The model name a replay server answers to: this and the first 12 hex digits of its
candidates' content hash, so that replies cached from one file are never taken for
another's (a cached reply is keyed on the model's name and the server's URL)."""
_QUESTION_FENCE = re.compile(r"<question>\n(.*?)\n</question>", re.DOTALL)


def _flat(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True, kw_only=True)
class _Stored:
    iid: str
    text: str
    questions: tuple[str, ...]
    labels: dict[str, str]


class ReplayIndex:
    """The stored questions of each text, found from a request's messages.

    ``per_reply`` caps the questions of one reply (None: all of the text's)."""

    def __init__(self, candidates: Candidates, *, per_reply: int | None = None) -> None:
        if per_reply is not None and per_reply < 1:
            raise ValueError("per_reply must be at least 1")
        self.per_reply = per_reply
        self.source = candidates.source
        self.fingerprint = candidates.fingerprint()
        self.model = REPLAY_PREFIX + self.fingerprint.removeprefix("sha256:")[:12]
        """The model name requests must ask for."""
        stored = []
        by_text: dict[str, _Stored] = {}
        for iid, found in candidates.sets.items():
            labels: dict[str, str] = {}
            for q, label in zip(found.questions, found.labels, strict=True):
                if label is not None:  # as stored, and as a route reads it from a reply
                    for form in (q, *parse_questions(f"1. {q}", whole_items=True)):
                        labels.setdefault(_flat(form), label)
            text = _flat(found.intervention.intervention)
            entry = _Stored(iid=iid, text=text, questions=found.questions, labels=labels)
            same = by_text.get(text)
            if same is not None and (same.questions, same.labels) != (found.questions, labels):
                # a request cannot say which of the two it is about
                raise DataError(
                    f"{json.dumps(iid)} and {json.dumps(same.iid)} have the same text but "
                    "other questions: a replay cannot tell which one a request is about",
                    where=candidates.source,
                )
            if same is None:
                by_text[text] = entry
                stored.append(entry)
        self._stored = stored
        self.answered: dict[str, int] = {}
        """Requests answered per intervention id (questions and labels together)."""
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._stored)

    def find(self, prompt: str) -> _Stored | None:
        """The stored text the request is about, or None: of those that occur in
        ``prompt``, the one that ends last (a few-shot prompt shows other texts as
        examples before its own), the longest where two end together."""
        flat = _flat(prompt)
        best, best_key = None, (-1, -1)
        for stored in self._stored:
            at = flat.rfind(stored.text) if stored.text else -1
            if at >= 0 and (key := (at + len(stored.text), len(stored.text))) > best_key:
                best, best_key = stored, key
        return best

    def answer(self, body: dict[str, Any]) -> str:
        """The reply to one chat request (``ReplyServer``'s answer function)."""
        prompt = "\n".join(
            str(m.get("content", ""))
            for m in body.get("messages", [])
            if isinstance(m, dict) and m.get("role") != "assistant"
        )
        if body.get("model") != self.model:
            raise ReplyRefused(
                f"replay: this server replays {self.source} as model {self.model!r}, "
                f"not {body.get('model')!r} (--llm {self.model})"
            )
        stored = self.find(prompt)
        if stored is None:
            raise ReplyRefused(
                f"replay: no stored text occurs in this request ({len(self)} texts stored "
                f"from {self.source})"
            )
        with self._lock:  # the server answers from several threads
            self.answered[stored.iid] = self.answered.get(stored.iid, 0) + 1
        quoted = _QUESTION_FENCE.search(prompt)
        if quoted:
            label = stored.labels.get(_flat(quoted.group(1)))
            if label is None:
                raise ReplyRefused(
                    f"replay: no stored label for the question this request judges ({stored.iid})"
                )
            return label
        questions = stored.questions[: self.per_reply]
        return "\n".join(f"{i}. {q}" for i, q in enumerate(questions, start=1))
