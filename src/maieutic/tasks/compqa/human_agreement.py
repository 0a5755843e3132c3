"""Agreement between two human annotators of the CompQA rubric.

The two files (``dataset_hum1_evaluation.tsv``, ``dataset_hum2_evaluation.tsv``) hold the
same answers in the same order; each annotator scored only some of them, in the
columns ``score_dict.1`` … ``score_dict.15`` (criteria C1–C15). Rows are matched by
position and checked by ``filename``; only rows that both annotators scored count.
The files' own ``score`` column is not trusted (it is 0 in rows the second annotator
scored although their criteria are filled): the 0–19 total is always the sum of the
criteria.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from maieutic.errors import DataError
from maieutic.signature import Signature
from maieutic.stats import UndefinedStatistic, krippendorff_alpha, spearman
from maieutic.tasks.compqa.human_files import RowScores, read_tsv, row_scores

CRITERIA = [f"score_dict.{i}" for i in range(1, 16)]
TOTAL = "total"


@dataclass(frozen=True, kw_only=True)
class ScoredPair:
    """Both annotators' scores for one answer."""

    filename: str
    first: dict[str, float]
    second: dict[str, float]
    notes: tuple[str, ...] = ()
    """Scores kept although above their criterion's maximum (flagged in reports)."""


def _scores(checked: RowScores) -> dict[str, float] | None:
    if checked.scores is None:
        return None  # this annotator did not score the answer (fully)
    scores = dict(zip(CRITERIA, checked.scores, strict=True))
    scores[TOTAL] = sum(checked.scores)
    return scores


def load_pairs(first: str | Path, *, second: str | Path) -> list[ScoredPair]:
    """Answers scored by both annotators, matched by row order and filename."""
    required = ["filename", *CRITERIA]
    a, b = read_tsv(first, required), read_tsv(second, required)
    if len(a) != len(b):
        raise DataError(f"{len(a)} rows vs {len(b)} rows in {second}", where=str(first))
    pairs = []
    for ra, rb in zip(a, b, strict=True):
        if ra.cells["filename"] != rb.cells["filename"]:
            raise DataError(
                f"line {rb.line}: filename {ra.cells['filename']!r} vs {rb.cells['filename']!r}",
                where=str(second),
            )
        ca, cb = row_scores(ra, CRITERIA, first), row_scores(rb, CRITERIA, second)
        sa, sb = _scores(ca), _scores(cb)
        if sa is not None and sb is not None:
            pairs.append(
                ScoredPair(
                    filename=ra.cells["filename"], first=sa, second=sb, notes=ca.notes + cb.notes
                )
            )
    return pairs


def _safe(fn, *args):
    try:
        return fn(*args)
    except UndefinedStatistic as exc:
        return str(exc)


def agreement_table(pairs: list[ScoredPair]) -> list[dict]:
    """Per criterion, for all criteria pooled, and for the total: alpha (interval,
    ordinal) and Spearman's rho."""
    rows = []
    columns = [*CRITERIA, "all criteria", TOTAL]
    for column in columns:
        keys = CRITERIA if column == "all criteria" else [column]
        x = [p.first[k] for p in pairs for k in keys]
        y = [p.second[k] for p in pairs for k in keys]
        rho = _safe(spearman, x, y)
        rows.append(
            {
                "column": column.replace("score_dict.", "C") if column != TOTAL else "total",
                "n": len(x),
                "alpha_interval": _safe(krippendorff_alpha, [x, y], "interval"),
                "alpha_ordinal": _safe(krippendorff_alpha, [x, y], "ordinal"),
                "spearman": rho if isinstance(rho, str) else rho.r,
                "spearman_p": None if isinstance(rho, str) else rho.p_value,
            }
        )
    return rows


def pairs_signature(first: str | Path, *, second: str | Path, pairs: list[ScoredPair]) -> Signature:
    """The signature of an agreement table: both files' content hash and the pair count."""
    digest = hashlib.sha256()
    for path in (first, second):
        digest.update(Path(path).read_bytes())
    return Signature(
        task="compqa",
        evaluator="human-agreement",
        dataset="sha256:" + digest.hexdigest(),
        n_references=len(pairs),
        extra={"total": "sum-of-criteria"},
    )
