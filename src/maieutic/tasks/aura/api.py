"""What applications that compose several tasks (``maieutic ask``, the demo) may use of
this task: its documents, how it reads them, and its question sets. Everything else in
the package may change without notice."""

from maieutic.tasks.aura.data import Document, blocks, read_pdf, sentences
from maieutic.tasks.aura.evaluate import QuestionSet

__all__ = ["Document", "QuestionSet", "blocks", "read_pdf", "sentences"]
