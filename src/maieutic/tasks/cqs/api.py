"""What applications that compose several tasks (``maieutic ask``, the demo) may use of
this task: its interventions and datasets, and the pooled choice of the model route.
Everything else in the package may change without notice."""

from maieutic.tasks.cqs.data import CQDataset, Intervention
from maieutic.tasks.cqs.pooled_generator import FROM_MODEL, pool

__all__ = ["FROM_MODEL", "CQDataset", "Intervention", "pool"]
