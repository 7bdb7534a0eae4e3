"""Play a game or a tournament from Python (a notebook, a script, a test).

    import parlour

    def cautious(view, decision):                 # sync or async
        return decision.options[0].id             # an option id, label, list, text, dict
                                                  # or an Action
    game = parlour.play("werewolf", seats={"p1": cautious}, seed=7)
    game.winners, game.result.summary, game.transcript("p1")

    table = parlour.run_tournament("werewolf", entrants={"mine": cautious, "base": "scripted"})
    print(table)

A seat or an entrant is any seat spec string (``scripted``, ``random``, ``local``,
``openai:MODEL``, ``python:MODULE:CALLABLE``, ``agent:NAME``...) or a Python callable
itself. A callable is stored under its importable spec (``python:MODULE:CALLABLE``) when
it has one, else it is registered in this process as ``agent:NAME``. (The tournament function
is ``run_tournament``: ``parlour.tournament`` is the package that runs them.) Everything
runs through the engine's own session and tournament machinery: the same seats, validation,
fallbacks and storage as the CLI. With ``db=None`` the games go to a SQLite file in a
temporary folder removed when the interpreter exits, so a notebook leaves no files
unless it names a database.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import io
import shutil
import tempfile
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from rich.console import Console

from parlour.core.errors import ParlourError
from parlour.core.events import Event
from parlour.core.game import Result
from parlour.runtime import session as sessions
from parlour.runtime.store import ActionRow, CallRecord, Store, db_url
from parlour.seats import agents
from parlour.tournament import run as runs
from parlour.tournament.report import tables
from parlour.tournament.summary import Summary, summarise

#: A seat spec string, or a callable ``agent(view, decision)`` (a class: one per seat).
SeatLike = str | Callable[..., Any]

T = TypeVar("T")
P = ParamSpec("P")

_temp: dict[str, Store] = {}


def _store(db: str | Path | Store | None) -> Store:
    """``db``: a Store, a SQLite file path or SQLAlchemy URL, or None for a temporary
    file shared by this process and removed at exit."""
    if isinstance(db, Store):
        return db
    if db is not None:
        return Store(db_url(str(db)))
    if "store" not in _temp:
        folder = tempfile.mkdtemp(prefix="parlour-")
        atexit.register(shutil.rmtree, folder, True)
        _temp["store"] = Store(db_url(str(Path(folder) / "games.sqlite")))
    return _temp["store"]


def _name_for(agent: Callable[..., Any]) -> str:
    raw = getattr(agent, "__name__", None) or type(agent).__name__
    base = "".join(c if c.isalnum() or c in "_.-" else "_" for c in str(raw)) or "agent"
    name, n = base, 1
    taken = set(agents.registered())
    while name in taken:
        try:
            if agents.load(f"agent:{name}") is agent:
                return name
        except ParlourError:
            pass
        n += 1
        name = f"{base}-{n}"
    return name


def spec_of(seat: SeatLike) -> str:
    """The seat spec text for ``seat``: a string as it is; a callable by its importable
    ``python:MODULE:CALLABLE`` spec, else registered here as ``agent:NAME``."""
    if isinstance(seat, str):
        return seat
    if not callable(seat):
        raise ParlourError(
            f"a seat is a spec string or a callable, not {type(seat).__name__}; "
            "e.g. seats={'p1': 'random'} or seats={'p1': my_agent}"
        )
    module = getattr(seat, "__module__", None)
    qualname = getattr(seat, "__qualname__", None)
    # A spec a worker process can import too; a notebook's __main__ is not one.
    importable = isinstance(module, str) and module != "__main__"
    if importable and isinstance(qualname, str) and "<" not in qualname:
        text = f"python:{module}:{qualname}"
        try:
            if agents.load(text) is seat:
                return text
        except ParlourError:
            pass
    name = _name_for(seat)
    agents.register(name, seat, replace=True)
    return f"agent:{name}"


def _blocking(work: Callable[[], T]) -> T:
    """Run ``work`` (which runs event loops of its own); from inside a running loop
    (Jupyter) it runs in a helper thread, as a loop cannot be started within another."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return work()
    with ThreadPoolExecutor(1, thread_name_prefix="parlour-play") as pool:
        return pool.submit(work).result()


def _outside_a_loop(run: Callable[P, Coroutine[Any, Any, T]], name: str) -> Callable[P, T]:
    """``run`` with the same parameters (and help), for code outside an event loop."""

    @functools.wraps(run)
    def blocking(*args: P.args, **kwargs: P.kwargs) -> T:
        return _blocking(lambda: asyncio.run(run(*args, **kwargs)))

    blocking.__name__ = blocking.__qualname__ = name
    return blocking


