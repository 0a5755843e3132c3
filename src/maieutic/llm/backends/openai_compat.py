"""Any OpenAI-compatible chat-completions server: hosted APIs, vLLM, Ollama, llama.cpp.

Built on httpx rather than the OpenAI SDK because the client layer owns retries and
must see ``Retry-After`` and the exact failure kind; the SDK would retry on its own.
"""

from __future__ import annotations

import base64
import json
import os
from urllib.parse import unquote, unquote_plus

import httpx

from maieutic.errors import DataError
from maieutic.llm.backends.base_url import refuse_fragment
from maieutic.llm.client import redact
from maieutic.llm.types import (
    EMPTY_REPLY,
    BackendReply,
    ChatRequest,
    PermanentError,
    TransientError,
)
from maieutic.provenance import query_credentials, redact_url

API_KEY_ENVS = ("MAIEUTIC_API_KEY", "OPENAI_API_KEY")
_RETRYABLE_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
ERROR_SNIPPET_CHARS = 200
"""How much of an error reply's body a message keeps."""


def api_key_from_env() -> str | None:
    """The API key: ``MAIEUTIC_API_KEY``, else ``OPENAI_API_KEY``, else None."""
    found = _key_and_source()
    return found[0] if found else None


def _key_and_source() -> tuple[str, str] | None:
    for name in API_KEY_ENVS:
        if os.environ.get(name):
            return os.environ[name], name
    return None


def check_api_key(key: str, *, source: str) -> None:
    """Refuse a key that cannot go in an HTTP header, naming the position of the first
    bad character but never the key: httpx would raise a ``UnicodeEncodeError`` (or a
    protocol error) whose traceback shows the whole key."""
    for position, char in enumerate(key, start=1):
        if not char.isascii():
            problem = "a non-ASCII character"
        elif not char.isprintable():
            problem = "a control character (a line break?)"
        else:
            continue
        raise DataError(
            f"the API key ({source}) contains {problem} at position {position}; "
            "check that it was copied whole and nothing else with it"
        )


def url_secrets(url: str) -> list[str]:
    """The credentials in ``url``: its user part, the Basic token httpx makes of it (a
    server may echo the Authorization header), and the values of credential parameters
    in its query string (``?api_key=…``), as written and as a server decodes them."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return []
    found: list[str] = []
    for _, value in query_credentials(url):
        found += [value, unquote(value), unquote_plus(value)]
    user, password = unquote(parsed.username), unquote(parsed.password or "")
    if user or password:
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        # a user name alone is secret too: keys are often passed as http://KEY@host
        found += [password or user, token]
    return list(dict.fromkeys(s for s in found if s))


def endpoint(base_url: str, *, path: str) -> str:
    """``path`` under ``base_url``, its query string (where a key may be) kept after it:
    ``http://h/v1?api_key=K`` + ``chat/completions`` → ``http://h/v1/chat/completions?api_key=K``."""
    base, mark, query = base_url.partition("?")
    return f"{base.rstrip('/')}/{path}{mark}{query}"


def error_snippet(text: str, secrets: list[str]) -> str:
    """The start of an error reply's body, secrets removed *before* it is cut: a cut
    inside a secret would leave a piece of it that no longer matches it whole."""
    longest = max((len(s) for s in secrets), default=0)
    window = text[: ERROR_SNIPPET_CHARS + longest]  # a secret reaching into the kept part
    return redact(window, secrets)[:ERROR_SNIPPET_CHARS].replace("\n", " ")


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        return None  # an HTTP date; fall back to our own backoff


class OpenAICompatibleBackend:
    """Chat completions over HTTP at ``base_url`` (e.g. ``http://127.0.0.1:8080/v1``)."""

    kind = "openai"

    def __init__(self, base_url: str, *, model: str, api_key: str | None = None) -> None:
        refuse_fragment(base_url)  # before it is kept, shown or stored anywhere
        self.base_url = base_url.rstrip("/").replace("/?", "?", 1)
        """The URL requests go to (credentials included: never show or store it)."""
        self.shown_url = redact_url(self.base_url)
        """The URL as messages, logs and the cache show it (credentials as ``***``)."""
        self.model = model
        found = (api_key, "api_key") if api_key is not None else _key_and_source()
        self._api_key = found[0] if found else None
        if found and found[0]:
            check_api_key(found[0], source=found[1])
        self._check_url()
        self._client: httpx.AsyncClient | None = None

    def _check_url(self) -> None:
        try:
            httpx.URL(self.base_url)
        except httpx.InvalidURL as exc:
            reason = redact(str(exc), self.secrets)
            raise DataError(f"--base-url {self.shown_url!r} is not a valid URL: {reason}") from None

    runtime = "server"

    @property
    def model_identity(self) -> str:
        """The model name and the server's URL (never the key, nor credentials in the
        URL): two servers may serve different weights under one name, so they must not
        share cached replies."""
        return f"{self.model}@{self.shown_url}"

    @property
    def display_name(self) -> str:
        """The model name, as signatures show it."""
        return self.model

    @property
    def secrets(self) -> list[str]:
        """Strings that must never appear in logs or messages."""
        keys = [self._api_key] if self._api_key else []
        return keys + url_secrets(self.base_url)

    def _http(self, timeout: float) -> httpx.AsyncClient:
        if self._client is None:
            headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
            self._client = httpx.AsyncClient(
                headers=headers, timeout=timeout, limits=httpx.Limits(max_connections=256)
            )
        return self._client

    async def chat(self, request: ChatRequest, timeout: float) -> BackendReply:
        """One chat-completions call."""
        params = request.params
        body = {
            "model": self.model,
            "messages": request.openai_messages(),
            "temperature": params.temperature,
            "top_p": params.top_p,
            "max_tokens": params.max_tokens,
        }
        if params.seed is not None:
            body["seed"] = params.seed
        url = endpoint(self.base_url, path="chat/completions")
        shown = endpoint(self.shown_url, path="chat/completions")
        try:
            response = await self._http(timeout).post(url, json=body)
        except httpx.TimeoutException:
            raise TransientError(f"timed out after {timeout:g} s ({shown})") from None
        except httpx.ConnectError:
            raise TransientError(f"cannot connect to {shown} (is the server running?)") from None
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise TransientError(
                f"connection broken during the reply ({type(exc).__name__})"
            ) from None
        except httpx.HTTPError as exc:
            raise TransientError(f"HTTP failure: {type(exc).__name__}") from None
        if response.status_code in _RETRYABLE_STATUS:
            raise TransientError(
                f"server answered {response.status_code}", retry_after=_retry_after(response)
            )
        if response.status_code >= 400:
            snippet = error_snippet(response.text, self.secrets)
            raise PermanentError(f"server answered {response.status_code}: {snippet}")
        try:
            payload = response.json()
            choice = payload["choices"][0]
            text = choice["message"]["content"]
        except (json.JSONDecodeError, KeyError, IndexError, TypeError):
            raise TransientError("malformed reply (not a chat-completions JSON body)") from None
        if not isinstance(text, str) or not text.strip():
            raise TransientError(EMPTY_REPLY)
        usage = payload.get("usage") or {}
        return BackendReply(
            text=text,
            model=str(payload.get("model") or self.model),
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
        )

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None
