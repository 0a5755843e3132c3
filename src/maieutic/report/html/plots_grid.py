"""SVG charts on a grid: heatmaps (kappa between evaluators, confusion matrices), line
charts (threshold sweeps) and scatter plots (a metric against human ratings)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup

from maieutic.report.html.svg import (
    CHAR_WIDTH,
    WIDTH,
    axis_ticks,
    colour,
    element,
    figure,
    finite,
    label_width,
    legend,
    line,
    nice_ticks,
    rect,
    shorten,
    text,
    tick_label,
    tooltip,
)

LOW_RGB, HIGH_RGB = (247, 251, 255), (8, 69, 148)
"""The heatmap's colour ramp: near-white to dark blue."""


def _shade(t: float) -> str:
    t = min(max(t, 0.0), 1.0)
    rgb = (round(a + (b - a) * t) for a, b in zip(LOW_RGB, HIGH_RGB, strict=True))
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _cell(
    x: float,
    y: float,
    *,
    cell_w: float,
    cell_h: float,
    value: float | None,
    scale: tuple[float, float],
    value_format: str,
    where: str,
) -> list[str]:
    """One shaded cell with its value written in it (grey with a dash when undefined)."""
    if value is None or not math.isfinite(value):
        return [
            rect(x, y, w=cell_w - 2, h=cell_h - 2, fill="#eeeeee", tip=f"{where}: —"),
            text(x + cell_w / 2, y + 19, "—", anchor="middle", class_="cell"),
        ]
    lo, span = scale
    t = (value - lo) / span
    shown = value_format.format(value)
    return [
        rect(x, y, w=cell_w - 2, h=cell_h - 2, fill=_shade(t), tip=f"{where}: {shown}"),
        text(
            x + cell_w / 2,
            y + 19,
            shown,
            anchor="middle",
            class_="cell dark" if t > 0.55 else "cell",
        ),
    ]


def heatmap(
    rows: Sequence[str],
    *,
    columns: Sequence[str],
    matrix: Sequence[Sequence[float | None]],
    title: str,
    value_format: str = "{:.2f}",
    vmin: float | None = None,
    vmax: float | None = None,
) -> Markup:
    """A labelled matrix of shaded cells with the value written in each."""
    values = [v for row in matrix for v in row if v is not None and math.isfinite(v)]
    lo = vmin if vmin is not None else min(values, default=0.0)
    hi = vmax if vmax is not None else max(values, default=1.0)
    span = (hi - lo) or 1.0
    left = label_width(rows, 28)
    cell_w = min(max((WIDTH - left - 12) / max(len(columns), 1), 48), 110)
    cell_h = 30.0
    longest = max((min(len(c), 24) for c in columns), default=4)
    rotate = longest * CHAR_WIDTH > cell_w - 6
    top = 12 + (longest * CHAR_WIDTH * 0.6 + 8 if rotate else 18)
    parts: list[str] = []
    for j, name in enumerate(columns):
        x = left + (j + 0.5) * cell_w
        shown = shorten(name, 24)
        if rotate:
            parts.append(
                text(
                    x,
                    top - 6,
                    shown,
                    anchor="start",
                    class_="tick",
                    transform=f"rotate(-35 {x:.1f} {top - 6:.1f})",
                )
            )
        else:
            parts.append(text(x, top - 6, shown, anchor="middle", class_="tick"))
    for i, name in enumerate(rows):
        y = top + i * cell_h
        parts.append(text(left - 8, y + 19, shorten(name, 28), anchor="end", class_="label"))
        for j, value in enumerate(matrix[i]):
            where = f"{name} × {columns[j]}"
            parts += _cell(
                left + j * cell_w,
                y,
                cell_w=cell_w,
                cell_h=cell_h,
                value=value,
                scale=(lo, span),
                value_format=value_format,
                where=where,
            )
    height = top + cell_h * len(rows) + 8
    # a rotated label reaches past its column to the right
    overhang = longest * CHAR_WIDTH * 0.82 - cell_w / 2 if rotate else 0.0
    width = min(WIDTH, left + cell_w * len(columns) + 12 + max(overhang, 0.0))
    return figure(parts, width=width, height=height, label=title)


def _framed(
    parts: list[str],
    box: tuple[float, float, float, float],
    *,
    labels: tuple[str, str],
    title: str,
) -> Markup:
    """The figure of a plot's ``parts`` drawn in ``box`` (left, right, top, bottom), its
    x label below and its y label turned up the left side."""
    left, right, top, bottom = box
    x_label, y_label = labels
    parts.append(text((left + right) / 2, bottom + 32, x_label, anchor="middle", class_="axis"))
    middle = (top + bottom) / 2
    parts.append(
        text(
            14,
            middle,
            y_label,
            anchor="middle",
            class_="axis",
            transform=f"rotate(-90 14 {middle:.1f})",
        )
    )
    return figure(parts, width=WIDTH, height=bottom + 40, label=title)


