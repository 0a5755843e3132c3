"""Data formats: loading and validating datasets and submissions with precise errors."""

from maieutic.data.cqs import (
    LABELS,
    MISSING_CQS,
    CQDataset,
    Intervention,
    ReferenceQuestion,
    Submission,
    SubmissionEntry,
    SubmittedQuestion,
    load_cq_dataset,
    load_submission,
)

__all__ = [
    "LABELS",
    "MISSING_CQS",
    "CQDataset",
    "Intervention",
    "ReferenceQuestion",
    "Submission",
    "SubmissionEntry",
    "SubmittedQuestion",
    "load_cq_dataset",
    "load_submission",
]
