"""``parlour eval diplomacy``: bot A against bot B over many stored games, with a
progress bar, a report, a JSON summary and a share-by-year plot.

The evaluation itself is ``evaluation.py``; this module parses, shows and writes, with the
generic pieces the eval surface lends (``EvalTools``).
"""

from __future__ import annotations

import functools
import json
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from parlour.command_options import BaseUrlOpt, DbUrlOpt, JobsOpt
from parlour.core.errors import ParlourError
from parlour.core.evaluation import Curve, EvalTools, LinePlot, Printer, Progress
from parlour.games.diplomacy.surface.evaluation import (
    MODES,
    EvalParams,
    Mode,
    persona_variants,
    prepare,
    run_eval,
)
from parlour.runtime.store import db_url


def eval_app(tools: EvalTools) -> typer.Typer:
    """The ``parlour eval diplomacy`` command, printing and plotting with ``tools``."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    console = tools.console

    @app.command("diplomacy")
    def diplomacy(
        bot: Annotated[
            str, typer.Option("--bot", help="bot A under test: a seat spec")
        ] = "dumbbot",
        vs: Annotated[
            str,
            typer.Option(
                "--vs",
                help="opponents B: dumbbot, hold, random, or a model spec (openai:MODEL, ...)",
            ),
        ] = "random",
        games: Annotated[
            int,
            typer.Option(
                "--games", "-n", help="games in all, even: half 1 A vs 6 B, half 6 A vs 1 B"
            ),
        ] = 14,
        end_year: Annotated[int, typer.Option("--end-year", help="last year played")] = 1910,
        seed: Annotated[
            int | None, typer.Option("--seed", help="base seed (default: random)")
        ] = None,
        jobs: JobsOpt = 1,
        out: Annotated[
            Path | None,
            typer.Option("--out", help="folder for the plot and JSON (default: .) or a .png path"),
        ] = None,
        db: DbUrlOpt = None,
        base_url: BaseUrlOpt = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="also print a one-line JSON summary (for scripts)")
        ] = False,
        set_: Annotated[
            list[str] | None,
            typer.Option("--set", help="game setting KEY=VALUE, e.g. press_rounds=1 (repeatable)"),
        ] = None,
        personas: Annotated[
            bool,
            typer.Option(
                "--personas", help="--bot is bot:SPEC: run it persona-free and with each persona"
            ),
        ] = False,
        mode: Annotated[
            str,
            typer.Option(
                "--mode", help="all (half 1v6, half 6v1), or only 1v6 or 6v1: --games of it"
            ),
        ] = "all",
    ) -> None:
        """Bot A against bot B: --games N plays N games, half of 1 vs 6 and half of 6 vs 1,
        rotating the powers."""
        if mode in MODES:
            only: tuple[Mode, ...] = (mode,)
            per_mode = games
        elif mode == "all":
            only, per_mode = MODES, games // 2
        else:
            raise ParlourError(f"--mode {mode}: write all, 1v6 or 6v1")
        if mode == "all" and (games < 2 or games % 2):
            raise ParlourError(
                f"--games {games}: give an even number of games in all (half are 1 vs 6, half "
                "6 vs 1), e.g. --games 2"
            )

        if seed is None:
            seed = secrets.randbelow(1_000_000)
        options = tools.parse_set(set_)
        if personas:
            variants = persona_variants(bot)
            runs = []
            for label, spec in variants:
                p = prepare(
                    EvalParams(
                        spec,
                        vs,
                        games // 2,
                        end_year,
                        seed,
                        max(1, jobs),
                        db_url(db) if db else "",
                        base_url,
                        options,
                    )
                )
                with tools.progress(f"{label} vs {vs}: games", games) as bar:
                    advance = functools.partial(_advance, bar)
                    runs.append((label, run_eval(p, on_done=advance, prepared=True)))
            _persona_report(console, runs, vs)
            _, js = output_paths(out, runs[0][1].run_id, "eval-diplomacy-personas")
            js.write_text(
                json.dumps({label: r.summary for label, r in runs}, indent=2) + "\n",
                encoding="utf-8",
            )
            console.print(f"summaries {js}", highlight=False, soft_wrap=True)
            return
        params = prepare(
            EvalParams(
                options=options,
                bot=bot,
                vs=vs,
                games=per_mode,  # the evaluation counts games per mode
                modes=only,
                end_year=end_year,
                seed=seed,
                jobs=max(1, jobs),
                db_url=db_url(db) if db else "",
                base_url=base_url,
            )
        )
        console.print(f"seed {seed}", style="dim")
        with tools.progress(f"{bot} vs {vs}: games", games) as bar:
            run = run_eval(params, on_done=functools.partial(_advance, bar), prepared=True)
        summary = run.summary
        _report(console, summary)
        png, js = output_paths(out, run.run_id, "eval-diplomacy")
        share_by_year(tools.line_plot, summary, png)
        js.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        console.print(
            f"eval {run.run_id}: plot {png}, summary {js}", highlight=False, soft_wrap=True
        )
        if not as_json:
            return
        sys.stdout.write(
            json.dumps(
                {
                    "run_id": run.run_id,
                    "bot": bot,
                    "vs": vs,
                    **{
                        f"a_share_{mode}": m["a_share"]["mean"]
                        for mode, m in summary["modes"].items()
                    },
                    "seconds": round(summary["seconds"], 1),
                }
            )
            + "\n"
        )

    return app


def _pct(value: Any) -> str:
    return "?" if value is None else f"{float(value):.1%}"


def _num(value: Any) -> str:
    return "?" if value is None else f"{float(value):.2f}"


def _share(ci: dict[str, Any]) -> str:
    if ci["low"] is None:
        return f"{_pct(ci['mean'])} (n={ci['n']}, no CI)"
    return f"{_pct(ci['mean'])} [{_pct(ci['low'])}, {_pct(ci['high'])}]"


def output_paths(out: Path | None, run_id: str, stem: str) -> tuple[Path, Path]:
    """``--out`` is a folder (default: here) or a ``.png`` path; the JSON sits next to it."""
    if out is not None and out.suffix.lower() == ".png":
        return out, out.with_suffix(".json")
    folder = out or Path(".")
    return folder / f"{stem}-{run_id}.png", folder / f"{stem}-{run_id}.json"


def _report(console: Printer, summary: dict[str, Any]) -> None:
    params = summary["params"]
    a, b = params["bot"], params["vs"]
    table = Table(title=f"diplomacy: {a} (A) vs {b} (B), to {params['end_year']}")
    for col in ("mode", "games", "A share [95% CI]", "vs parity", "A solos", "B solos", "A elim."):
        table.add_column(col, justify="left" if col == "mode" else "right")
    labels = {"1v6": "1 A vs 6 B", "6v1": "6 A vs 1 B"}
    for mode, m in summary["modes"].items():
        verdict = "above" if m["above_parity"] else "below" if m["below_parity"] else "≈"
        table.add_row(
            labels[mode],
            str(m["games"]),
            _share(m["a_share"]),
            f"{verdict} {_pct(summary['parity'])}",
            str(m["solo_wins_a"]),
            str(m["solo_wins_b"]),
            str(m["a_eliminations"]),
        )
    table.add_row("all", str(summary["overall"]["games"]), _share(summary["overall"]["a_share"]))
    console.print(table)
    per = Table(title="by the single seat's power: games and A's share (per power)")
    per.add_column("power")
    for mode in summary["modes"]:
        per.add_column(f"{mode} games", justify="right")
        per.add_column(f"{mode} A share", justify="right")
    powers = sorted({p for m in summary["modes"].values() for p in m["per_power"]})
    for power in powers:
        row = [power]
        for m in summary["modes"].values():
            cell = m["per_power"].get(power)
            row += [str(cell["games"]), _pct(cell["a_share"])] if cell else ["0", "-"]
        per.add_row(*row)
    console.print(per)
    never = Table(title="never stupid (rules broken in submitted orders, per game) and A's calls")
    cols = ("mode", "A broken", "A guard fixes", "A stupid before guards", "B broken")
    for col in (*cols, "A tokens/phase", "A s/phase"):
        never.add_column(col, justify="left" if col == "mode" else "right")
    for mode, m in summary["modes"].items():
        never.add_row(
            mode,
            f"{m['stupid_a_per_game']:.2f}",
            f"{m['guard_fixes_a_per_game']:.2f}",
            _sets(m["stupid_sets_a"], m["own_sets_a"]),
            f"{m['stupid_b_per_game']:.2f}",
            f"{m['a_tokens_per_phase']:.0f}",
            f"{m['a_latency_per_phase']:.1f}",
        )
    console.print(never)
    conduct = Table(title="A's conduct (deals, supports, attacks: docs/diplomacy-bot.md)")
    for col in ("mode", "betrayal", "support-given", "attack", "lies/phase", "proposals/phase"):
        conduct.add_column(col, justify="left" if col == "mode" else "right")
    for mode, m in summary["modes"].items():
        c = m["conduct_a"]
        conduct.add_row(
            mode,
            _pct(c["betrayal_rate"]),
            _pct(c["support_rate"]),
            _pct(c["attack_rate"]),
            _num(c["lies_per_phase"]),
            _num(c["proposals_per_phase"]),
        )
    console.print(conduct)


def _sets(stupid: int, own: int) -> str:
    """A's own order sets that were stupid as answered: "3/40 (7.5%)"; "-" for none."""
    return f"{stupid}/{own} ({stupid / own:.1%})" if own else "-"


