"""The ``parlour`` command."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.console import Console
from rich.table import Table

from parlour.cli import game_flags
from parlour.cli import help as clean_help
from parlour.cli.audit_cmd import audit
from parlour.cli.evals import evals_app
from parlour.cli.export_cmd import export
from parlour.cli.live import LiveStatus, watch_seats
from parlour.cli.prompt_line import terminal_lines
from parlour.cli.render import SeatObserver, TerminalObserver, event_line
from parlour.cli.seed import checked_seed
from parlour.cli.serve_cmd import serve
from parlour.cli.signals import EXIT_TERMINATED, Terminated, sigterm_interrupts
from parlour.cli.tournament_cmd import tournament
from parlour.command_options import DbUrlOpt
from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.core.module import GameModule
from parlour.games import registry
from parlour.render.transcript import Format, render_transcript
from parlour.runtime import session as sessions
from parlour.runtime.databases import existing_store, new_or_existing_store
from parlour.runtime.local_lease import held_here
from parlour.runtime.seating import parse_overrides
from parlour.runtime.set_values import parse_set_options
from parlour.runtime.store import Store, default_db_url, sqlite_path
from parlour.seats.human import HumanSeat, reading_input

clean_help.install()

app = typer.Typer(
    help="parlour: games played by and with LLM agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(evals_app, name="eval")  # diplomacy: `parlour eval diplomacy` (cli/evals.py)
app.command("audit")(audit)  # leak audit of stored games (cli/audit_cmd.py)
app.command("tournament")(tournament)  # ratings over many games (cli/tournament_cmd.py)
app.command("export")(export)  # games as JSONL datasets (cli/export_cmd.py)
app.command("serve")(serve)  # the web app (cli/serve_cmd.py, web/)
console = Console()
err_console = Console(stderr=True)
#: who is thinking right now (model seats report to it; drawn on a terminal only)
status = LiveStatus(console)

SeedOpt = Annotated[
    int | None,
    typer.Option("--seed", help="seed (default: random, printed)", callback=checked_seed),
]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-n", help="number of players")]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="game option KEY=VALUE (repeatable), e.g. --set tie_rule=random"),
]
SeatOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--seat",
        help="per-seat override SEAT=SPEC, e.g. --seat 3=human or "
        "--seat p3=python:mypkg.agents:cautious (repeatable)",
    ),
]
ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        help="who plays the seats: local (embedded model), scripted, random, openai:MODEL, "
        "anthropic:MODEL, replay:GAME_ID, chaos(RATE):SPEC, your own callable "
        "python:MODULE:CALLABLE or agent:NAME",
    ),
]
RouterOpt = Annotated[
    str,
    typer.Option(
        "--router",
        help="who picks the next speakers: scripted (deterministic rules) or llm (the model)",
    ),
]
BaseUrlOpt = Annotated[
    str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint (or $OPENAI_BASE_URL)")
]


def _store(db: str | None) -> Store:
    return new_or_existing_store(db)


def _options(items: list[str] | None, module: GameModule | None = None) -> dict[str, object]:
    return parse_set_options(items, module.game.config_model if module else None)


def _warn(message: str) -> None:
    err_console.print(f"warning: {message}", style="yellow", highlight=False, soft_wrap=True)


def _llm(store: Store, base_url: str | None) -> Any:
    from parlour.runtime.llm_seating import LlmFactory

    return LlmFactory(store=store, base_url=base_url, on_warning=_warn)


def _seat_table(session: sessions.Session) -> Table:
    table = Table(title=f"{session.game_name} · game {session.game_id}", show_lines=False)
    table.add_column("seat")
    table.add_column("name")
    table.add_column("played by")
    for info in session.game.seats():
        table.add_row(info.id, info.name, session.seat_specs[info.id])
    return table


PaceOpt = Annotated[
    float,
    typer.Option("--pace", min=0.0, help="seconds to pause between decisions, to follow along"),
]


TimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--decision-timeout",
        help="seconds a seat may take; then its fallback answers (Diplomacy: civil disorder)",
    ),
]


def _run(
    session: sessions.Session,
    store: Store,
    *,
    quiet: bool = False,
    pace: float = 0.0,
    table: bool = False,
    timeout: float | None = None,
) -> None:
    session.runner.pace = pace
    session.runner.decision_timeout = timeout
    if table and not quiet:
        console.print(_seat_table(session))
    store.set_status(session.game_id, "running")
    try:
        try:
            # SIGTERM pauses the game as Ctrl-C does; the lease tells `list` it runs here.
            with sigterm_interrupts(), held_here(store, session.game_id):
                asyncio.run(session.run())
        finally:
            status.stop()  # the status lines go before any message below
    except KeyboardInterrupt as err:
        store.set_status(session.game_id, "paused")  # `list` shows it until resumed
        how = "terminated" if isinstance(err, Terminated) else "interrupted"
        err_console.print(
            f"{how}; everything so far is saved — "
            f"continue with: {_again(store, 'resume', session)}",
            soft_wrap=True,
        )
        raise typer.Exit(EXIT_TERMINATED if isinstance(err, Terminated) else 130) from None
    except EOFError:
        store.set_status(session.game_id, "paused")
        err_console.print(
            f"input closed; the game is saved — continue with: {_again(store, 'resume', session)}",
            soft_wrap=True,
        )
        raise typer.Exit(1) from None
    console.print(f"saved as {session.game_id} ({_again(store, 'show', session)})", style="dim")


def _again(store: Store, verb: str, session: sessions.Session) -> str:
    """``parlour VERB GAME_ID`` as the user can type it: with ``uv run`` from a checkout,
    and with ``--db`` when the game is not in the default database."""
    db = "" if store.url == default_db_url() else f" --db {_db_arg(store)}"
    return command(f"{verb} {session.game_id}{db}")


def _db_arg(store: Store) -> str:
    path = sqlite_path(store.url)
    return shlex.quote(str(path) if path is not None else store.url)


@app.command()
def games() -> None:
    """List the games parlour can run."""
    table = Table(title="games")
    for col in ("name", "title", "seats", "description"):
        table.add_column(col)
    for name in registry.game_names():
        try:
            info = registry.load(name).game.info
        except ImportError as err:
            table.add_row(name, "(unavailable)", "", str(err))
            continue
        table.add_row(name, info.title, f"{info.min_seats}-{info.max_seats}", info.description)
    console.print(table)


def watch(
    game: Annotated[str, typer.Argument(help=f"game name (see `{command('games')}`)")],
    players: PlayersOpt = None,
    seed: SeedOpt = None,
    reveal: Annotated[bool, typer.Option(help="show secrets (roles, private channels)")] = False,
    model: Annotated[  # --bots: an alias of --model (diplomacy: `--bots dumbbot`)
        str,
        typer.Option(
            "--model",
            "--bots",
            help="who plays the seats: local (embedded model), scripted, random, a game's "
            "named bot (dumbbot, hold), openai:MODEL, anthropic:MODEL, replay:GAME_ID, "
            "chaos(rate=R):SPEC, indiscreet (tells every secret: a leak test)",
        ),
    ] = "local",
    seat: SeatOpt = None,
    set_: SetOpt = None,
    base_url: BaseUrlOpt = None,
    db: DbUrlOpt = None,
    quiet: Annotated[bool, typer.Option(help="print only the result")] = False,
    pace: PaceOpt = 0.0,
    decision_timeout: TimeoutOpt = None,
    router: RouterOpt = "scripted",
) -> None:
    """Watch an all-AI game; the public transcript streams as it happens."""
    store = _store(db)
    flags = _game_flags(game, "watch", players, model, seed, store, base_url)
    session = _start(
        store,
        game,
        players,
        flags.seed,
        [*(set_ or []), *flags.sets],
        model,
        _with_router([*(seat or []), *flags.seats], router, model),
        base_url,
        reveal,
        quiet,
        None,
    )
    session.runner.observers.extend(flags.observers)  # type: ignore[arg-type]
    _run(session, store, quiet=quiet, pace=pace, timeout=decision_timeout)


def _start(
    store: Store,
    game: str,
    players: int | None,
    seed: int | None,
    set_: list[str] | None,
    model: str,
    seat: list[str] | None,
    base_url: str | None,
    reveal: bool,
    quiet: bool,
    human_seat: str | None,
    random_human: bool = False,
) -> sessions.Session:
    planned = sessions.plan(
        store,
        game,
        players=players,
        seed=seed,
        options=_options(set_, registry.load(game)),
        model=model,
        seats=seat or [],
        human=human_seat,
        random_human=random_human,
        llm=_llm(store, base_url),
    )
    human, observer = _person_and_screen(planned.game, planned.humans, reveal=reveal, quiet=quiet)
    session = sessions.start_planned(store, planned, human=human)
    watch_seats(session.runner.seats, session.game.seats(), status)
    session.runner.observers.append(status.marks)  # "(fallback)" marks, as `show` has them
    # Seats first, then the story: the opening events follow the seating table.
    if not quiet:
        console.print(_seat_table(session))
        replayed = f" (recorded in {planned.replay_of})" if planned.replay_of else ""
        console.print(f"seed {planned.seed}{replayed}", style="dim")
    for note in planned.notes:
        console.print(note, style="dim", highlight=False)
    observer.on_events(session.game, session.game.events)
    session.runner.observers.append(observer)
    return session


def _game_flags(
    game: str,
    command: str,
    players: int | None,
    model: str,
    seed: int | None,
    store: Store,
    base_url: str | None,
) -> game_flags.Applied:
    """The game's own flags given to this command, as the game reads them."""
    return game_flags.apply(
        game,
        command,
        game_flags.given(),
        players=players,
        model=model,
        seed=seed,
        store=store,
        base_url=base_url,
    )


