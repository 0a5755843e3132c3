"""Figures as standalone SVG files (``--plot``): the threshold sweep and the kappa
heatmap, drawn by the HTML report's own chart code, with its chart styles inlined so
the file looks the same opened on its own."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from maieutic.data.files import write_text

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def _chart_styles() -> str:
    """The report stylesheet's colour variables and chart rules."""
    css = resources.files("maieutic.report.html").joinpath("templates/report.css")
    lines = css.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if line.startswith((":root", "svg ")))


def standalone(chart: str) -> str:
    """An inline chart (``<svg class="chart" …>``) as an SVG document."""
    head, rest = chart.split(">", 1)
    opening = head.replace("<svg ", f'<svg xmlns="{SVG_NAMESPACE}" ', 1)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"{opening}><style>{_chart_styles()}\nsvg {{ background: #fff; }}</style>{rest}\n"
    )


def sweep_plot(rows: Sequence[dict], chosen: float, path: str | Path, *, title: str) -> None:
    """Kappa (NAE kept / dropped) and the NAE rate against the threshold, the chosen
    threshold marked (the series of the report's "Threshold sweep")."""
    from maieutic.report.html.plots_grid import line_chart

    series = [
        (label, [r.get(key) for r in rows])
        for key, label in (
            ("kappa_nae_kept", "κ, NAE kept"),
            ("kappa_nae_dropped", "κ, NAE dropped"),
            ("nae_rate", "NAE rate"),
        )
    ]
    xs = [float(r["threshold"]) for r in rows]
    chart = line_chart(
        xs,
        series,
        "threshold",
        y_label="value",
        title=title,
        mark=chosen,
        mark_label=f"chosen {chosen:g}",
    )
    write_text(path, standalone(str(chart)))


def heatmap(
    names: Sequence[str], matrix: Sequence[Sequence[float | None]], path: str | Path, *, title: str
) -> None:
    """Cohen's kappa between evaluators (as the report's "κ between evaluators")."""
    from maieutic.report.html.plots_grid import heatmap as grid

    chart = grid(list(names), columns=list(names), matrix=matrix, title=title, vmin=0.0, vmax=1.0)
    write_text(path, standalone(str(chart)))


def curve_plot(rows: Sequence[dict], path: str | Path, title: str) -> None:
    """Kappa (NAE kept, the paper's Figure 4) and the NAE rate against the number of
    extra references (means over the draws)."""
    from maieutic.report.html.plots_grid import line_chart

    series = [
        (label, [r.get(key) for r in rows])
        for key, label in (
            ("kappa_nae_kept", "κ vs people, NAE kept"),
            ("nae_rate", "NAE rate"),
        )
    ]
    xs = [float(r["extra_references"]) for r in rows]
    chart = line_chart(
        xs, series, "extra references per intervention", y_label="value", title=title
    )
    write_text(path, standalone(str(chart)))