@dataclass(frozen=True)
class PlayResult:
    """A finished game: its id, result and seating; its transcript, actions and model
    calls are read from the database it was stored in."""

    game_id: str
    game: str
    seed: int
    result: Result
    #: seat id → the spec that played it.
    seats: Mapping[str, str]
    #: seat id → the seat's name in the game ("Kenji").
    names: Mapping[str, str]
    store: Store = field(repr=False, compare=False)

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning seats' ids."""
        return self.result.winners

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.names.get(s, s) for s in self.result.winners)

    def transcript(self, seat: str | None = None) -> list[Event]:
        """Every event; with ``seat`` (an id) only those that seat was shown."""
        if seat is None:
            return self.store.events(self.game_id)
        return self.store.events_for(self.game_id, seat)

    def text(self, seat: str | None = None) -> str:
        """The transcript as plain lines."""
        return "\n".join(e.text for e in self.transcript(seat) if e.text)

    def actions(self) -> list[ActionRow]:
        """The stored answers in order, each with who gave it (``by``: a spec, ``fallback``)."""
        return self.store.actions(self.game_id)

    def calls(self) -> list[CallRecord]:
        """The call log: every model call and every call of a ``python:`` seat."""
        return self.store.calls(self.game_id)


def _overrides(seats: Mapping[str, SeatLike] | Sequence[SeatLike] | None) -> list[str]:
    """``SEAT=SPEC`` items; a sequence seats players 1, 2, ... in order."""
    if seats is None:
        return []
    if isinstance(seats, Mapping):
        return [f"{key}={spec_of(s)}" for key, s in seats.items()]
    if isinstance(seats, str):
        raise ParlourError("seats is a mapping {seat: spec} or a list of specs, not a string")
    return [f"{i}={spec_of(s)}" for i, s in enumerate(seats, start=1)]


async def play_async(
    game: str,
    seats: Mapping[str, SeatLike] | Sequence[SeatLike] | None = None,
    *,
    model: SeatLike = "scripted",
    seed: int | None = None,
    options: Mapping[str, object] | None = None,
    players: int | None = None,
    db: str | Path | Store | None = None,
) -> PlayResult:
    """Play one game of ``game`` to its end and return it (``play``: the same, for code
    outside an event loop; ``play_async`` runs on the caller's loop).

    ``seats`` overrides who plays a seat, keyed by seat id, name or player number
    (``{"p3": my_agent, "Kenji": "random"}``), or a list for players 1, 2, ...; ``model``
    plays every other player seat (system seats follow the CLI's rules). ``options`` are
    the game's settings (as ``--set``); ``seed`` None draws one (``result.seed``).
    """
    store = _store(db)
    planned = sessions.plan(
        store,
        game,
        players=players,
        seed=seed,
        options=options,
        model=spec_of(model),
        seats=_overrides(seats),
    )
    session = sessions.start_planned(store, planned)
    result = await session.run()
    assert result is not None, "a game run without a batch limit runs to its end"
    return PlayResult(
        game_id=session.game_id,
        game=game,
        seed=planned.seed,
        result=result,
        seats=dict(session.seat_specs),
        names={s.id: s.name for s in session.game.seats()},
        store=store,
    )


#: ``play_async`` run to its end for code outside an event loop (a script; in Jupyter it runs
#: in a helper thread): the same parameters and help.
play = _outside_a_loop(play_async, "play")


@dataclass(frozen=True)
class TournamentResult:
    """A finished tournament: its summary (ratings, win rates, metrics) and tables."""

    tournament_id: str
    summary: Summary

    def rows(self) -> list[dict[str, Any]]:
        """One row per entrant: name, spec, rating (mu, 95% interval, ordinal), win rate."""
        rated = {r.key: r for r in self.summary.ratings}
        out: list[dict[str, Any]] = []
        for entrant in self.summary.params.entrants:
            r = rated.get(entrant.name)
            win = self.summary.win_rates.get(entrant.name)
            out.append(
                {
                    "entrant": entrant.name,
                    "spec": entrant.spec,
                    "mu": r.mu if r else None,
                    "mu_low": r.low if r else None,
                    "mu_high": r.high if r else None,
                    "ordinal": r.ordinal if r else None,
                    "win_rate": win.value if win else None,
                }
            )
        return out

    def __str__(self) -> str:
        buffer = io.StringIO()
        console = Console(file=buffer, width=120, color_system=None)
        for table in tables(self.summary):
            console.print(table)
        return buffer.getvalue()


def _entrants(entrants: Mapping[str, SeatLike] | Sequence[SeatLike]) -> list[str]:
    if isinstance(entrants, Mapping):
        return [f"{name}={spec_of(s)}" for name, s in entrants.items()]
    if isinstance(entrants, str):
        raise ParlourError("entrants is a mapping {name: spec} or a list of specs, not a string")
    out: list[str] = []
    for s in entrants:
        text = spec_of(s)
        out.append(text if isinstance(s, str) else f"{text.split(':')[-1]}={text}")
    return out


def run_tournament(
    game: str,
    entrants: Mapping[str, SeatLike] | Sequence[SeatLike],
    *,
    games: int = 10,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    db: str | Path | Store | None = None,
) -> TournamentResult:
    """Rate ``entrants`` (``{name: spec or callable}``, or a list naming themselves)
    against each other over ``games`` games of ``game``, played in this process."""
    store = _store(db)
    params = runs.prepare(
        store, game, _entrants(entrants), games=games, seed=seed, options=dict(options or {})
    )
    tid = runs.create(store, params)
    _blocking(lambda: runs.run(store, tid))
    return TournamentResult(tid, summarise(store, tid))
