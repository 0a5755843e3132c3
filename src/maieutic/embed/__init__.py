"""Sentence embeddings: the embedded default model, any sentence-transformers model,
and an on-disk cache so each distinct text is encoded once per model."""

from maieutic.embed.encoder import DEFAULT_MODEL, Encoder
from maieutic.embed.store import EmbeddingStore, embed_texts

__all__ = ["DEFAULT_MODEL", "EmbeddingStore", "Encoder", "embed_texts"]