def _advance(bar: Progress, _outcome: object) -> None:
    bar.advance()


def _persona_report(console: Printer, runs: list[tuple[str, Any]], vs: str) -> None:
    """One line per persona: A's centre share in both modes and the never-stupid counts."""
    table = Table(title=f"persona vs persona-free, against {vs}")
    for col in ("bot", "1v6 A share [95% CI]", "6v1 A share [95% CI]", "A broken/game"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for label, run in runs:
        modes = run.summary["modes"]
        table.add_row(
            label,
            _share(modes["1v6"]["a_share"]),
            _share(modes["6v1"]["a_share"]),
            f"{max(m['stupid_a_per_game'] for m in modes.values()):.2f}",
        )
    console.print(table)


def share_by_year(line_plot: LinePlot, summary: Mapping[str, object], path: str | Path) -> Path:
    """A Diplomacy eval's share-by-year plot (``evaluation.summarise``), drawn by
    ``line_plot``."""
    by_year = summary["by_year"]
    params = summary["params"]
    assert isinstance(by_year, Mapping) and isinstance(params, Mapping)
    a, b = params["bot"], params["vs"]
    names = {"1v6": f"{a} alone vs 6 × {b}", "6v1": f"6 × {a} vs 1 {b} (per power)"}
    curves = [
        Curve(
            names.get(str(mode), str(mode)), data["years"], data["mean"], data["low"], data["high"]
        )
        for mode, data in by_year.items()
    ]
    parity = summary.get("parity")
    return line_plot(
        curves,
        path,
        title=f"Diplomacy: centre share of {a} by year",
        xlabel="year (end of)",
        ylabel=f"share of the centres held by {a}",
        reference=float(parity) if isinstance(parity, float | int) else None,
        reference_label="parity (1/7)",
    )
