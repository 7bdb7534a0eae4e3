"""The results as Rich tables (terminal) and as an HTML page beside the PNGs."""

from __future__ import annotations

import html
from pathlib import Path

from rich.console import Console
from rich.table import Table

from parlour.tournament.metrics import metrics_for
from parlour.tournament.ratings import Interval
from parlour.tournament.summary import Summary


def ci(iv: Interval | None, pct: bool = True) -> str:
    if iv is None:
        return "-"
    if pct:
        return f"{iv.value:.1%} [{iv.low:.1%}, {iv.high:.1%}]"
    return f"{iv.value:.2f} [{iv.low:.2f}, {iv.high:.2f}]"


def tables(s: Summary) -> list[Table]:
    out: list[Table] = []
    rated = s.played - s.self_play
    t = Table(
        title=f"{s.params.game} tournament {s.tid}: {s.played}/{s.scheduled} games, "
        f"{rated} rated ({s.self_play} self-play not rated)"
    )
    for col in ("entrant", "spec", "rating μ [95%]", "ordinal", "win rate [95% CI]"):
        t.add_column(col, justify="left" if col in ("entrant", "spec") else "right")
    by_key = {r.key: r for r in s.ratings}
    for entrant in s.params.entrants:
        r = by_key.get(entrant.name)
        t.add_row(
            entrant.name,
            entrant.spec,
            f"{r.mu:.1f} [{r.low:.1f}, {r.high:.1f}]" if r else "-",
            f"{r.ordinal:.1f}" if r else "-",
            ci(s.win_rates.get(entrant.name)),
        )
    out.append(t)
    if len(s.roles) > 1 or s.roles != ["player"]:
        t = Table(title="win rate by role [95% bootstrap CI] and role rating μ")
        t.add_column("entrant")
        for role in s.roles:
            t.add_column(role, justify="right")
        role_r = {r.key: r for r in s.role_ratings}
        for e in s.entrants:
            cells = []
            for role in s.roles:
                rr = role_r.get(f"{e} as {role}")
                cells.append(
                    ci(s.role_win_rates.get((e, role))) + (f"  μ {rr.mu:.1f}" if rr else "")
                )
            t.add_row(e, *cells)
        out.append(t)
    metrics = metrics_for(s.params.game)
    if metrics.ratios:
        t = Table(title=f"{s.params.game} metrics per entrant [95% bootstrap CI]")
        t.add_column("metric")
        for e in s.entrants:
            t.add_column(e, justify="right")
        t.add_column("definition")
        for ratio in metrics.ratios:
            t.add_row(
                ratio.name,
                *[ci(s.ratios.get((ratio.name, e)), ratio.percent) for e in s.entrants],
                ratio.describe,
            )
        out.append(t)
    if s.headline:
        t = Table(title=f"{s.headline_label} by rule set [95% bootstrap CI]")
        t.add_column("rules")
        t.add_column(s.headline_label or "", justify="right")
        t.add_column("games", justify="right")
        for rules, iv in s.headline.items():
            t.add_row(rules, ci(iv), str(iv.n if iv else 0))
        out.append(t)
    return out


def print_report(s: Summary, console: Console) -> None:
    for t in tables(s):
        console.print(t)
    total = sum(s.costs)
    mean_s = sum(s.seconds) / max(1, len(s.seconds))
    console.print(
        f"cost ${total:.4f} (${total / max(1, s.played):.5f} a game); "
        f"{mean_s:.3f}s per game; status {s.status}",
        highlight=False,
    )


def _html_table(t: Table) -> str:
    head = "".join(f"<th>{html.escape(str(c.header))}</th>" for c in t.columns)
    rows = []
    cells = [list(c.cells) for c in t.columns]
    for i in range(t.row_count):
        rows.append(
            "<tr>" + "".join(f"<td>{html.escape(str(col[i]))}</td>" for col in cells) + "</tr>"
        )
    return f"<h2>{html.escape(str(t.title))}</h2><table><tr>{head}</tr>{''.join(rows)}</table>"


def write_html(s: Summary, folder: Path, plots: dict[str, Path]) -> Path:
    imgs = "".join(
        f'<figure><img src="{p.name}" alt="{html.escape(k)}">'
        f"<figcaption>{html.escape(k)}</figcaption></figure>"
        for k, p in plots.items()
    )
    entrants = ", ".join(f"{html.escape(e.name)}={html.escape(e.spec)}" for e in s.params.entrants)
    body = "".join(_html_table(t) for t in tables(s))
    page = f"""<!doctype html><html><head><meta charset="utf-8">
<title>parlour tournament {s.tid}</title>
<style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}}
table{{border-collapse:collapse;margin-bottom:1em}}td,th{{border:1px solid #ccc;padding:4px 8px}}
td{{text-align:right}}td:first-child{{text-align:left}}img{{max-width:100%}}</style></head><body>
<h1>{html.escape(s.params.game)} tournament {s.tid}</h1>
<p>entrants {entrants}; {s.params.games} games per rule set, seed {s.params.seed};
{s.played}/{s.scheduled} games played, status {html.escape(s.status)}.
Command to resume: <code>parlour tournament resume {s.tid}</code></p>
{body}{imgs}</body></html>
"""
    path = folder / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
