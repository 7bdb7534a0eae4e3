"""``parlour tournament GAME --entrant NAME=SPEC ...``, ``parlour tournament resume ID``
and ``parlour tournament list``: parse, show progress, print and write the report. The
logic lives in ``parlour.tournament``."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import TaskID, TextColumn
from rich.table import Table

from parlour.cli.progress import progress_bar
from parlour.cli.seed import checked_seed
from parlour.command_options import BaseUrlOpt, DbUrlOpt, JobsOpt
from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.runtime.databases import existing_store, new_or_existing_store
from parlour.runtime.set_values import parse_set_options
from parlour.runtime.store import Store

console = Console()


def tournament(
    target: Annotated[
        str, typer.Argument(help=f"game name (see `{command('games')}`), or `resume` / `list`")
    ],
    tournament_id: Annotated[
        str | None, typer.Argument(help="with `resume`: the tournament id")
    ] = None,
    entrant: Annotated[
        list[str] | None,
        typer.Option(
            "--entrant",
            "-e",
            help="NAME=SPEC (repeatable), e.g. -e a=scripted -e mine=python:mypkg.agents:cautious",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="games (per rule set, with a grid)")
    ] = 20,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="base seed (default: random)", callback=checked_seed),
    ] = None,
    jobs: JobsOpt = 1,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="run games as Ray tasks: a cluster ADDRESS, or `local`"),
    ] = None,
    concurrency: Annotated[
        int,
        typer.Option(
            "--concurrency",
            "-c",
            help="games in flight per worker on one event loop (for hosted models: "
            "a worker mostly waits on them); results do not depend on it",
        ),
    ] = 1,
    rpm: Annotated[
        float | None,
        typer.Option("--rpm", help="requests per minute per provider and worker (stored)"),
    ] = None,
    tpm: Annotated[
        float | None,
        typer.Option("--tpm", help="tokens per minute per provider and worker (stored)"),
    ] = None,
    in_flight: Annotated[
        int | None,
        typer.Option("--in-flight", help="model calls in flight per provider and worker (stored)"),
    ] = None,
    budget: Annotated[
        float | None, typer.Option("--budget", help="stop cleanly once this many USD are spent")
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report", help="folder for index.html and the PNG plots (default: ./tournament-ID)"
        ),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="game option KEY=VALUE for every game (repeatable)"),
    ] = None,
    grid: Annotated[
        list[str] | None,
        typer.Option(
            "--grid",
            help="rule variants KEY=V1,V2 (repeatable): the schedule is played per rule set; "
            "one entrant alone crosses the game's balance rules unless --grid none",
        ),
    ] = None,
    db: DbUrlOpt = None,
    base_url: BaseUrlOpt = None,
) -> None:
    """Rate entrants (seat specs) against each other over many stored games of GAME."""
    from parlour.tournament import run as runs

    # `list` and `resume` read a database that must exist; a new tournament creates it.
    store = existing_store(db) if target in ("list", "resume") else new_or_existing_store(db)
    if target == "list":
        _list(store)
        return
    if jobs < 1:
        raise ParlourError(f"--jobs {jobs}: give at least 1 worker, e.g. --jobs 2")
    if concurrency < 1:
        raise ParlourError(f"--concurrency {concurrency}: give at least 1, e.g. --concurrency 8")
    limits = runs.limits_of(rpm, tpm, in_flight)
    if target == "resume":
        if tournament_id is None:
            raise ParlourError(f"give the tournament id: {command('tournament resume ID')}")
        if (rpm, tpm, in_flight) != (None, None, None):
            raise ParlourError(
                "--rpm, --tpm and --in-flight are stored with the tournament when it is "
                f"created; drop them: {command('tournament resume ' + tournament_id)}"
            )
        tid = tournament_id
        from parlour.tournament import storage

        storage.get(store, tid)  # unknown id: one-line error
    else:
        if tournament_id is not None:
            raise ParlourError(
                f"unexpected argument '{tournament_id}'; to continue a tournament: "
                f"{command('tournament resume ID')}"
            )
        from parlour.games import registry

        module = registry.load(target)
        seed = secrets.randbelow(1_000_000) if seed is None else seed
        grid_map = None if grid is None else {} if grid == ["none"] else runs.parse_grid(grid)
        params = runs.prepare(
            store,
            target,
            entrant or [],
            games=games,
            seed=seed,
            options=parse_set_options(set_, module.game.config_model),
            grid=grid_map,
            budget=budget,
            base_url=base_url,
            limits=limits,
        )
        tid = runs.create(store, params)
        sets = len(runs.rule_sets_of(params))
        console.print(
            f"tournament {tid}: seed {seed}, {games * sets} games"
            + (f" ({games} per rule set × {sets})" if sets > 1 else ""),
            highlight=False,
        )
    _play(store, tid, jobs, ray, concurrency)
    _show(store, tid, report)


def _play(store: Store, tid: str, jobs: int, ray: str | None, concurrency: int) -> None:
    from parlour.tournament import run as runs

    todo = len(runs.pending_jobs(store, tid))
    if not todo:
        console.print(f"tournament {tid}: every game is played", highlight=False)
        return
    bar = progress_bar(console)
    bar.columns = (*bar.columns, TextColumn("cost ${task.fields[cost]:.4f}"))
    with bar as progress:
        task: TaskID = progress.add_task(f"{tid}: games", total=todo, cost=runs.spent(store, tid))

        def done(_outcome: dict[str, Any], cost: float) -> None:
            progress.update(task, advance=1, cost=cost)

        result = runs.run(store, tid, jobs=jobs, ray=ray, concurrency=concurrency, on_done=done)
    if result.stopped_by_budget:
        console.print(
            f"budget reached after {result.played} games (${result.cost_usd:.4f}); "
            f"`{command('tournament resume ' + tid)}` plays the rest (raise nothing: the budget "
            "is stored with the tournament)",
            style="yellow",
            highlight=False,
        )


def _show(store: Store, tid: str, report: Path | None) -> None:
    from parlour.tournament.plots import write_plots
    from parlour.tournament.report import print_report, write_html
    from parlour.tournament.summary import summarise

    summary = summarise(store, tid)
    print_report(summary, console)
    folder = report if report is not None else Path(f"tournament-{tid}")
    plots = write_plots(summary, folder)
    page = write_html(summary, folder, plots)
    console.print(f"report: {page} ({len(plots)} plots)", highlight=False, soft_wrap=True)


def _list(store: Store) -> None:
    from parlour.tournament import storage

    t = Table(title="tournaments")
    for col in ("id", "game", "entrants", "games", "status"):
        t.add_column(col)
    for row, done, total in storage.list_all(store):
        names = ", ".join(f"{e['name']}={e['spec']}" for e in row.params["entrants"])
        t.add_row(row.id, row.game, names, f"{done}/{total}", row.status)
    console.print(t)
