"""The FOCUS typology (kept in the data layer, which reads type names from files)."""

from maieutic.data.focus_typology import (
    NONE_ID,
    NULL_SPAN,
    Category,
    Typology,
    WeaknessType,
    typology,
)

__all__ = ["NONE_ID", "NULL_SPAN", "Category", "Typology", "WeaknessType", "typology"]
