"""The report's PNGs (matplotlib, Agg): ratings with error bars, win rate by role,
head-to-head matrix, cost per game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parlour.tournament.ratings import Rating
from parlour.tournament.summary import Summary


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, format="png")
    _plt().close(fig)
    return path


def ratings_plot(ratings: list[Rating], title: str, path: Path) -> Path:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.45 * len(ratings) + 1.2)), dpi=110)
    if ratings:
        ys = list(range(len(ratings)))[::-1]
        ax.errorbar(
            [r.mu for r in ratings],
            ys,
            xerr=[[1.96 * r.sigma for r in ratings], [1.96 * r.sigma for r in ratings]],
            fmt="o",
            capsize=4,
        )
        ax.set_yticks(ys, [f"{r.key} (n={r.games})" for r in ratings])
        ax.axvline(25.0, color="#777777", linestyle="--", linewidth=1, label="starting rating")
        ax.legend(fontsize="small", loc="lower right")
    else:
        ax.text(0.5, 0.5, "no rated games (self-play only)", ha="center", va="center")
    ax.set_xlabel("OpenSkill μ (Plackett–Luce) with 95% interval (μ ± 1.96σ)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def role_win_plot(summary: Summary, path: Path) -> Path:
    plt = _plt()
    from matplotlib.ticker import PercentFormatter

    roles, entrants = summary.roles, summary.entrants
    fig, ax = plt.subplots(
        figsize=(max(6, 1.6 * len(roles) * max(1, len(entrants)) ** 0.5 + 3), 4.5), dpi=110
    )
    width = 0.8 / max(1, len(entrants))
    for k, e in enumerate(entrants):
        xs, ys, lo, hi = [], [], [], []
        for i, r in enumerate(roles):
            iv = summary.role_win_rates.get((e, r))
            if iv is None:
                continue
            xs.append(i + (k - (len(entrants) - 1) / 2) * width)
            ys.append(iv.value)
            lo.append(iv.value - iv.low)
            hi.append(iv.high - iv.value)
        ax.bar(xs, ys, width=width, yerr=[lo, hi], capsize=3, label=e)
    ax.set_xticks(range(len(roles)), roles)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% bootstrap CI)")
    ax.set_title(f"{summary.params.game}: win rate by role")
    ax.legend(fontsize="small", title="entrant")
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, path)


def h2h_plot(summary: Summary, path: Path) -> Path:
    plt = _plt()
    names = summary.entrants
    grid = [[float("nan") if v is None else v for v in row] for row in summary.h2h]
    fig, ax = plt.subplots(figsize=(2.2 + 1.1 * len(names), 1.8 + 1.0 * len(names)), dpi=110)
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(names)), names)
    ax.set_yticks(range(len(names)), names)
    for i, row in enumerate(summary.h2h):
        for j, v in enumerate(row):
            ax.text(j, i, "—" if v is None else f"{v:.0%}", ha="center", va="center")
    ax.set_xlabel("against (column)")
    ax.set_ylabel("entrant (row)")
    ax.set_title("head to head: row's side ahead of column's")
    fig.colorbar(im, ax=ax, fraction=0.046)
    return _save(fig, path)


def cost_plot(summary: Summary, path: Path) -> Path:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 3.5), dpi=110)
    ax.bar(range(1, len(summary.costs) + 1), summary.costs, color="#4c72b0")
    ax.set_xlabel("game (schedule order)")
    ax.set_ylabel("model cost per game (USD)")
    total = sum(summary.costs)
    ax.set_title(f"cost per game: total ${total:.4f} over {len(summary.costs)} games")
    if total == 0:
        ax.text(
            0.5,
            0.5,
            "no model calls cost anything (scripted or local seats)",
            transform=ax.transAxes,
            ha="center",
            va="center",
        )
    ax.set_ylim(bottom=0, top=max(summary.costs, default=0) * 1.1 or 0.01)
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, path)


def headline_plot(summary: Summary, path: Path) -> Path:
    """The headline figure (werewolf: the village's win rate) per rule set, with CIs."""
    plt = _plt()
    from matplotlib.ticker import PercentFormatter

    items = [(rules, iv) for rules, iv in summary.headline.items() if iv is not None]
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(items) + 1.6), dpi=110)
    ys = list(range(len(items)))[::-1]
    ax.errorbar(
        [iv.value for _, iv in items],
        ys,
        xerr=[[iv.value - iv.low for _, iv in items], [iv.high - iv.value for _, iv in items]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(ys, [f"{rules} (n={iv.n})" for rules, iv in items], fontsize="small")
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"{summary.headline_label} (95% bootstrap CI)")
    ax.set_title(f"{summary.params.game}: {summary.headline_label} by rule set")
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def write_plots(summary: Summary, folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    extra = {}
    if len(summary.headline) > 1:
        extra["by_rule_set"] = headline_plot(summary, folder / "by_rule_set.png")
    return {
        **extra,
        "ratings": ratings_plot(summary.ratings, "ratings per entrant", folder / "ratings.png"),
        "role_ratings": ratings_plot(
            summary.role_ratings, "ratings per entrant and role", folder / "role_ratings.png"
        ),
        "win_by_role": role_win_plot(summary, folder / "win_by_role.png"),
        "head_to_head": h2h_plot(summary, folder / "head_to_head.png"),
        "cost": cost_plot(summary, folder / "cost.png"),
    }
