"""Which system is really better: paired tests between results on the same units.

A *system* is one result (or, when the task's score belongs to a whole result, such as
a set-level score on one document, every result of one submission name: one unit per
result). Systems are comparable when they were scored under one signature (all but
the fields that describe the system itself: its generator and seed) and on the same
units; anything else is refused with one line saying what differs. Each pair gets the
difference of scores, its paired-bootstrap interval and an approximate-randomization
p-value (``maieutic.stats.paired``), and a sentence saying what they mean.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult, unique_names
from maieutic.evaluate.units import Units, UnitsOf, merged
from maieutic.signature import Signature
from maieutic.stats import UndefinedStatistic
from maieutic.stats.bootstrap import DEFAULT_SEED
from maieutic.stats.paired import (
    CONFIDENCE,
    N_RESAMPLES,
    N_TRIALS,
    PairedTest,
    is_exact,
    paired_test,
)

SYSTEM_FIELDS = ("generator", "seed")
"""Signature fields that describe the system compared, not how it was scored."""
BUILD_FIELDS = ("scorer_build",)
"""Signature fields naming the bytes of one build of a learned scorer: a rebuild with
the same recipe on another machine differs there only in float rounding, and its
recipe (``scorer``) is what must match."""
UNIT_FIELDS = ("dataset", "n_references")
"""Signature fields that differ from unit to unit when each result is one unit."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """How the tests are run (the defaults: ``maieutic.stats.paired``)."""

    n_resamples: int = N_RESAMPLES
    n_trials: int = N_TRIALS
    confidence: float = CONFIDENCE
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        if not 0 < self.confidence < 1:  # NaN too: every comparison with it is false
            raise DataError(f"confidence must be between 0 and 1, not {self.confidence}")

    @property
    def alpha(self) -> float:
        """The p-value below which a difference is called significant."""
        return round(1 - self.confidence, 10)

    def to_json(self) -> dict[str, Any]:
        return {
            "bootstrap_resamples": self.n_resamples,
            "randomization_trials": self.n_trials,
            "confidence": self.confidence,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class System:
    """One system: its name, the results it is made of, and its units."""

    name: str
    results: tuple[EvalResult, ...]
    units: Units

    @property
    def score(self) -> float:
        """The score its units give (checked equal to the stored one)."""
        return self.units.statistic.value()


@dataclass(frozen=True, kw_only=True)
class Pair:
    """``other`` against ``baseline``."""

    baseline: str
    other: str
    test: PairedTest
    alpha: float

    @property
    def significant(self) -> bool:
        return self.test.p_value < self.alpha

    def sentence(self) -> str:
        """What the test says, in plain words."""
        t = self.test
        p = p_text(t.p_value)
        if not self.significant:
            return (
                f"{self.other} and {self.baseline} do not differ significantly: "
                f"{self.other} − {self.baseline} = {t.difference:+.4f} "
                f"[{t.low:+.4f}, {t.high:+.4f}], {p}"
            )
        if t.difference > 0:
            return (
                f"{self.other} beats {self.baseline} by {t.difference:.4f} "
                f"[{t.low:.4f}, {t.high:.4f}], {p}"
            )
        return (
            f"{self.baseline} beats {self.other} by {-t.difference:.4f} "
            f"[{-t.high:.4f}, {-t.low:.4f}], {p}"
        )

    def to_json(self) -> dict[str, Any]:
        t = self.test
        return {
            "baseline": self.baseline,
            "other": self.other,
            "baseline_score": t.baseline,
            "other_score": t.other,
            "difference": t.difference,
            "low": t.low,
            "high": t.high,
            "p_value": t.p_value,
            "significant": self.significant,
            "exact": t.exact,
            "n_trials": t.n_trials,
            "n_undefined": t.n_undefined,
            "sentence": self.sentence(),
        }


@dataclass(kw_only=True)
class Comparison:
    """Systems compared with a baseline (and, when asked, every pair)."""

    task: str
    systems: list[System]
    baseline: str
    pairs: list[Pair]
    settings: Settings
    signature: str
    """The signature the systems share (their system fields left out)."""
    notes: list[str] = field(default_factory=list)

    @property
    def unit(self) -> str:
        return self.systems[0].units.unit

    @property
    def n_units(self) -> int:
        return len(self.systems[0].units.ids)

    def method(self) -> str:
        """How the figures were made, in one sentence."""
        s, n = self.settings, self.n_units
        shuffles = (
            f"exact: all 2^{n} = {2**n:,} shuffles"
            if is_exact(n, n_trials=s.n_trials)
            else f"{s.n_trials:,} random shuffles"
        )
        return (
            f"paired over {n} {self.unit}: {s.confidence:.0%} percentile bootstrap "
            f"({s.n_resamples:,} resamples), approximate randomization ({shuffles}), seed "
            f"{s.seed}; significant: p < {s.alpha:g}, each pair on its own (no correction "
            "for several comparisons)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "unit": self.unit,
            "n_units": self.n_units,
            "signature": self.signature,
            "settings": self.settings.to_json(),
            "method": self.method(),
            "baseline": self.baseline,
            "systems": [
                {
                    "name": s.name,
                    "score": s.score,
                    "sources": [r.source for r in s.results],
                    "signatures": sorted({str(r.signature) for r in s.results}),
                }
                for s in self.systems
            ],
            "comparisons": [p.to_json() for p in self.pairs],
            "notes": self.notes,
        }


def p_text(p: float) -> str:
    """``p = 0.004`` (three significant figures)."""
    return f"p = {p:.3g}"


def comparable_signature(result: EvalResult, units: Units) -> str:
    """The part of a result's signature two comparable systems must share."""
    left_out = SYSTEM_FIELDS + BUILD_FIELDS + (UNIT_FIELDS if units.whole_result else ())
    fields = {k: v for k, v in result.signature.as_dict().items() if k not in left_out}
    return str(Signature.from_dict(fields))


