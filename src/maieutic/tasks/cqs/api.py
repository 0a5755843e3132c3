"""What applications that compose several tasks (``maieutic ask``, the demo) may use of
this task: its interventions and datasets, and the order of the model route for a model
measured weaker than the rules. Everything else in the package may change without
notice."""

from maieutic.tasks.cqs.data import CQDataset, Intervention
from maieutic.tasks.cqs.model_first import OFFLINE

__all__ = ["OFFLINE", "CQDataset", "Intervention"]
