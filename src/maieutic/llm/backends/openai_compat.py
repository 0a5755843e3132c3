"""Any OpenAI-compatible chat-completions server: hosted APIs, vLLM, Ollama, llama.cpp.

Built on httpx rather than the OpenAI SDK because the client layer owns retries and
must see ``Retry-After`` and the exact failure kind; the SDK would retry on its own.
"""

from __future__ import annotations

import json
import os

import httpx

from maieutic.llm.types import BackendReply, ChatRequest, PermanentError, TransientError

API_KEY_ENVS = ("MAIEUTIC_API_KEY", "OPENAI_API_KEY")
_RETRYABLE_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


def api_key_from_env() -> str | None:
    """The API key: ``MAIEUTIC_API_KEY``, else ``OPENAI_API_KEY``, else None."""
    for name in API_KEY_ENVS:
        if os.environ.get(name):
            return os.environ[name]
    return None


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

    def __init__(self, base_url: str, model: str, api_key: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._api_key = api_key if api_key is not None else api_key_from_env()
        self._client: httpx.AsyncClient | None = None

    runtime = "server"

    @property
    def model_identity(self) -> str:
        """The model name and the server's URL (never the key): two servers may serve
        different weights under one name, so they must not share cached replies."""
        return f"{self.model}@{self.base_url}"

    @property
    def display_name(self) -> str:
        """The model name, as signatures show it."""
        return self.model

    @property
    def secrets(self) -> list[str]:
        """Strings that must never appear in logs or messages."""
        return [self._api_key] if self._api_key else []

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
        url = f"{self.base_url}/chat/completions"
        try:
            response = await self._http(timeout).post(url, json=body)
        except httpx.TimeoutException:
            raise TransientError(f"timed out after {timeout:g} s ({url})") from None
        except httpx.ConnectError:
            raise TransientError(f"cannot connect to {url} (is the server running?)") from None
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
            snippet = response.text[:200].replace("\n", " ")
            raise PermanentError(f"server answered {response.status_code}: {snippet}")
        try:
            payload = response.json()
            choice = payload["choices"][0]
            text = choice["message"]["content"]
        except (json.JSONDecodeError, KeyError, IndexError, TypeError):
            raise TransientError("malformed reply (not a chat-completions JSON body)") from None
        if not isinstance(text, str) or not text.strip():
            raise TransientError("empty content in the reply")
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
