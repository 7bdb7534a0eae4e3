"""The read-only pages, rendered to HTML from the store: here, or in worker processes.

A page (the lobby, a spectator page, a seat's room and its parts) is a few store reads,
the game's state for the sidebar and a Jinja render: plain Python that holds the
interpreter lock for milliseconds at a time. In the web process every such slice makes
the live streams wait (the thread polling the store, the loop writing to sockets).
With ``--page-workers N``, ``PagePool`` renders these pages in N worker processes
instead, each with its own ``Store`` on the same database (SQLite in WAL mode and
PostgreSQL both serve concurrent readers), and the web process only forwards the bytes.
Who may see a page is still decided in the web process (``web/app.py`` resolves a link
before it asks for a seat's page); a worker only renders what it is asked for, with the
same audited queries. ``parlour serve`` sizes the pool from the cores (``default_size``);
``create_app`` (tests) renders on threads unless asked.

``Pages`` is the one implementation: the web process uses it on its threads when there
is no pool (``--page-workers 0``, and always for an in-memory SQLite store, which other
processes cannot open), and each worker holds one of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.templating import Jinja2Templates

from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.games import registry
from parlour.runtime.remote import Desk
from parlour.runtime.store import Store
from parlour.web import exports
from parlour.web.forms import structured_fields
from parlour.web.links import REVEAL_LEVELS, Link, Links
from parlour.web.policy import visitor_options
from parlour.web.tables import Games, costs, lines, seat_events

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
# A command a page tells the host to run, as they can type it (core/commands.py).
templates.env.globals["command"] = command


#: What a spectator is shown at each reveal level, in words.
LEVEL_WORDS = {
    "public": "what everyone saw",
    "teams": "what everyone and each team saw",
    "everything": "everything, secrets too",
}


@dataclass(frozen=True)
class Page:
    """A rendered page: its HTTP status and body (``status`` 404: no such game)."""

    status: int
    html: str


class Pages:
    """Every GET page that only reads, over one store (one per process)."""

    def __init__(self, store: Store, games: Games | None = None) -> None:
        self.store = store
        self.games = games or Games(store)
        self.links = Links(store)
        self.desk = Desk(store)

    def render(self, name: str, args: tuple[Any, ...]) -> Page:
        """The page ``name`` (``lobby``, ``watch``, ``room``, ``facts``, ``decision``,
        ``board``) for ``args``; the one entry point a worker process is sent."""
        with self.games.pinned():  # one read of each game's row and actions per page
            if name == "lobby":
                return self.lobby(*args)
            if name == "watch":
                return self.watch(*args)
            if name in ("room", "facts", "decision", "board"):
                link, token = args
                return getattr(self, name)(link, token)  # type: ignore[no-any-return]
        raise ValueError(f"no page {name!r}")

    @staticmethod
    def html(template: str, ctx: dict[str, Any], status: int = 200) -> Page:
        return Page(status, templates.get_template(template).render(ctx))

    # -- the lobby -------------------------------------------------------------------

    def lobby_context(
        self, owner: bool = True, models: tuple[str, ...] = (), **extra: Any
    ) -> dict[str, Any]:
        """The lobby's page; ``owner``: the seed and every option are offered, else the
        safe options only, and ``models`` is the host's allow-list shown to visitors."""
        return {
            "games": registry.game_names(),
            "rows": self.store.list_games(limit=50, tournaments=False),
            "tournament_games": self.store.count_tournament_games(),
            "choices": content_choices(),
            "hints": option_hints(),
            "owner": owner,
            "models": models,
            "error": "",
            "setup": None,
            **extra,
        }

    def lobby(self, owner: bool = True, models: tuple[str, ...] = ()) -> Page:
        return self.html("lobby.html", self.lobby_context(owner, models))

    # -- spectators ------------------------------------------------------------------

    def reveal_level(self, game_id: str) -> str:
        """What a spectator sees now: everything after the end, else the admin's choice."""
        if self.games.row(game_id).status == "finished":
            return "everything"
        return self.links.reveal(game_id)

    def spectator(self, game_id: str, level: str) -> list[Any]:
        if level == "teams":
            seen: dict[int, Any] = {}
            for group in self.store.groups(game_id):
                for e in self.store.spectator_events(game_id, f"team:{group}"):
                    seen[e.seq] = e
            for e in self.store.spectator_events(game_id, "public"):
                seen[e.seq] = e
            return [seen[k] for k in sorted(seen)]
        return self.store.spectator_events(game_id, level)

    def watch_context(self, game_id: str, want: str) -> dict[str, Any]:
        row = self.games.row(game_id)
        allowed = self.reveal_level(game_id)
        level = want if want in REVEAL_LEVELS else allowed
        if REVEAL_LEVELS.index(level) > REVEAL_LEVELS.index(allowed):
            level = allowed
        names = self.games.names(game_id)
        revealed = level != "public"
        return {
            "row": row,
            "level": level,
            "allowed": allowed,
            "levels": REVEAL_LEVELS[: REVEAL_LEVELS.index(allowed) + 1],
            "level_words": LEVEL_WORDS,
            "seats": self.games.seats(game_id),
            "dead": self.games.dead(game_id),
            "public": self.games.public_facts(game_id),
            "phase": self.games.phase(game_id),
            "lines": lines(self.spectator(game_id, level), names),
            "costs_seat": costs(self.store, game_id, "seat") if revealed else [],
            "costs_phase": costs(self.store, game_id, "phase") if revealed else [],
            "boards": exports.boards(row.game, self.games.game(game_id)),
        }

    def watch(self, game_id: str, level: str) -> Page:
        try:
            self.games.row(game_id)
        except ParlourError:
            return Page(404, "")
        return self.html("watch.html", self.watch_context(game_id, level))

    # -- a seat's room (the link was checked by the caller) ----------------------------

    def room_context(self, link: Link) -> dict[str, Any]:
        gid, seat = link.game_id, link.seat
        row = self.games.row(gid)
        names = self.games.names(gid)
        return {
            "row": row,
            "seat": seat,
            "seat_name": names.get(seat, seat),
            "seats": self.games.seats(gid),
            "dead": self.games.dead(gid),
            "clock": self.games.clock(gid),
            "private": self.games.private_facts(gid, seat),
            "phase": self.games.phase(gid),
            "lines": lines(seat_events(self.store, gid, seat), names),
        }

    def decision_context(self, link: Link, error: str = "") -> dict[str, Any]:
        open_now = self.desk.open_for(link.game_id, link.seat)
        others = [d for d in self.desk.open_in(link.game_id) if d.seat != link.seat]
        current = open_now[0] if open_now else None
        return {
            "open": current,
            "fields": structured_fields(current.decision)
            if current is not None and current.decision.kind == "structured"
            else (),
            "waiting": len({d.seat for d in others}),
            "error": error,
            "game_id": link.game_id,
            "status": self.games.row(link.game_id).status,
            "summary": (self.games.row(link.game_id).result or {}).get("summary", ""),
        }

    def room(self, link: Link, token: str) -> Page:
        ctx = self.room_context(link)
        ctx.update(self.decision_context(link))
        ctx["board"] = exports.current_board(
            self.games.row(link.game_id).game, self.games.game(link.game_id)
        )
        return self.html("room.html", {"token": token, **ctx})

    def facts(self, link: Link, token: str) -> Page:
        return self.html("_facts.html", {"token": token, **self.room_context(link)})

    def decision(self, link: Link, token: str) -> Page:
        return self.html("_decision.html", {"token": token, **self.decision_context(link)})

    def board(self, link: Link, token: str) -> Page:
        svg = exports.current_board(
            self.games.row(link.game_id).game, self.games.game(link.game_id)
        )
        return self.html("_board.html", {"token": token, "board": svg})


