"""Results as pandas DataFrames, for notebooks: one row per item, or per submission.

Nested records are flattened into dotted columns (``summary.labels.Useful``); lists
stay in their cell unless exploded into one row each (``explode=COLUMN`` gives one row
per element of the list in COLUMN, its fields as ``COLUMN.key``). pandas is imported
only when a frame is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from maieutic.evaluate.result import EvalResult

if TYPE_CHECKING:
    import pandas as pd


def records_frame(
    rows: Iterable[dict[str, Any]], explode: str | None = None, *, max_level: int | None = None
) -> pd.DataFrame:
    """``rows`` flattened (nested dicts become dotted columns); with ``explode``, the
    list in that column becomes one row per element, its dicts flattened as
    ``COLUMN.key`` (a cell that is no list, e.g. a placeholder string, stays one row)."""
    import pandas as pd

    frame = pd.json_normalize(list(rows), max_level=max_level)
    if explode is None:
        return frame
    if explode not in frame.columns:
        raise KeyError(f"no column {explode!r} to explode (columns: {', '.join(frame.columns)})")
    # an empty list leaves one row, with nothing in the exploded columns
    frame = frame.explode(explode, ignore_index=True)
    values = frame[explode]
    nested = pd.json_normalize([v if isinstance(v, dict) else {} for v in values])
    nested.columns = [f"{explode}.{c}" for c in nested.columns]
    leftover = values.where(~values.map(lambda v: isinstance(v, dict)), None)
    frame = frame.drop(columns=[explode])
    if leftover.notna().any():
        frame[explode] = leftover
    return pd.concat([frame, nested], axis=1)


def items_frame(results: Sequence[EvalResult], explode: str | None = None) -> pd.DataFrame:
    """One row per item of every result, led by the submission's name."""
    rows = (
        {"submission": result.submission, **record}
        for result in results
        for record in result.records()
    )
    return records_frame(rows, explode)


def summary_frame(results: Sequence[EvalResult]) -> pd.DataFrame:
    """One row per submission: name, headline score, unscored and flagged counts, the
    signature string and every summary figure (flattened)."""
    rows = [
        {
            "submission": result.submission,
            "score": result.score,
            "n_unscored": result.n_unscored,
            "n_flags": len(result.flags),
            "signature": str(result.signature),
            **{f"summary.{k}": v for k, v in result.summary.items()},
        }
        for result in results
    ]
    return records_frame(rows).set_index("submission")