def _units(result: EvalResult, units_of: UnitsOf, where: str) -> Units:
    found = units_of(result)
    if isinstance(found, str):
        raise DataError(
            f"{result.submission}: cannot be compared unit by unit: {found}", where=where
        )
    if result.score is None:
        raise DataError(f"{result.submission}: has no score to compare", where=where)
    if len(set(found.ids)) < len(found.ids):
        twice = next(key for key in found.ids if found.ids.count(key) > 1)
        raise DataError(f"{result.submission}: {twice!r} is in its {found.unit} twice", where=where)
    try:
        again = found.statistic.value()
    except UndefinedStatistic as exc:
        raise DataError(f"{result.submission}: {exc}", where=where) from None
    if not math.isclose(again, result.score, rel_tol=1e-6, abs_tol=1e-9):
        raise DataError(
            f"{result.submission}: its {found.unit} give {again:.4f}, not its stored score "
            f"{result.score:.4f} (an edited file?)",
            where=where,
        )
    return found


def build_systems(results: Sequence[tuple[str, EvalResult]], units_of: UnitsOf) -> list[System]:
    """Systems from ``(file, result)`` pairs, in order; names made unique (by the
    submission's path, then by the results file)."""
    units = [(file, r, _units(r, units_of, file)) for file, r in results]
    whole = {u.whole_result for _, _, u in units}
    if len(whole) > 1:
        raise DataError("these results mix per-item scores and whole-result scores")
    if whole == {True}:
        return _grouped(units)
    names = unique_names(
        [r.submission for _, r, _ in units], sources=[r.source for _, r, _ in units]
    )
    if len(set(names)) < len(names):
        names = [
            n if names.count(n) == 1 else f"{file}:{n}"
            for n, (file, _, _) in zip(names, units, strict=True)
        ]
    if len(set(names)) < len(names):
        repeated = next(n for n in names if names.count(n) > 1)
        raise DataError(f"the result {repeated!r} is given twice")
    return [System(n, (r,), u) for n, (_, r, u) in zip(names, units, strict=True)]


def _grouped(units: Sequence[tuple[str, EvalResult, Units]]) -> list[System]:
    """One system per submission name, one unit per result."""
    by_name: dict[str, list[tuple[str, EvalResult, Units]]] = {}
    for entry in units:
        by_name.setdefault(entry[1].submission, []).append(entry)
    systems = []
    for name, entries in by_name.items():
        ids = [key for _, _, u in entries for key in u.ids]
        if len(set(ids)) < len(ids):
            files = ", ".join(sorted({f for f, _, _ in entries}))
            raise DataError(f"{name}: scored twice on the same {entries[0][2].unit} (in {files})")
        systems.append(
            System(name, tuple(r for _, r, _ in entries), merged([u for _, _, u in entries]))
        )
    return systems


def check_comparable(systems: Sequence[System]) -> str:
    """The shared signature; a ``DataError`` naming what differs otherwise."""
    first = systems[0]
    shared = comparable_signature(first.results[0], first.units)
    for system in systems:
        for result in system.results:
            own = comparable_signature(result, system.units)
            if own != shared:
                diff = sorted(set(own.split("|")) ^ set(shared.split("|")))
                raise DataError(
                    f"{system.name} was scored under another signature than {first.name} "
                    f"({', '.join(diff[:4])}): compare results of one evaluator and dataset"
                )
        mine, theirs = set(system.units.ids), set(first.units.ids)
        if mine != theirs:
            only_mine, only_theirs = sorted(mine - theirs), sorted(theirs - mine)
            raise DataError(
                f"{system.name} and {first.name} were scored on different {first.units.unit}: "
                f"{len(only_mine)} only in {system.name}{_e_g(only_mine)}, "
                f"{len(only_theirs)} only in {first.name}{_e_g(only_theirs)}"
            )
    return shared


def _e_g(ids: Sequence[str]) -> str:
    return f" (e.g. {ids[0]})" if ids else ""


