"""The texts a results file points to but does not hold: the documents its items are
about (interventions, arguments) and the reference questions it names by id.

A results file stores each question's best reference by id and each span without its
argument. The data file it was made from is named in its provenance (under the option
the task names, ``ReportHooks.texts``); it is used only if it is still there and its
content hash equals the dataset hash in the result's signature, so a report never
shows texts from another version of the data. Otherwise the report shows what the
results file holds and says why the texts are missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from maieutic.evaluate.result import EvalResult
from maieutic.report.hooks import DataFile, Texts, report_hooks
from maieutic.report.html.loader import InputFile

__all__ = ["TextFinder", "Texts", "candidates"]


def candidates(value: Any, results_path: Path) -> list[Path]:
    """Where a path recorded in provenance may be now: as written (absolute, or from the
    current folder), or beside the results file."""
    if not isinstance(value, str) or not value or value == "-":
        return []
    path = Path(value)
    found = [path] if path.is_absolute() else [Path.cwd() / path, results_path.parent / path]
    # only regular files of a readable size: a recorded path may name a device or a FIFO
    return [p for p in dict.fromkeys(found) if _plain_file(p)]


def _plain_file(path: Path) -> bool:
    from maieutic.data.files import max_input_bytes

    try:
        return path.is_file() and path.stat().st_size <= max_input_bytes()
    except OSError:
        return False


def _options(source: InputFile) -> dict[str, Any]:
    provenance = source.data.get("provenance")
    options = provenance.get("options") if isinstance(provenance, dict) else None
    return options if isinstance(options, dict) else {}


class TextFinder:
    """Finds (once per data file and hash) the texts behind the results of a report."""

    def __init__(self) -> None:
        self._found: dict[tuple[str, str, str], Texts | None] = {}

    def texts(self, source: InputFile, result: EvalResult) -> Texts:
        """The texts behind ``result`` (from ``source``), or an empty ``Texts`` saying why."""
        where = report_hooks(result.task).texts
        if where is None:
            return Texts()
        expected = result.signature.dataset
        options = _options(source)
        recorded = options.get(where.option)
        if not expected or not recorded:
            return Texts(note="the results file does not name its data file")
        cache_key = (result.task, str(recorded), expected)
        if cache_key not in self._found:
            base = source.path
            data = DataFile(
                candidates(recorded, base), expected, options, locate=lambda v: candidates(v, base)
            )
            self._found[cache_key] = where.read(data)
        found = self._found[cache_key]
        if found is None:
            return Texts(
                note=f"texts not shown: {recorded} was not found, or its content no longer "
                "matches the dataset hash in the signature"
            )
        return found