def _with_router(seat: list[str] | None, router: str, model: str) -> list[str]:
    if router not in ("scripted", "llm"):
        raise ParlourError(f"unknown --router '{router}'; use scripted or llm")
    extra = [f"router={model}"] if router == "llm" else []
    return [*(seat or []), *extra]


def _human_renderer(game: Any) -> Any:
    names = {s.id: s.name for s in game.seats()}
    return lambda event: event_line(event, names)


def _person_and_screen(
    game: Any, humans: tuple[str, ...], *, reveal: bool, quiet: bool
) -> tuple[HumanSeat | None, TerminalObserver | SeatObserver]:
    """The seat a person at this terminal plays (None when nobody does), and what the
    terminal shows: one person's own view as it streams (the seat only asks questions),
    else the table as an onlooker sees it."""
    human = None
    if humans:
        human = HumanSeat(
            console=console,
            render_event=_human_renderer(game),
            show_news=len(humans) > 1,
            input_fn=status.pausing(input),  # the status steps aside while a person types
            # At a terminal, what is printed while the person types goes above their line.
            reader=terminal_lines(pause=status.paused),
        )
    if len(humans) == 1:
        return human, SeatObserver(
            console, humans[0], fallbacks=status.fell_back, echoes=human.echoes if human else None
        )
    return human, TerminalObserver(
        console, reveal=reveal, quiet=quiet or bool(humans), fallbacks=status.fell_back
    )


