"""``maieutic ask``: critical questions, Socratic questions and (for a long document)
an assessed question set for a plain text, without wrapping it in a dataset first."""

from maieutic.ask.pipeline import AskOptions, AskResult, ask_text
from maieutic.ask.reading import read_input

__all__ = ["AskOptions", "AskResult", "ask_text", "read_input"]
