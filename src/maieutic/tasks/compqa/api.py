"""What applications that compose several tasks (the demo) may use of this task: its
rubric. Everything else in the package may change without notice."""

from maieutic.tasks.compqa.data import rubric

__all__ = ["rubric"]
