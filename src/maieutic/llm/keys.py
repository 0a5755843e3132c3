"""Cache keys: a versioned hash of canonical JSON of what determines a model's output.

Only output-affecting inputs go in: the backend's model identity, the messages, the
generation parameters and the sample index. Timeouts, retries, concurrency and API
keys do not, so changing them never invalidates the cache. The ``v1:`` prefix lets a
future change of scheme be detected instead of silently colliding.
"""

from __future__ import annotations

import hashlib
import json

from maieutic.llm.types import ChatRequest

KEY_VERSION = "v1"


def canonical_request(model_identity: str, request: ChatRequest) -> str:
    """The canonical JSON text that is hashed into the key."""
    params = request.params
    payload = {
        "model": model_identity,
        "messages": [[role, content] for role, content in request.messages],
        "params": {
            "temperature": params.temperature,
            "top_p": params.top_p,
            "max_tokens": params.max_tokens,
            "seed": params.seed,
        },
        "sample_index": request.sample_index,
    }
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def cache_key(model_identity: str, request: ChatRequest) -> str:
    """``v1:`` + sha256 of the canonical request."""
    digest = hashlib.sha256(canonical_request(model_identity, request).encode("utf-8"))
    return f"{KEY_VERSION}:{digest.hexdigest()}"
