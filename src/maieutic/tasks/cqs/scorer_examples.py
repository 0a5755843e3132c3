"""What a critical-questions scorer learns from (registered for ``maieutic train scorer
--task cqs``):

- ``references``: every labelled reference question of a dataset (Useful / Unhelpful /
  Invalid; the context is the intervention, the group its id): a usefulness judge,
  P(Useful | intervention, question).
- ``templates``: the template generator's own candidates, each labelled by the
  reference it matches (``maieutic.tasks.cqs.scorer_templates``): a selector for
  ``generate cqs --generator template``.

Feature sets (``maieutic.scorers.features``), chosen by grouped cross-validation on the
CQs development data: ``pair-v2`` over ``pair-v1``, since the context's own vector and
the element-wise product lowered the figures (AUC 0.696 → 0.685, κ 0.29 → 0.26; a
context vector is constant within a group, so there it can only memorise texts); and
for the usefulness judge ``pair-v3`` over ``pair-v2``, since wordings such as "Is there
evidence that…" or "What other factors…" recur across interventions with the same
label, which a sentence vector blurs (AUC 0.698 → 0.726, κ 0.298 → 0.346).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from maieutic.data.files import read_bytes
from maieutic.errors import DataError
from maieutic.registry import register
from maieutic.scorers.examples import Examples
from maieutic.scorers.sources import ExampleSource
from maieutic.tasks.cqs.data import CQDataset, load_cq_dataset
from maieutic.tasks.cqs.labelled_outputs import LabelledOutputs, load_labelled_outputs
from maieutic.tasks.cqs.labels import USEFUL
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.scorer_templates import FEATURES as SELECTOR_FEATURES
from maieutic.tasks.cqs.scorer_templates import MATCH_THRESHOLD, template_examples

ORDINAL = {"Invalid": 0.0, "Unhelpful": 1.0, "Useful": 2.0}
FEATURES = "pair-v3"
"""The usefulness judge's feature set."""


def cqs_examples(dataset: CQDataset, outputs: LabelledOutputs | None = None) -> Examples:
    """Every labelled reference question of ``dataset`` and, with ``outputs``, every
    generated question people labelled (its ``system`` is its submission, e.g.
    ``system01``; a reference's is empty)."""
    out = Examples(positive=USEFUL)
    labelled = [
        (item, ref.cq, ref.label, "") for item in dataset.interventions.values() for ref in item.cqs
    ]
    for output in outputs.outputs if outputs is not None else ():
        item = dataset.interventions[output.intervention_id]
        labelled.append((item, output.cq, output.label, f"system{output.block + 1:02d}"))
    for item, question, label, system in labelled:
        if label not in ORDINAL or not question.strip():
            continue
        out.add(
            item.intervention,
            question=question,
            label=label,
            ordinal=ORDINAL[label],
            group=item.intervention_id,
            scheme=item.schemes[0] if item.schemes else "",
            system=system,
        )
    return out


JUDGE_RECIPE = {"c": 0.1, "system_weight": 2.0, "binary": True}
"""How the usefulness judge learns when people's labels of system outputs are at hand
(``--outputs``): each output pair counts twice, Useful against the rest, C = 0.1, and
the threshold accepts the outputs' Useful rate. Chosen by grouped cross-validation on
the development data (``benchmarks/bench_judge.py``): among output weights 1 / 2 / 4,
C 0.1 / 0.3 and three-class / binary models, this one had the best ranking of the
systems' questions (AUC 0.616, top-3 Useful rate 0.646); every variant was within
0.01 AUC of it."""


def pooled_dataset(paths: list[Path]) -> CQDataset:
    """Several labelled datasets read as one (an intervention id in two files is an
    error: its references would be counted twice)."""
    interventions: dict = {}
    for path in paths:
        dataset = load_cq_dataset(path)
        for key, item in dataset.interventions.items():
            if key in interventions:
                raise DataError(
                    f"{key!r}: intervention id already in another --data file", where=str(path)
                )
            interventions[key] = item
    return CQDataset(interventions=interventions, source=", ".join(str(p) for p in paths))


@register("scorer-examples", task="cqs", name="references")
def references(outputs: str | None = None) -> ExampleSource:
    """The labelled reference questions: a usefulness judge, P(Useful). With
    ``outputs`` (generated questions people labelled, the benchmark's extended layout,
    on interventions of the ``--data`` files), those too, with the judge's recipe."""

    def read_many(paths: list[Path], _encoder, _store) -> Examples:
        dataset = pooled_dataset(paths)
        labelled = load_labelled_outputs(outputs, dataset) if outputs else None
        return cqs_examples(dataset, labelled)

    if outputs is None:
        return ExampleSource(
            read=lambda path, _encoder, _store: cqs_examples(load_cq_dataset(path)),
            features=FEATURES,
            source={"examples": "references"},
            read_many=read_many,
        )
    return ExampleSource(
        read=lambda path, encoder, store: read_many([path], encoder, store),
        features=FEATURES,
        source={
            "examples": "references",
            "outputs": Path(outputs).name,
            "outputs_sha256": hashlib.sha256(read_bytes(outputs)).hexdigest(),
        },
        read_many=read_many,
        recipe=dict(JUDGE_RECIPE),
    )


@register("scorer-examples", task="cqs", name="templates")
def templates(schemes: str | None = None, *, scheme_mapping: str | None = None) -> ExampleSource:
    """The template generator's candidates, labelled by the reference each matches: a
    selector for ``generate cqs --generator template``. The built-in templates, and
    those of a scheme file when ``schemes`` is given (a selector learned from the
    built-in templates alone ranks either library's fillings as well)."""
    if scheme_mapping and not schemes:
        raise DataError("--scheme-mapping needs --schemes")
    libraries = [SchemeLibrary.builtin()]
    if schemes:
        libraries.append(SchemeLibrary.from_walton(schemes, scheme_mapping))

    def read(path: Path, encoder, store) -> Examples:
        if encoder is None:
            raise ValueError("template examples need an encoder")
        return template_examples(load_cq_dataset(path), libraries, encoder, store=store)

    source = {
        "examples": "templates",
        "templates": ["built-in"] + ([Path(schemes).name] if schemes else []),
        "match": f"sts cosine > {MATCH_THRESHOLD}",
    }
    return ExampleSource(read=read, features=SELECTOR_FEATURES, source=source)
