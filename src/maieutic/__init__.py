"""maieutic: generate questions that challenge a text, and evaluate them reproducibly."""

from maieutic._version import __version__

__all__ = ["__version__"]
