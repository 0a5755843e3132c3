"""What applications that compose several tasks (``maieutic ask``, the demo) may use of
this task: its interventions and datasets. Everything else in the package may change
without notice."""

from maieutic.tasks.cqs.data import CQDataset, Intervention

__all__ = ["CQDataset", "Intervention"]
