"""maieutic: generate questions that challenge a text, and evaluate them reproducibly.

From Python::

    import maieutic

    run = maieutic.evaluate(TASK, "reference.json", ["submission.json"], evaluator=NAME)
    run.summary_frame()
    written = maieutic.generate(TASK, "input.json", generator=NAME).output
    maieutic.compare(["baseline.json", "other.json"]).pairs[0].sentence()

(see docs/python.md). ``evaluate`` and ``generate`` are the library entry points of
``maieutic.run``; the machinery behind them lives in the subpackages of the same
names, so import from those with ``from maieutic.evaluate.result import …`` (the
attribute ``maieutic.evaluate`` is the function).
"""

# The subpackages are loaded first: loading a subpackage binds its name on this
# package, which would otherwise replace the functions bound below.
import maieutic.evaluate as _evaluate_machinery  # noqa: F401
import maieutic.generate as _generate_machinery  # noqa: F401
from maieutic._version import __version__
from maieutic.run import Evaluation, Generation, compare, evaluate, generate

__all__ = ["Evaluation", "Generation", "__version__", "compare", "evaluate", "generate"]
