"""What the FOCUS task hands the report besides its blocks: where the arguments are
(the gold file named in the provenance, with the annotators' files when they were
part of the evaluation), its macro-F1 as a function of items, and its own formats."""

from __future__ import annotations

from maieutic.errors import DataError
from maieutic.report.hooks import DataFile, ReportFormat, Texts, TextSource
from maieutic.tasks.focus.records import FocusAgreement
from maieutic.tasks.focus.report_intervals import macro_f1_statistic, paired_units


def read_texts(data: DataFile) -> Texts | None:
    """The arguments of the first gold file whose content has the expected hash."""
    from maieutic.tasks.focus.annotators import attach_annotators
    from maieutic.tasks.focus.data import load_gold

    annotators = data.options.get("annotators")
    for path in data.paths:
        try:
            gold = load_gold(path)
            if gold.fingerprint() != data.expected and isinstance(annotators, list) and annotators:
                # evaluated with --annotators: their labels are part of the hash
                found = [c for a in annotators for c in data.locate(a)[:1]]
                gold = attach_annotators(gold, found)
        except (DataError, OSError, ValueError):
            continue
        if gold.fingerprint() == data.expected:
            return Texts(
                documents={k: v.argument for k, v in gold.items.items()},
                references={},
                source=str(path),
            )
    return None


TEXTS = TextSource("gold_path", read_texts)
FORMATS = (ReportFormat(FocusAgreement.FORMAT),)
"""Shown as their figures and tables (the generic view)."""

__all__ = ["FORMATS", "TEXTS", "macro_f1_statistic", "paired_units", "read_texts"]