def play(
    game: Annotated[str, typer.Argument(help=f"game name (see `{command('games')}`)")],
    players: PlayersOpt = None,
    seed: SeedOpt = None,
    as_: Annotated[
        str | None,
        typer.Option("--as", "--power", help="your seat: number, id or name (default: random)"),
    ] = None,
    model: ModelOpt = "local",
    seat: SeatOpt = None,
    set_: SetOpt = None,
    base_url: BaseUrlOpt = None,
    db: DbUrlOpt = None,
    router: RouterOpt = "scripted",
    decision_timeout: TimeoutOpt = None,
) -> None:
    """Play a game in the terminal against AI seats."""
    store = _store(db)
    flags = _game_flags(game, "play", players, model, seed, store, base_url)
    seats = _with_router([*(seat or []), *flags.seats], router, model)
    set_ = [*(set_ or []), *flags.sets]
    session = _start(
        store,
        game,
        players,
        flags.seed,
        set_,
        model,
        seats,
        base_url,
        False,
        False,
        as_,
        as_ is None,
    )
    session.runner.observers.extend(flags.observers)  # type: ignore[arg-type]
    _run(session, store, timeout=decision_timeout)


#: the games this command line needs (each may add sub-commands and watch/play flags);
#: most commands load none, since importing a game's rules costs every process start
GAMES = game_flags.needed(
    sys.argv[1:], {"watch": game_flags.option_names(watch), "play": game_flags.option_names(play)}
)
game_flags.mount_commands(app, GAMES)  # `parlour escape validate`, `parlour werewolf cast`
# Each game's own flags (--scenario, --theme, ...) are options of watch and play.
app.command("watch")(game_flags.with_flags(watch, "watch", GAMES))
app.command("play")(game_flags.with_flags(play, "play", GAMES))


