"""Bar charts in SVG: scores with their bootstrap intervals, label distributions as
stacked bars, and grouped bars (histograms, the axes of each question set)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

from markupsafe import Markup

from maieutic.report.html.svg import (
    CHAR_WIDTH,
    WIDTH,
    axis_ticks,
    colour,
    figure,
    finite,
    label_width,
    legend,
    line,
    rect,
    shorten,
    text,
    tick_label,
)

ROW = 26
"""Height of one horizontal bar's row."""


@dataclass(frozen=True)
class IntervalRow:
    """One system's estimate and interval (None: no interval could be computed)."""

    label: str
    estimate: float
    _: KW_ONLY
    low: float | None = None
    high: float | None = None


def _x_axis(
    ticks: list[float], *, left: float, right: float, top: float, bottom: float
) -> list[str]:
    """Vertical grid lines with tick labels under the plot (the ticks span the axis)."""
    parts = []
    lo, hi = ticks[0], ticks[-1]
    for tick in ticks:
        x = left + (tick - lo) / (hi - lo) * (right - left)
        parts.append(line(x1=x, y1=top, x2=x, y2=bottom, class_="grid"))
        parts.append(text(x, bottom + 14, tick_label(tick), anchor="middle", class_="tick"))
    return parts


def interval_chart(rows: Sequence[IntervalRow], axis_label: str, *, title: str) -> Markup:
    """Horizontal bars, one per system, with the interval as a whisker and the figures
    written at the right."""
    left = label_width(r.label for r in rows)
    right = WIDTH - 150
    top, height = 8.0, 8 + ROW * len(rows)
    ticks = axis_ticks([v for r in rows for v in (r.estimate, r.low, r.high) if v is not None])
    lo, hi = ticks[0], ticks[-1]
    scale = (right - left) / (hi - lo)
    parts = _x_axis(ticks, left=left, right=right, top=top, bottom=height)
    for i, row in enumerate(rows):
        y = top + i * ROW
        zero = left + (0 - lo) * scale
        x = left + (row.estimate - lo) * scale
        figures = f"{row.estimate:.4f}"
        if row.low is not None and row.high is not None:
            figures += f" [{row.low:.3f}, {row.high:.3f}]"
        tip = f"{row.label}: {figures}"
        parts.append(text(left - 8, y + 16, shorten(row.label, 32), anchor="end", class_="label"))
        parts.append(
            rect(
                min(zero, x),
                y + 5,
                w=abs(x - zero),
                h=ROW - 10,
                fill=colour(i),
                tip=tip,
                opacity="0.35",
            )
        )
        if row.low is not None and row.high is not None:
            x1, x2 = left + (row.low - lo) * scale, left + (row.high - lo) * scale
            parts.append(line(x1=x1, y1=y + ROW / 2, x2=x2, y2=y + ROW / 2, class_="whisker"))
            parts.append(line(x1=x1, y1=y + 7, x2=x1, y2=y + ROW - 7, class_="whisker"))
            parts.append(line(x1=x2, y1=y + 7, x2=x2, y2=y + ROW - 7, class_="whisker"))
        parts.append(line(x1=x, y1=y + 4, x2=x, y2=y + ROW - 4, class_="estimate"))
        parts.append(text(right + 8, y + 16, figures, class_="value"))
    parts.append(text((left + right) / 2, height + 30, axis_label, anchor="middle", class_="axis"))
    return figure(parts, width=WIDTH, height=height + 38, label=title)


