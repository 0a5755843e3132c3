"""The library run layer: evaluate and generate for any task from Python.

``evaluate(task, data, submissions, evaluator=..., **options)`` and ``generate(task,
data, generator=..., **options)`` do what ``maieutic evaluate TASK`` and ``maieutic
generate TASK`` do, building components through the registry so that results carry
the same specs and signatures, and return typed results (``Evaluation``,
``Generation``) that convert to pandas DataFrames. A task's file layouts reach this
layer through its ``TaskIO`` hooks (``maieutic.core.task_io``).
"""

from maieutic.core.task_io import GeneratedPart, RecordContext, TaskIO
from maieutic.run.comparison import compare
from maieutic.run.evaluation import Evaluation, evaluate
from maieutic.run.generation import Generation, generate

__all__ = [
    "Evaluation",
    "GeneratedPart",
    "Generation",
    "RecordContext",
    "TaskIO",
    "compare",
    "evaluate",
    "generate",
]