# -- the pool of worker processes --------------------------------------------------------

#: This worker process's pages (set once by ``_start``; a process-pool worker can only
#: reach per-process state through a module global).
_PAGES: Pages | None = None
#: The start-up barrier of this worker's pool (``_warm``).
_BARRIER: Any = None


@dataclass(frozen=True)
class Choice:
    """A game's content offered in the lobby (escape's scenario): a select of shipped
    names, shown while that game is chosen. Content is chosen by name, never by path."""

    game: str
    #: the form field and the config key it sets
    key: str
    label: str
    names: tuple[str, ...]


def content_choices() -> list[Choice]:
    """Every installed game's content kinds that the game offers in the lobby."""
    return [
        Choice(name, kind.key, kind.lobby_label, tuple(kind.shipped()))
        for name, module in registry.installed()
        for kind in module.content
        if kind.lobby_label is not None
    ]


@dataclass(frozen=True)
class Hint:
    """The options a visitor may set in one game, for the lobby's options box."""

    game: str
    keys: tuple[str, ...]


def option_hints() -> list[Hint]:
    """Per installed game: the safe options its config accepts (``web/policy.py``)."""
    return [
        Hint(name, tuple(visitor_options(module.game.config_model)))
        for name, module in registry.installed()
    ]


def default_size(web_processes: int = 1) -> int:
    """Page workers per web process for ``parlour serve``: the cores shared among the web
    processes, 1 to 4."""
    return max(1, min(4, (os.cpu_count() or 1) // max(1, web_processes)))


#: How much lower the page workers' CPU priority is than the web process's. A page can
#: wait a few milliseconds more; a line on its way to 200 streams should not wait behind
#: page renders (the workers would take every free cycle while pages are asked for back
#: to back, and the web process would get only its fair share of a core).
NICE = 5


def _start(url: str, parent: int, barrier: Any) -> None:
    global _PAGES, _BARRIER
    _BARRIER = barrier
    # Ctrl-C reaches the whole process group: the web process shuts the pool down, so
    # the workers need not (and should not print a KeyboardInterrupt each).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):  # not on every platform
        os.nice(NICE)
    store = Store(url)
    _PAGES = Pages(store, Games(store, shared=False))  # one page at a time here
    for name in templates.env.list_templates():  # compile them now, not on a first visit
        templates.get_template(name)
    # A parent killed outright (SIGKILL, as the worker-death test does) cannot shut the
    # pool down; its workers would wait on their queue for ever. They leave instead.
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True).start()


def _orphan_watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _warm() -> tuple[int, float]:
    # Held until every worker has one: else a worker that started first could take them
    # all, and the others would start (imports: seconds) on a visitor's first page.
    with contextlib.suppress(threading.BrokenBarrierError):
        _BARRIER.wait(timeout=60)
    return os.getpid(), time.process_time()


def _render(name: str, args: tuple[Any, ...]) -> Page:
    assert _PAGES is not None, "page worker used before it started"
    return _PAGES.render(name, args)


class PagePool:
    """``size`` worker processes rendering pages; started once, warmed, then reused."""

    def __init__(self, url: str, size: int) -> None:
        self.size = size
        # "spawn": the web process runs threads (the host, the streams' reader), and a
        # forked child of a threaded process may inherit a lock held mid-operation.
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(
            size,
            mp_context=context,
            initializer=_start,
            initargs=(url, os.getpid(), context.Barrier(size)),
        )
        self._warming: list[Future[tuple[int, float]]] = [
            self._pool.submit(_warm) for _ in range(size)
        ]
        #: CPU seconds the workers spent starting (imports, templates): set up, not load.
        self.start_cpu = 0.0
        self.pids: list[int] = []

    async def ready(self, timeout: float = 120.0) -> list[int]:
        """Waits until every worker has started (imports done, templates compiled); their
        process ids."""
        warm = await asyncio.wait_for(
            asyncio.gather(*(asyncio.wrap_future(f) for f in self._warming)), timeout
        )
        started = dict(warm)
        self.start_cpu = sum(started.values())
        self.pids = sorted(started)
        return self.pids

    async def render(self, name: str, *args: Any) -> Page:
        return await asyncio.wrap_future(self._pool.submit(_render, name, args))

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
