"""What applications that compose several tasks (``maieutic ask``, the demo) may use of
this task: its interventions and datasets, the order of the model route for a model
measured weaker than the rules, and the note of a text that states facts. Everything
else in the package may change without notice."""

from maieutic.tasks.cqs.candidate_filter import FACTS
from maieutic.tasks.cqs.data import CQDataset, Intervention
from maieutic.tasks.cqs.model_first import OFFLINE

__all__ = ["FACTS", "OFFLINE", "CQDataset", "Intervention"]
