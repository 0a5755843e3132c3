"""Typed records for every file maieutic writes (the table: docs/formats.md).

Each file with a ``format`` field has a record class here: a dataclass naming its
format and version, with ``to_json()`` (the dict written, keys in the writer's order)
and ``from_json(data)`` (checked against the field types; a ``DataError`` names the
field; files of an older version are migrated on read). ``FORMATS`` maps every
current format name to its class, ``READABLE`` every name that is read (older ones
too); ``read_record`` / ``load_record`` pick the class from the file's ``format``.

The files without a ``format`` field are the benchmarks' own layouts (submissions,
predictions, answers), typed by each task's data module; docs/formats.md lists them.
"""

from __future__ import annotations

from maieutic.records.ask import AskRecord
from maieutic.records.aura import AuraAgree, AuraCompare, AuraMetaEval, AuraSweep
from maieutic.records.base import (
    FORMATS,
    READABLE,
    Record,
    load_record,
    optional,
    read_record,
    record,
    record_class,
)
from maieutic.records.compqa import (
    CompqaHumanAgreement,
    CompqaJudgeAgreement,
    CompqaRulesAgreement,
    CompqaTable,
)
from maieutic.records.cqs import CqsCompare, CqsMetaEval
from maieutic.records.focus import FocusAgreement
from maieutic.records.generation import GenerationRecord
from maieutic.records.results import ResultsRecord
from maieutic.records.scorer import ScorerManifest

__all__ = [
    "FORMATS",
    "READABLE",
    "AskRecord",
    "AuraAgree",
    "AuraCompare",
    "AuraMetaEval",
    "AuraSweep",
    "CompqaHumanAgreement",
    "CompqaJudgeAgreement",
    "CompqaRulesAgreement",
    "CompqaTable",
    "CqsCompare",
    "CqsMetaEval",
    "FocusAgreement",
    "GenerationRecord",
    "Record",
    "ResultsRecord",
    "ScorerManifest",
    "load_record",
    "optional",
    "read_record",
    "record",
    "record_class",
]
