"""Which sentence-embedding model a component uses and how, in one place: every
registered factory that embeds takes these as plain keyword arguments with these
defaults and gathers them into one ``EmbeddingOptions``; the command line's options show
the same defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from maieutic.embed.encoder import DEFAULT_BATCH_SIZE, DEFAULT_MODEL, Encoder


@dataclass(frozen=True, kw_only=True)
class EmbeddingOptions:
    """The embedding model, its backend and its batch size (by keyword: the model and
    the backend are both names)."""

    embedding_model: str = DEFAULT_MODEL
    embedding_backend: str = "torch"
    batch_size: int = DEFAULT_BATCH_SIZE

    @classmethod
    def of(cls, arguments: Mapping[str, object]) -> EmbeddingOptions:
        """The options among a factory's arguments (``EmbeddingOptions.of(locals())``),
        each field named once while the factory keeps the flat parameters its ``Spec``
        records."""
        return cls(**{f.name: arguments[f.name] for f in fields(cls)})  # type: ignore[arg-type]

    def encoder(self) -> Encoder:
        """An encoder for this model (loaded on first use)."""
        return Encoder(
            self.embedding_model, backend=self.embedding_backend, batch_size=self.batch_size
        )


EMBEDDING_DEFAULTS = EmbeddingOptions()
"""The defaults every factory and the command line use."""
