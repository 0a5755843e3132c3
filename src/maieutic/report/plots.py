"""PNG figures (matplotlib, headless): the threshold sweep and the kappa heatmap."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from maieutic.errors import RunError


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RunError("plots need matplotlib: pip install matplotlib") from None
    return plt


def sweep_plot(rows: Sequence[dict], chosen: float, path: str | Path, title: str) -> None:
    """Kappa (NAE kept / dropped) and NAE rate against the threshold, chosen one marked."""
    plt = _pyplot()
    xs = [r["threshold"] for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=120)
    for key, label, style in [
        ("kappa_nae_kept", "κ, NAE kept", "o-"),
        ("kappa_nae_dropped", "κ, NAE dropped", "s-"),
    ]:
        ax.plot(
            xs, [r[key] if r[key] is not None else float("nan") for r in rows], style, label=label
        )
    ax.set_xlabel("threshold")
    ax.set_ylabel("Cohen's κ with human labels")
    ax2 = ax.twinx()
    ax2.plot(xs, [100 * r["nae_rate"] for r in rows], "r^--", label="NAE %")
    ax2.set_ylabel("NAE %")
    ax.axvline(chosen, color="green", alpha=0.4, linewidth=6, label=f"chosen {chosen:g}")
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="best", fontsize=8)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def heatmap(
    names: Sequence[str], matrix: Sequence[Sequence[float | None]], path: str | Path, title: str
) -> None:
    """A labelled square heatmap (e.g. Cohen's κ between evaluators)."""
    plt = _pyplot()
    import numpy as np

    values = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float)
    size = 1.2 + 0.9 * len(names)
    fig, ax = plt.subplots(figsize=(size, size), dpi=120)
    image = ax.imshow(values, vmin=-0.2, vmax=1.0, cmap="viridis")
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(values[i, j]):
                ax.text(
                    j,
                    i,
                    f"{values[i, j]:.2f}",
                    ha="center",
                    va="center",
                    color="white" if values[i, j] < 0.5 else "black",
                    fontsize=8,
                )
    fig.colorbar(image, ax=ax, fraction=0.046)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
