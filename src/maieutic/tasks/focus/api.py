"""What applications that compose several tasks (``maieutic ask``, the demo) may use of
this task: the typology, arguments and their labels, a generator's outcome and the
reading of a model's reply. Everything else in the package may change without notice."""

from maieutic.tasks.focus.generate import FocusOutcome
from maieutic.tasks.focus.reply_parsing import NO_TYPES, parse_reply
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet
from maieutic.tasks.focus.typology import NONE_ID, typology

__all__ = [
    "NONE_ID",
    "NO_TYPES",
    "FocusItem",
    "FocusOutcome",
    "FocusSet",
    "parse_reply",
    "typology",
]