@app.command()
def resume(
    game_id: Annotated[str, typer.Argument(help=f"id from `{command('list')}`")],
    db: DbUrlOpt = None,
    base_url: BaseUrlOpt = None,
    reveal: Annotated[bool, typer.Option(help="show secrets")] = False,
    quiet: Annotated[bool, typer.Option(help="print only the result")] = False,
    pace: PaceOpt = 0.0,
    decision_timeout: TimeoutOpt = None,
    seat: SeatOpt = None,
) -> None:
    """Continue a saved game exactly where it stopped (--seat hands seats over)."""
    store = existing_store(db)
    row = store.get_game(game_id)
    if row.status == "finished":
        raise ParlourError(
            f"game {game_id} is already finished; see it with `{command('show ' + game_id)}`"
        )
    # Takeover: `--seat FRANCE=human` replaces who plays a seat from here on.
    planned = sessions.plan_resume(store, game_id, seats=seat or [], llm=_llm(store, base_url))
    humans = planned.humans
    game = planned.game
    human, observer = _person_and_screen(game, humans, reveal=reveal, quiet=quiet)
    session = sessions.resume_planned(store, planned, observers=[observer], human=human)
    watch_seats(session.runner.seats, session.game.seats(), status)
    session.runner.observers.append(status.marks)  # "(fallback)" marks, as `show` has them
    if not quiet:
        console.print(_seat_table(session))
    if len(humans) == 1 and game.events:
        # What the player had seen before the interruption, under the table (printed
        # above it, it scrolled away and the table met the prompt), then on live.
        console.rule("So far", style="dim")
        observer.on_events(game, game.events)
        console.rule("Now", style="dim")
    _run(session, store, quiet=quiet, pace=pace, timeout=decision_timeout)


STATUSES = ("running", "paused", "finished")


@app.command(name="list")
def list_games(
    db: DbUrlOpt = None,
    limit: Annotated[int, typer.Option("--limit", help="show at most this many games")] = 30,
    game: Annotated[
        str | None, typer.Option("--game", help="only this game, e.g. werewolf")
    ] = None,
    status: Annotated[
        str | None, typer.Option("--status", help="only running, paused or finished games")
    ] = None,
) -> None:
    """Saved games, newest first."""
    if status is not None and status not in STATUSES:
        raise ParlourError(f"unknown --status '{status}'; use running, paused or finished")
    if limit < 1:
        raise ParlourError(f"--limit must be at least 1, got {limit}")
    if game is not None and game not in registry.game_names():
        registry.load(game)  # the one-line "unknown game ...; choose one of" error
    store = existing_store(db)
    rows = store.list_games(limit, game=game, status=status)
    # A running game no live lease holds: its process was killed (resume continues it),
    # or its host is down.
    live = store.leases.live([row.id for row in rows if row.status == "running"])
    # The database path on a line of its own, never wrapped mid-word inside a table title.
    console.print(f"saved games in {store.url}", style="dim", soft_wrap=True, highlight=False)
    table = Table()
    for col in ("id", "game", "started", "status", "seed", "result"):
        # Ids and statuses are never cut (people copy them); the rest wraps when narrow.
        table.add_column(col, no_wrap=col in ("id", "status"))
    for row in rows:
        summary = (row.result or {}).get("summary", "") if row.result else ""
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.created_at))
        shown = row.status
        if row.status == "running" and row.id not in live:
            shown = "running (stale)"
        table.add_row(row.id, row.game, started, shown, str(row.seed), str(summary))
    console.print(table)
    if len(rows) == limit:
        console.print(f"showing the newest {limit}; see more with --limit", style="dim")


