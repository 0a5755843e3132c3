"""Hand-written SVG: a few escaped primitives and the axis arithmetic the charts share.

Charts are drawn by hand rather than by a plotting library so that the same inputs
always give the same bytes (no random ids, no embedded dates, no font files) and the
figures stay small, crisp and styled by the page's own CSS.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from markupsafe import Markup, escape

WIDTH = 860
"""Every chart's view-box width; the page scales it down on narrow screens."""

PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#8C6D1F",
    "#666666",
)
"""Okabe–Ito colours (distinguishable with the common colour-vision deficiencies)."""

CHAR_WIDTH = 6.6
"""Approximate width of one character of the 12px chart font, for laying out labels."""


def finite(value: object) -> bool:
    """A number that can be drawn (not None, NaN or infinite)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def colour(index: int) -> str:
    """The ``index``-th series colour (cycling)."""
    return PALETTE[index % len(PALETTE)]


def num(value: float) -> str:
    """A coordinate with at most one decimal (short and deterministic)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _attrs(attrs: dict[str, object]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value == "":
            continue
        shown = num(value) if isinstance(value, float) else str(value)
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{escape(shown)}"')
    return " ".join(parts)


def element(tag: str, *, content: str = "", **attrs: object) -> str:
    """``<tag attrs>content</tag>`` (``content`` must already be escaped markup)."""
    opening = f"<{tag} {_attrs(attrs)}".rstrip()
    return f"{opening}>{content}</{tag}>" if content else f"{opening}/>"


def tooltip(text: str | None) -> str:
    """A ``<title>`` child: browsers show it on hover."""
    return f"<title>{escape(text)}</title>" if text else ""


def text(x: float, y: float, content: str, *, anchor: str = "start", **attrs: object) -> str:
    """A text label (escaped)."""
    return element(
        "text", content=str(escape(content)), x=float(x), y=float(y), text_anchor=anchor, **attrs
    )


def rect(
    x: float, y: float, *, w: float, h: float, fill: str, tip: str | None = None, **attrs: object
) -> str:
    """A filled rectangle with an optional hover text."""
    return element(
        "rect",
        content=tooltip(tip),
        x=float(x),
        y=float(y),
        width=float(max(w, 0)),
        height=float(max(h, 0)),
        fill=fill,
        **attrs,
    )


def line(*, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> str:
    """A straight line (stroke set by ``attrs`` or the page CSS)."""
    return element("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **attrs)


def shorten(label: str, limit: int) -> str:
    """``label`` cut to ``limit`` characters with an ellipsis (the full text goes in a
    tooltip beside it)."""
    return label if len(label) <= limit else label[: max(limit - 1, 1)] + "…"


def label_width(labels: Iterable[str], limit: int = 32) -> float:
    """Room for the longest of ``labels`` (cut at ``limit`` characters)."""
    longest = max((min(len(s), limit) for s in labels), default=4)
    return longest * CHAR_WIDTH + 12


def figure(parts: Sequence[str], *, width: float, height: float, label: str) -> Markup:
    """The ``<svg>`` element: scalable, labelled for screen readers."""
    body = "".join(parts)
    return Markup(
        f'<svg class="chart" viewBox="0 0 {num(width)} '
        f'{num(height)}" width="{num(width)}" height="{num(height)}" role="img" '
        f'aria-label="{escape(label)}">{tooltip(label)}{body}</svg>'
    )


def nice_ticks(*, low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]`` (steps of 1, 2, 2.5 or 5 × 10^k)."""
    if high <= low:
        high = low + 1.0
    raw = (high - low) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    # from the round tick at or below ``low`` to the one at or above ``high``
    ticks = [round(k * step, 10) for k in range(first, last + 1)]
    return ticks


def axis_ticks(values: Iterable[float], *, floor: float = 0.0, ceiling: float = 1.0) -> list[float]:
    """Round ticks of an axis that holds ``values`` and at least ``[floor, ceiling]``;
    the first and last tick are the axis ends (so bars never touch the frame)."""
    finite = [v for v in values if v is not None and math.isfinite(v)]
    return nice_ticks(low=min([floor, *finite]), high=max([ceiling, *finite]))


def tick_label(value: float) -> str:
    """A tick value without needless decimals."""
    return f"{value:g}" if abs(value) >= 1e-9 else "0"


def legend(entries: Sequence[tuple[str, str]], x: float, y: float) -> tuple[list[str], float]:
    """Coloured squares with names in rows from (x, y); returns the parts and the height
    used (entries wrap at the chart width)."""
    parts: list[str] = []
    cx, cy = x, y
    for name, fill in entries:
        shown = shorten(name, 28)
        width = 16 + len(shown) * CHAR_WIDTH + 14
        if cx + width > WIDTH - 8 and cx > x:
            cx, cy = x, cy + 18
        parts.append(rect(cx, cy, w=11, h=11, fill=fill, tip=name))
        parts.append(text(cx + 16, cy + 10, shown, class_="legend"))
        cx += width
    return parts, cy - y + 18
