"""The frameworks are optional extras: a route used without its extra says which to
install, in one line, rather than failing on an import."""

from __future__ import annotations

import importlib
from typing import Any

from maieutic.errors import DataError


def require(module: str, *, extra: str, needed_by: str) -> Any:
    """``module`` imported, or a data error naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise DataError(f"{needed_by} needs {module.split('.')[0]}: pip install "
                        f"'maieutic[{extra}]'") from None  # fmt: skip
