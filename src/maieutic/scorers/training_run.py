"""From a labelled file to a saved scorer: read, embed (cached), cross-validate, fit,
save. Shared by ``maieutic train scorer`` and the benchmarks."""

from __future__ import annotations

from pathlib import Path

from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore
from maieutic.errors import DataError
from maieutic.scorers.examples import Examples, cqs_examples, qgeval_examples
from maieutic.scorers.features import DEFAULT_FEATURES, pair_features
from maieutic.scorers.train import DEFAULT_C, Trained, train

TASKS = ("cqs", "aura")


def read_examples(task: str, path: str | Path) -> Examples:
    """The labelled pairs of ``path`` for ``task``."""
    if task == "cqs":
        from maieutic.data.cqs import load_cq_dataset

        examples = cqs_examples(load_cq_dataset(path))
    elif task == "aura":
        from maieutic.tasks.aura.qgeval import load_qgeval

        examples = qgeval_examples(load_qgeval(path))
    else:
        raise DataError(f"--task must be one of {', '.join(TASKS)}")
    if len(set(examples.groups)) < 5:
        raise DataError(
            f"{len(set(examples.groups))} texts: grouped cross-validation needs at least 5",
            where=str(path),
        )
    if len(set(examples.labels)) < 2:
        raise DataError("every pair has the same label: nothing to learn", where=str(path))
    return examples


def train_from_file(
    task: str,
    path: str | Path,
    encoder: Encoder,
    *,
    c: float = DEFAULT_C,
    seed: int = 0,
    cache: bool = True,
) -> Trained:
    """The trained scorer and its cross-validation figures."""
    examples = read_examples(task, path)
    features = pair_features(
        encoder,
        examples.contexts,
        examples.questions,
        examples.schemes,
        EmbeddingStore() if cache else None,
        DEFAULT_FEATURES[task],
    )
    return train(
        examples,
        features,
        task=task,
        data_bytes=Path(path).read_bytes(),
        data_name=Path(path).name,
        encoder_identity=encoder.identity,
        encoder_model=encoder.model_name,
        c=c,
        seed=seed,
        features_version=DEFAULT_FEATURES[task],
    )