@app.command()
def show(
    game_id: Annotated[str, typer.Argument(help=f"id from `{command('list')}`")],
    as_: Annotated[
        str | None, typer.Option("--as", help="the transcript as this seat saw it")
    ] = None,
    reveal: Annotated[
        bool, typer.Option(help="everything, secrets and private choices included")
    ] = False,
    team: Annotated[
        str | None,
        typer.Option("--team", help="public events plus one group's channel, e.g. --team wolves"),
    ] = None,
    reasons: Annotated[
        bool | None,
        typer.Option(help="show the reasons given with votes (default: on with --reveal)"),
    ] = None,
    format_: Annotated[str, typer.Option("--format", help="text, markdown or html")] = "text",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="write to a file (html default: out/GAME_ID.html)"),
    ] = None,
    db: DbUrlOpt = None,
) -> None:
    """Print a saved game's transcript (public by default)."""
    from parlour.render.annotate import annotate
    from parlour.render.pictures import phase_pictures
    from parlour.render.transcript import build, stored_header
    from parlour.runtime.audiences import resolve
    from parlour.runtime.store import UnresolvedAudiences

    if format_ not in ("text", "markdown", "html"):
        raise ParlourError(f"unknown format '{format_}'; use text, markdown or html")
    if output is not None and not output.parent.is_dir():
        raise ParlourError(f"cannot write {output}: no folder {output.parent}; create it first")
    store = existing_store(db)
    row = store.get_game(game_id)
    # Who saw what comes from the stored audiences; the replay in ``annotate`` only marks
    # lines (fallback answers, private choices that left no event, vote reasons).
    log = annotate(store, game_id)
    game = log.game
    names = {s.id: s.name for s in game.seats()}
    seat_id = ""
    visible: set[int] | None = None
    mode: Literal["seat", "reveal", "public"] = "public"
    if as_ is not None:
        seat_id = next(iter(parse_overrides([f"{as_}=x"], game.seats())))
        try:
            seen = store.events_for(game_id, seat_id)
        except UnresolvedAudiences:  # stored before games filled Event.to: ask the game once
            resolve(store, game_id)
            seen = store.events_for(game_id, seat_id)
        visible = {e.seq for e in seen}
        # A seat whose view is built per decision (campaign's scene director) says itself
        # which events it was shown; its stored audience would say too much.
        seen_by = getattr(game, "seen_by", None)
        shown = seen_by(seat_id) if callable(seen_by) else None
        visible = shown if shown is not None else visible
        mode = "seat"
        title = f"{row.game} {game_id} — as {names[seat_id]}"
    elif reveal:
        mode = "reveal"
        title = f"{row.game} {game_id} — everything revealed"
    elif team is not None:
        groups = store.groups(game_id)
        if team not in groups:
            raise ParlourError(
                f"game {game_id} has no group '{team}'; its groups: {', '.join(groups) or 'none'}"
            )
        visible = {e.seq for e in store.spectator_events(game_id, f"team:{team}")}
        title = f"{row.game} {game_id} — team {team}"
    else:
        visible = {e.seq for e in store.spectator_events(game_id, "public")}
        title = f"{row.game} {game_id}"
    header = stored_header(title, log, row, names, reveal=reveal, seat=seat_id)
    doc = build(
        log,
        header,
        mode=mode,
        visible=visible,
        seat=seat_id,
        reasons=reveal if reasons is None else reasons,
    )
    if format_ == "html":
        doc = replace(doc, pictures=phase_pictures(registry.load(row.game), game))
        # Generated files go to out/ (git-ignored) rather than into the terminal.
        output = output or Path("out") / f"{game_id}.html"
    fmt: Format = format_  # type: ignore[assignment]
    text = render_transcript(doc, fmt)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as err:
            raise ParlourError(
                f"cannot write {output} ({err.strerror}); pick another --output path"
            ) from err
        console.print(f"wrote {output}", highlight=False, soft_wrap=True)
    else:
        sys.stdout.write(text)


COST_COLUMNS = (
    "calls",
    "invalid",
    "fallbacks",
    "input tok",
    "cached",
    "output tok",
    "cost $",
    "latency s",
)