def pair(baseline: System, *, other: System, settings: Settings) -> Pair:
    """``other`` against ``baseline`` on the baseline's unit order."""
    aligned = other.units.reordered(baseline.units.ids)
    try:
        test = paired_test(
            baseline.units.statistic,
            other=aligned.statistic,
            n_resamples=settings.n_resamples,
            n_trials=settings.n_trials,
            confidence=settings.confidence,
            seed=settings.seed,
        )
    except UndefinedStatistic as exc:
        raise DataError(f"{other.name} against {baseline.name}: {exc}") from None
    return Pair(baseline=baseline.name, other=other.name, test=test, alpha=settings.alpha)


CELLS_PER_SECOND = 20_000_000
"""Unit cells (a unit in one resample or trial) the paired tests go through per second
on one core of the 2-core reference machine (13–19 million measured on 10,000 and
100,000 units while the other core was busy; an estimate, said as one)."""
MAX_CELLS = 12_000_000_000
"""The most cells a comparison takes on: about ten minutes at that rate. Past it the
settings are refused, saying what they would cost; the largest the options allow
(100,000 units, a million trials and 100,000 resamples) would take hours per pair."""


def check_cost(n_units: int, *, n_pairs: int, settings: Settings) -> None:
    """Refuse a comparison whose tests would go through more than ``MAX_CELLS`` unit
    cells (units × (resamples + trials) × pairs), saying the estimate and what to lower."""
    cells = n_units * (settings.n_resamples + settings.n_trials) * n_pairs
    if cells > MAX_CELLS:
        minutes = cells / CELLS_PER_SECOND / 60
        raise DataError(
            f"{n_pairs} pair(s) × {n_units:,} units × ({settings.n_resamples:,} resamples + "
            f"{settings.n_trials:,} trials) is {cells:,} unit cells, about {minutes:,.0f} "
            f"minutes here; the most taken on is {MAX_CELLS:,} (about "
            f"{MAX_CELLS / CELLS_PER_SECOND / 60:.0f} minutes): lower --trials or --resamples"
        )


def compare_systems(
    task: str,
    systems: Sequence[System],
    *,
    baseline: str | None = None,
    every_pair: bool = False,
    settings: Settings = Settings(),
) -> Comparison:
    """Each system against the baseline (the first, or the one named), or every pair."""
    if len(systems) < 2:
        raise DataError(f"give at least two systems to compare (found {len(systems)})")
    signature = check_comparable(systems)
    names = [s.name for s in systems]
    if baseline is None:
        baseline = names[0]
    elif baseline not in names:
        raise DataError(f"no system named {baseline!r} (found: {', '.join(names)})")
    base = systems[names.index(baseline)]
    ordered = [base, *(s for s in systems if s is not base)]
    n_pairs = len(ordered) * (len(ordered) - 1) // 2 if every_pair else len(ordered) - 1
    check_cost(base.units.statistic.counts.shape[0], n_pairs=n_pairs, settings=settings)
    if every_pair:
        pairs = [
            pair(a, other=b, settings=settings)
            for i, a in enumerate(ordered)
            for b in ordered[i + 1 :]
        ]
    else:
        pairs = [pair(base, other=other, settings=settings) for other in ordered[1:]]
    return Comparison(
        task=task,
        systems=list(systems),
        baseline=baseline,
        pairs=pairs,
        settings=settings,
        signature=signature,
    )


@dataclass(frozen=True)
class TopMarks:
    """Each ranked result's test against the top one (the top's own entry is None)."""

    top: EvalResult
    tests: dict[int, Pair | None]
    """By ``id(result)``."""
    method: str


def top_marks(
    results: Sequence[EvalResult], units_of: UnitsOf | None, settings: Settings = Settings()
) -> TopMarks | str:
    """Every scored result tested against the highest-scored one, or why not."""
    scored = [r for r in results if r.score is not None]
    if units_of is None:
        return "the task does not say how its score is made from units"
    if len(scored) < 2:
        return "fewer than two scored results"
    try:
        systems = build_systems([("", r) for r in scored], units_of)
        if any(len(s.results) > 1 for s in systems) or len(systems) != len(scored):
            return "each system spans several results (compare them with maieutic compare)"
        check_comparable(systems)
        if len(systems[0].units.ids) < 2:
            unit = systems[0].units.unit
            return f"one of the {unit} only: a paired test needs several (maieutic compare)"
        top = max(systems, key=lambda s: s.results[0].score)
        tests: dict[int, Pair | None] = {id(top.results[0]): None}
        for system in systems:
            if system is not top:
                tests[id(system.results[0])] = pair(top, other=system, settings=settings)
    except DataError as exc:
        return exc.message
    comparison = Comparison(
        task="", systems=systems, baseline=top.name, pairs=[], settings=settings, signature=""
    )
    return TopMarks(top.results[0], tests, comparison.method())
