"""Plots for evaluation reports (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from parlour.core.evaluation import Curve


def line_plot(
    curves: Mapping[str, Curve] | Sequence[Curve],
    path: str | Path,
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    reference: float | None = None,
    reference_label: str = "parity",
    percent: bool = True,
) -> Path:
    """Lines with shaded bands and a dashed reference line, written as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    items = list(curves.values()) if isinstance(curves, Mapping) else list(curves)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    try:
        for curve in items:
            (line,) = ax.plot(curve.x, curve.mean, marker="o", markersize=3, label=curve.label)
            band = [
                (x, lo, hi)
                for x, lo, hi in zip(curve.x, curve.low, curve.high, strict=True)
                if lo is not None and hi is not None
            ]
            if band:
                ax.fill_between(
                    [b[0] for b in band],
                    [b[1] for b in band],
                    [b[2] for b in band],
                    color=line.get_color(),
                    alpha=0.18,
                    linewidth=0,
                    label=f"{curve.label} (95% CI)",
                )
        if reference is not None:
            ax.axhline(
                reference, color="#555555", linestyle="--", linewidth=1, label=reference_label
            )
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if percent:
            ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="best")
        fig.tight_layout()
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, format="png")
    finally:
        plt.close(fig)
    return out
