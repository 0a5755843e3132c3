"""From a labelled file to a saved scorer: read (through the task's registered example
source, ``maieutic.scorers.sources``), embed (cached), cross-validate, fit, save.
Shared by ``maieutic train scorer`` and the benchmarks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from maieutic.data.files import read_bytes
from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore
from maieutic.scorers.examples import Examples
from maieutic.scorers.features import dense_version, pair_features
from maieutic.scorers.sources import DEFAULT, checked, example_source
from maieutic.scorers.train import Trained, train


def read_examples(
    task: str,
    path: str | Path,
    *,
    kind: str = DEFAULT,
    encoder: Encoder | None = None,
    store: EmbeddingStore | None = None,
    **options: Any,
) -> Examples:
    """The labelled pairs of ``path`` for ``task``, read by its example source ``kind``
    built with ``options`` (a source that embeds its candidates needs ``encoder``)."""
    source = example_source(task, kind, **options)
    return checked(source.read(Path(path), encoder, store), path)


def train_from_file(
    task: str,
    path: str | Path,
    encoder: Encoder,
    *,
    c: float | None = None,
    seed: int = 0,
    cache: bool = True,
    kind: str = DEFAULT,
    **options: Any,
) -> Trained:
    """The trained scorer and its cross-validation figures.

    ``kind`` names the task's example source and ``options`` are its own (None means
    not given), e.g. a scheme file for a source built from templates."""
    source = example_source(task, kind, **options)
    store = EmbeddingStore() if cache else None
    examples = checked(source.read(Path(path), encoder, store), path)
    features = pair_features(
        encoder,
        examples.contexts,
        examples.questions,
        examples.schemes,
        store,
        dense_version(source.features),  # an n-gram block is learned per fold
    )
    return train(
        examples,
        features,
        task=task,
        data_bytes=read_bytes(path),
        data_name=Path(path).name,
        encoder_identity=encoder.identity,
        encoder_model=encoder.model_name,
        c=c,
        seed=seed,
        features_version=source.features,
        source=dict(source.source),
    )