#: the fields of a cost record (CSV header, JSON keys)
COST_FIELDS = [
    "by",
    "key",
    "calls",
    "invalid",
    "fallbacks",
    "input_tokens",
    "cached_tokens",
    "output_tokens",
    "cost_usd",
    "latency_s",
]


@app.command()
def cost(
    game_id: Annotated[str, typer.Argument(help=f"id from `{command('list')}`")],
    format_: Annotated[str, typer.Option("--format", help="table, csv or json")] = "table",
    db: DbUrlOpt = None,
) -> None:
    """Model calls of a game: tokens, cached tokens, cost and latency per seat and phase
    (and, for bots, orders vs chat spend per power and phase)."""
    from parlour.runtime.costs import summarise, summarise_pools

    if format_ not in ("table", "csv", "json"):
        raise ParlourError(f"unknown format '{format_}'; use table, csv or json")
    store = existing_store(db)
    row = store.get_game(game_id)
    calls = store.calls(game_id)
    if not calls:
        # Scripts read the same shape as ever: no rows, not a sentence.
        if format_ == "json":
            sys.stdout.write("[]\n")
        elif format_ == "csv":
            sys.stdout.write(",".join(COST_FIELDS) + "\n")
        else:
            console.print(
                f"game {game_id} made no model calls (all seats scripted, random or human)"
            )
        return
    names = _seat_names(row)
    groups = {
        by: summarise(calls, by, order=list(row.seats) if by == "seat" else ())
        for by in ("seat", "phase", "model_id")
    }
    module = registry.load(row.game)
    if module.chat_purposes:  # a game with a bot protocol: its two budgets side by side
        groups["pool"] = summarise_pools(calls, module.chat_purposes, names, list(row.seats))
    records: list[dict[str, Any]] = [
        {
            "by": by,
            "key": names.get(line.key, line.key) if by == "seat" else line.key,
            "calls": line.calls,
            "invalid": line.invalid,
            "fallbacks": line.fallbacks,
            "input_tokens": line.input_tokens,
            "cached_tokens": line.cached_tokens,
            "output_tokens": line.output_tokens,
            "cost_usd": round(line.cost_usd, 6),
            "latency_s": round(line.latency_s, 3),
        }
        for by, lines in groups.items()
        for line in lines
    ]
    if format_ == "json":
        sys.stdout.write(json.dumps(records, indent=2) + "\n")
        return
    if format_ == "csv":
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=COST_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        return
    # Piped or redirected: wide enough that no header or number is ever cut to "inval…".
    out = console if console.is_terminal else Console(width=200, highlight=False)
    for by in groups:
        table = Table(title=f"{game_id} by {by.replace('_', ' ')}")
        table.add_column(by.replace("_", " "))
        for col in COST_COLUMNS:
            table.add_column(col, justify="right", no_wrap=True)
        for rec in (r for r in records if r["by"] == by):
            share = rec["cached_tokens"] / rec["input_tokens"] if rec["input_tokens"] else 0.0
            table.add_row(
                str(rec["key"]),
                str(rec["calls"]),
                str(rec["invalid"]),
                str(rec["fallbacks"]),
                str(rec["input_tokens"]),
                f"{rec['cached_tokens']} ({share:.0%})",
                str(rec["output_tokens"]),
                f"{rec['cost_usd']:.4f}",
                f"{rec['latency_s']:.1f}",
            )
        out.print(table)


def _seat_names(row: Any) -> dict[str, str]:
    """Seat id → display name, from the stored config and seed (no replay needed)."""
    return {s.id: s.name for s in sessions.opening(row)[1].seats()}


def main() -> None:
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    try:
        try:
            app()
        except ParlourError as err:
            # One line, never wrapped, so scripts and people can both read it.
            first = " ".join(str(err).split())
            sys.stderr.write(f"error: {first}\n")
            sys.exit(2)
    except SystemExit as done:
        if reading_input():
            # A prompt whose decision timed out still blocks in input() holding stdin's
            # lock; interpreter shutdown would abort on that lock (exit 134). All is saved.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(done.code if isinstance(done.code, int) else 1 if done.code else 0)
        raise
