"""From a labelled file to a saved scorer: read (through the task's registered example
source, ``maieutic.scorers.sources``), embed (cached), cross-validate, fit, save.
Shared by ``maieutic train scorer`` and the benchmarks."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maieutic.data.files import read_bytes
from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore
from maieutic.errors import DataError
from maieutic.scorers.examples import Examples
from maieutic.scorers.features import dense_version, pair_features
from maieutic.scorers.sources import DEFAULT, ExampleSource, checked, example_source
from maieutic.scorers.train import Trained, train


def _paths(path: str | Path | Sequence[str | Path]) -> list[Path]:
    return [Path(path)] if isinstance(path, str | Path) else [Path(p) for p in path]


def _read(source: ExampleSource, paths: list[Path], encoder, *, store) -> Examples:
    """The pairs of one file, or of several read as one by a source that can."""
    if len(paths) == 1:
        return checked(source.read(paths[0], encoder, store), paths[0])
    if source.read_many is None:
        raise DataError("--data once only: this source learns from one file")
    return checked(source.read_many(paths, encoder, store), ", ".join(map(str, paths)))


def read_examples(
    task: str,
    path: str | Path | Sequence[str | Path],
    *,
    kind: str = DEFAULT,
    encoder: Encoder | None = None,
    store: EmbeddingStore | None = None,
    **options: Any,
) -> Examples:
    """The labelled pairs of ``path`` (or several files) for ``task``, read by its
    example source ``kind`` built with ``options`` (a source that embeds its candidates
    needs ``encoder``)."""
    source = example_source(task, kind=kind, **options)
    return _read(source, _paths(path), encoder, store=store)


def train_from_file(
    task: str,
    path: str | Path | Sequence[str | Path],
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
    source = example_source(task, kind=kind, **options)
    store = EmbeddingStore() if cache else None
    paths = _paths(path)
    examples = _read(source, paths, encoder, store=store)
    recorded = dict(source.source)
    if len(paths) > 1:  # each file's hash, beside the hash of them all
        recorded["files"] = [
            {"name": p.name, "sha256": hashlib.sha256(read_bytes(p)).hexdigest()} for p in paths
        ]
    features = pair_features(
        encoder,
        examples.contexts,
        questions=examples.questions,
        schemes=examples.schemes,
        store=store,
        version=dense_version(source.features),  # an n-gram block is learned per fold
    )
    return train(
        examples,
        features,
        task=task,
        data_bytes=b"".join(read_bytes(p) for p in paths),
        data_name=", ".join(p.name for p in paths),
        encoder_identity=encoder.identity,
        encoder_model=encoder.model_name,
        c=c,
        seed=seed,
        features_version=source.features,
        source=recorded,
        recipe=source.recipe,
    )