def line_chart(
    xs: Sequence[float],
    series: Sequence[tuple[str, Sequence[float | None]]],
    x_label: str,
    *,
    y_label: str,
    title: str,
    mark: float | None = None,
    mark_label: str = "",
) -> Markup:
    """One line per series over ``xs``, a vertical band at ``mark`` (the chosen value)."""
    legend_parts, legend_height = legend([(n, colour(i)) for i, (n, _) in enumerate(series)], 8, 6)
    left, right = 56.0, WIDTH - 16
    top = 14 + legend_height
    bottom = top + 220
    ys = [v for _, vs in series for v in vs if finite(v)]
    y_ticks = axis_ticks(ys)
    lo, hi = y_ticks[0], y_ticks[-1]
    x_lo, x_hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    if x_hi == x_lo:
        x_lo, x_hi = x_lo - 0.5, x_hi + 0.5

    def px(x: float) -> float:
        return left + (x - x_lo) / (x_hi - x_lo) * (right - left)

    def py(y: float) -> float:
        return bottom - (y - lo) / (hi - lo) * (bottom - top)

    parts = list(legend_parts)
    for tick in y_ticks:
        parts.append(line(x1=left, y1=py(tick), x2=right, y2=py(tick), class_="grid"))
        parts.append(text(left - 6, py(tick) + 4, tick_label(tick), anchor="end", class_="tick"))
    for x in xs:
        parts.append(text(px(x), bottom + 15, f"{x:g}", anchor="middle", class_="tick"))
    if mark is not None:
        parts.append(line(x1=px(mark), y1=top, x2=px(mark), y2=bottom, class_="mark"))
        parts.append(text(px(mark) + 4, top + 12, mark_label, class_="legend"))
    for i, (name, values) in enumerate(series):
        kept = [(x, y) for x, y in zip(xs, values, strict=False) if finite(y)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in kept)
        parts.append(
            element("polyline", points=path, fill="none", stroke=colour(i), stroke_width="2")
        )
        for x, y in kept:
            tip = tooltip(f"{name} at {x:g}: {y:.3f}")
            parts.append(
                element("circle", content=tip, cx=px(x), cy=py(y), r="3.5", fill=colour(i))
            )
    parts.append(line(x1=left, y1=bottom, x2=right, y2=bottom, class_="axisline"))
    return _framed(parts, (left, right, top, bottom), labels=(x_label, y_label), title=title)


def scatter(
    points: Sequence[tuple[str, float, float]], x_label: str, *, y_label: str, title: str
) -> Markup:
    """Labelled points (e.g. one per system: human rating against the metric)."""
    left, right, top, bottom = 56.0, WIDTH - 150, 12.0, 312.0
    points = [p for p in points if finite(p[1]) and finite(p[2])]
    xs, ys = [p[1] for p in points], [p[2] for p in points]

    def padded(values: Sequence[float]) -> list[float]:
        lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
        pad = (hi - lo) * 0.08 or 0.05
        return nice_ticks(low=lo - pad, high=hi + pad)

    x_ticks, y_ticks = padded(xs), padded(ys)
    (x_lo, x_hi), (y_lo, y_hi) = (x_ticks[0], x_ticks[-1]), (y_ticks[0], y_ticks[-1])
    parts: list[str] = []
    for tick in x_ticks:
        x = left + (tick - x_lo) / (x_hi - x_lo) * (right - left)
        parts.append(line(x1=x, y1=top, x2=x, y2=bottom, class_="grid"))
        parts.append(text(x, bottom + 15, tick_label(tick), anchor="middle", class_="tick"))
    for tick in y_ticks:
        y = bottom - (tick - y_lo) / (y_hi - y_lo) * (bottom - top)
        parts.append(line(x1=left, y1=y, x2=right, y2=y, class_="grid"))
        parts.append(text(left - 6, y + 4, tick_label(tick), anchor="end", class_="tick"))
    for i, (name, xv, yv) in enumerate(points):
        x = left + (xv - x_lo) / (x_hi - x_lo) * (right - left)
        y = bottom - (yv - y_lo) / (y_hi - y_lo) * (bottom - top)
        tip = f"{name}: {x_label} {xv:.3f}, {y_label} {yv:.3f}"
        parts.append(element("circle", content=tooltip(tip), cx=x, cy=y, r="4.5", fill=colour(i)))
        parts.append(text(x + 7, y + 4, shorten(name, 22), class_="pointlabel"))
    return _framed(parts, (left, right, top, bottom), labels=(x_label, y_label), title=title)