def stacked_chart(
    rows: Sequence[tuple[str, Sequence[tuple[str, float]]]],
    colours: dict[str, str],
    title: str,
) -> Markup:
    """Each row's counts as shares of one 100 % bar, in the order of ``colours``."""
    entries = [(name, fill) for name, fill in colours.items()]
    legend_parts, legend_height = legend(entries, 8, 6)
    left = label_width(label for label, _ in rows)
    right = WIDTH - 12
    top = 12 + legend_height
    parts = list(legend_parts)
    parts += _x_axis(axis_ticks([]), left=left, right=right, top=top, bottom=top + ROW * len(rows))
    for i, (label, counts) in enumerate(rows):
        y = top + i * ROW
        total = sum(v for _, v in counts) or 1.0
        parts.append(text(left - 8, y + 16, shorten(label, 32), anchor="end", class_="label"))
        x = left
        for name, value in counts:
            share = value / total
            width = share * (right - left)
            fill = colours.get(name, "#999999")
            parts.append(
                rect(
                    x,
                    y + 4,
                    w=width,
                    h=ROW - 8,
                    fill=fill,
                    tip=f"{label}: {name} {value:g} ({share:.1%})",
                )
            )
            if width > 34:
                parts.append(
                    text(x + width / 2, y + 17, f"{share:.0%}", anchor="middle", class_="inbar")
                )
            x += width
    height = top + ROW * len(rows)
    parts.append(
        text((left + right) / 2, height + 30, "share of questions", anchor="middle", class_="axis")
    )
    return figure(parts, width=WIDTH, height=height + 38, label=title)


def grouped_bars(
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    axis_label: str,
    *,
    title: str,
    value_format: str = "{:g}",
    ceiling: float | None = None,
) -> Markup:
    """Vertical bars: one cluster per group (a bin, an axis), one bar per series."""
    legend_parts, legend_height = legend(
        [(name, colour(i)) for i, (name, _) in enumerate(series)], 8, 6
    )
    left, right = 56.0, WIDTH - 12
    top = 14 + legend_height
    bottom = top + 200
    values = [v for _, vs in series for v in vs if finite(v)]
    ticks = axis_ticks(
        values, floor=0.0, ceiling=ceiling if ceiling is not None else max(values, default=1.0)
    )
    lo, hi = ticks[0], ticks[-1]
    scale = (bottom - top) / (hi - lo)
    parts = list(legend_parts)
    for tick in ticks:
        y = bottom - (tick - lo) * scale
        parts.append(line(x1=left, y1=y, x2=right, y2=y, class_="grid"))
        parts.append(text(left - 6, y + 4, tick_label(tick), anchor="end", class_="tick"))
    slot = (right - left) / max(len(groups), 1)
    bar = min(slot * 0.8 / max(len(series), 1), 48)
    for g, group in enumerate(groups):
        start = left + g * slot + (slot - bar * len(series)) / 2
        for s, (name, vs) in enumerate(series):
            value = vs[g] if g < len(vs) else None
            if not finite(value):
                continue
            y0 = bottom - (0 - lo) * scale
            y = bottom - (value - lo) * scale
            tip = f"{name} · {group}: {value_format.format(value)}"
            parts.append(
                rect(start + s * bar, min(y, y0), w=bar - 1, h=abs(y0 - y), fill=colour(s), tip=tip)
            )
        shown = shorten(group, max(int(slot / CHAR_WIDTH), 3))
        parts.append(
            text(left + (g + 0.5) * slot, bottom + 15, shown, anchor="middle", class_="tick")
        )
    parts.append(line(x1=left, y1=bottom, x2=right, y2=bottom, class_="axisline"))
    parts.append(
        text(
            14,
            (top + bottom) / 2,
            axis_label,
            anchor="middle",
            class_="axis",
            transform=f"rotate(-90 14 {(top + bottom) / 2:.1f})",
        )
    )
    return figure(parts, width=WIDTH, height=bottom + 26, label=title)


def histogram(values: Sequence[float], *, edges: Sequence[float]) -> list[int]:
    """Counts of ``values`` in the bins between consecutive ``edges`` (the last bin
    includes its upper edge)."""
    counts = [0] * (len(edges) - 1)
    for value in values:
        for i in range(len(counts)):
            last = i == len(counts) - 1
            if edges[i] <= value < edges[i + 1] or (last and value == edges[-1]):
                counts[i] += 1
                break
    return counts
