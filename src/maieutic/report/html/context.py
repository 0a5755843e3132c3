"""The texts a results file points to but does not hold: the CQs interventions and
reference questions, the FOCUS arguments.

A results file stores each question's best reference by id and each FOCUS span
without its argument. The data file it was made from is named in its provenance; it
is used only if it is still there and its content hash equals the dataset hash in the
result's signature, so a report never shows texts from another version of the data.
Otherwise the report shows what the results file holds and says why the texts are
missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.report.html.loader import InputFile


@dataclass
class Texts:
    """Texts by id, found for one result (empty with a ``note`` when none were)."""

    documents: dict[str, str] = field(default_factory=dict)
    """Intervention or argument text by item id."""
    references: dict[str, str] = field(default_factory=dict)
    """Reference question text by reference id (CQs)."""
    source: str = ""
    note: str = ""


def _candidates(value: Any, results_path: Path) -> list[Path]:
    """Where a path recorded in provenance may be now: as written (absolute, or from the
    current folder), or beside the results file."""
    if not isinstance(value, str) or not value or value == "-":
        return []
    path = Path(value)
    found = [path] if path.is_absolute() else [Path.cwd() / path, results_path.parent / path]
    # only regular files of a readable size: a recorded path may name a device or a FIFO
    return [p for p in dict.fromkeys(found) if _plain_file(p)]


def _plain_file(path: Path) -> bool:
    from maieutic.data.files import MAX_INPUT_BYTES

    try:
        return path.is_file() and path.stat().st_size <= MAX_INPUT_BYTES
    except OSError:
        return False


def _options(source: InputFile) -> dict[str, Any]:
    provenance = source.data.get("provenance")
    options = provenance.get("options") if isinstance(provenance, dict) else None
    return options if isinstance(options, dict) else {}


def _cqs(paths: list[Path], expected: str) -> Texts | None:
    from maieutic.tasks.cqs.data import load_cq_dataset

    for path in paths:
        try:
            dataset = load_cq_dataset(path)
        except (DataError, OSError, ValueError):
            continue
        if dataset.fingerprint() == expected:
            return Texts(
                {k: v.intervention for k, v in dataset.interventions.items()},
                {q.id: q.cq for v in dataset.interventions.values() for q in v.cqs},
                str(path),
            )
    return None


def _focus(paths: list[Path], annotators: Any, expected: str, base: Path) -> Texts | None:
    from maieutic.tasks.focus.annotators import attach_annotators
    from maieutic.tasks.focus.data import load_gold

    for path in paths:
        try:
            gold = load_gold(path)
            if gold.fingerprint() != expected and isinstance(annotators, list) and annotators:
                # evaluated with --annotators: their labels are part of the hash
                found = [c for a in annotators for c in _candidates(a, base)[:1]]
                gold = attach_annotators(gold, found)
        except (DataError, OSError, ValueError):
            continue
        if gold.fingerprint() == expected:
            return Texts({k: v.argument for k, v in gold.items.items()}, {}, str(path))
    return None


class TextFinder:
    """Finds (once per data file and hash) the texts behind the results of a report."""

    def __init__(self) -> None:
        self._found: dict[tuple[str, str, str], Texts | None] = {}

    def texts(self, source: InputFile, result: EvalResult) -> Texts:
        """The texts behind ``result`` (from ``source``), or an empty ``Texts`` saying why."""
        key = {"cqs": "data_path", "focus": "gold_path"}.get(result.task)
        if key is None:
            return Texts()
        expected = result.signature.dataset
        recorded = _options(source).get(key)
        if not expected or not recorded:
            return Texts(note="the results file does not name its data file")
        cache_key = (result.task, str(recorded), expected)
        if cache_key not in self._found:
            paths = _candidates(recorded, source.path)
            if result.task == "cqs":
                self._found[cache_key] = _cqs(paths, expected)
            else:
                annotators = _options(source).get("annotators")
                self._found[cache_key] = _focus(paths, annotators, expected, source.path)
        found = self._found[cache_key]
        if found is None:
            return Texts(
                note=f"texts not shown: {recorded} was not found, or its content no longer "
                "matches the dataset hash in the signature"
            )
        return found
