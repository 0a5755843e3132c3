"""From a labelled file to a saved scorer: read, embed (cached), cross-validate, fit,
save. Shared by ``maieutic train scorer`` and the benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore
from maieutic.errors import DataError
from maieutic.scorers.examples import Examples, cqs_examples, qgeval_examples
from maieutic.scorers.features import DEFAULT_FEATURES, dense_version, pair_features
from maieutic.scorers.template_examples import FEATURES as TEMPLATE_FEATURES
from maieutic.scorers.template_examples import MATCH_THRESHOLD, template_examples
from maieutic.scorers.train import Trained, train
from maieutic.tasks.cqs.schemes import SchemeLibrary

TASKS = ("cqs", "aura")
EXAMPLE_KINDS = ("references", "templates")
"""What a CQs scorer learns from: the dataset's labelled reference questions (a
usefulness judge), or the template generator's candidates labelled by the reference
they match (a selector for ``generate cqs --generator template``)."""


def read_examples(
    task: str,
    path: str | Path,
    *,
    kind: str = "references",
    libraries: Sequence[SchemeLibrary] = (),
    encoder: Encoder | None = None,
    store: EmbeddingStore | None = None,
) -> Examples:
    """The labelled pairs of ``path`` for ``task`` (for ``kind="templates"``, the
    candidates of ``libraries``' templates, embedded with ``encoder`` to match them)."""
    if kind not in EXAMPLE_KINDS:
        raise DataError(f"--examples must be one of {', '.join(EXAMPLE_KINDS)}")
    if kind == "templates" and task != "cqs":
        raise DataError("--examples templates is for --task cqs")
    if task == "cqs":
        from maieutic.tasks.cqs.data import load_cq_dataset

        dataset = load_cq_dataset(path)
        if kind == "templates":
            if encoder is None or not libraries:
                raise ValueError("template examples need an encoder and scheme libraries")
            examples = template_examples(dataset, libraries, encoder, store)
        else:
            examples = cqs_examples(dataset)
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
    c: float | None = None,
    seed: int = 0,
    cache: bool = True,
    kind: str = "references",
    schemes: str | Path | None = None,
    scheme_mapping: str | Path | None = None,
) -> Trained:
    """The trained scorer and its cross-validation figures.

    With ``kind="templates"`` the pairs are the built-in templates' candidates, and
    those of a scheme file when ``schemes`` is given (see
    ``maieutic.scorers.template_examples``: a selector learned from the built-in
    templates alone ranks either library's fillings as well)."""
    if (schemes or scheme_mapping) and kind != "templates":
        raise DataError("--schemes and --scheme-mapping go with --examples templates")
    if scheme_mapping and not schemes:
        raise DataError("--scheme-mapping needs --schemes")
    store = EmbeddingStore() if cache else None
    libraries = [SchemeLibrary.builtin()]
    if schemes:
        libraries.append(SchemeLibrary.from_walton(schemes, scheme_mapping))
    examples = read_examples(
        task, path, kind=kind, libraries=libraries, encoder=encoder, store=store
    )
    version = TEMPLATE_FEATURES if kind == "templates" else DEFAULT_FEATURES[task]
    features = pair_features(
        encoder,
        examples.contexts,
        examples.questions,
        examples.schemes,
        store,
        dense_version(version),  # an n-gram block is learned per fold
    )
    source = {"examples": kind}
    if kind == "templates":
        source["templates"] = ["built-in"] + ([Path(schemes).name] if schemes else [])
        source["match"] = f"sts cosine > {MATCH_THRESHOLD}"
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
        features_version=version,
        source=source,
    )
