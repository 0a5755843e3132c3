"""Agreement statistics as plain functions over per-item ratings.

Every function documents its measurement level and its edge cases. When a statistic
is mathematically undefined (one category only, zero variance, nothing pairable) it
raises ``UndefinedStatistic`` with the reason, never returns a silent NaN.
"""

from maieutic.stats._errors import UndefinedStatistic
from maieutic.stats.agreement import (
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    observed_agreement,
    pabak,
    three_rater_agreement,
)
from maieutic.stats.bootstrap import bootstrap_ci
from maieutic.stats.correlation import pearson, spearman
from maieutic.stats.grouped import grouped_kappa_interval
from maieutic.stats.krippendorff import krippendorff_alpha
from maieutic.stats.preference import PreferenceItem, preference_agreement

__all__ = [
    "PreferenceItem",
    "UndefinedStatistic",
    "bootstrap_ci",
    "cohen_kappa",
    "fleiss_kappa",
    "grouped_kappa_interval",
    "gwet_ac1",
    "krippendorff_alpha",
    "observed_agreement",
    "pabak",
    "pearson",
    "preference_agreement",
    "spearman",
    "three_rater_agreement",
]
