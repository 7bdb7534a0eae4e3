"""What a page shows about a game, read from the store: seats, facts, events, costs.

Every read goes through the store's audience queries (``events_for`` for a seat,
``spectator_events`` for an audience), never through the full log, so a page cannot
show what its reader may not see. The game itself is replayed only for the sidebar
(seats, facts, phase, board), cached per game and advanced by the actions stored since.
"""

from __future__ import annotations

import contextlib
import copy
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from parlour.core.events import Event
from parlour.core.game import Game
from parlour.core.view import facts_dict
from parlour.runtime.audiences import resolve
from parlour.runtime.costs import CostLine, summarise
from parlour.runtime.seating import is_model, parse_seat_spec
from parlour.runtime.session import apply_stored, opening, rebuild
from parlour.runtime.store import GameRow, Store, UnresolvedAudiences


@dataclass(frozen=True)
class SeatLine:
    id: str
    name: str
    played_by: str  # "person", "script", or the model spec
    model: bool
    system: bool


@dataclass(frozen=True)
class Line:
    """One event as a page shows it (names resolved; the template escapes the text)."""

    seq: int
    phase: str
    kind: str
    speaker: str
    text: str
    scope: str  # "" when public; else whom it was for
    #: A message answering another: "Bram", and the answered message's first words.
    reply_to: str = ""
    quote: str = ""


def played_by(spec: str) -> tuple[str, bool]:
    if spec == "human":
        return "person", False
    try:
        parsed = parse_seat_spec(spec)
    except Exception:  # a spec text from an older version: show it as it is
        return spec, False
    if is_model(parsed):
        return f"model {spec}", True
    return "script" if spec in ("scripted", "random") else f"script {spec}", False


@dataclass
class _Replay:
    game: Game
    applied: int  # stored actions applied to it (the next action's index)
    final: bool  # the game had ended: it changes no more


T = TypeVar("T")

#: Statuses after which no worker writes to a game.
_ENDED = ("finished", "ended", "failed")


class Games:
    """Replayed games, cached per game and brought up to date with only the actions
    stored since (a page of a live game costs one short query, not a whole replay).

    A live game is only ever read here: its stored events are never re-derived while a
    host may be writing it (``rebuild`` would replace them with the ones derived from
    the actions it read, and lose those of an action committed in between). A game that
    has ended is rebuilt once with ``rebuild``, which re-derives the stored events of a
    game saved by an older parlour.

    ``shared``: the cache is used by several threads at once, so a cached game is never
    changed in place (a page may be reading it): it is copied, then advanced. A page
    worker process renders one page at a time and advances in place.
    """

    def __init__(self, store: Store, size: int = 64, *, shared: bool = True) -> None:
        self.store = store
        self._local = threading.local()  # this thread's pinned rows and games (``pinned``)
        self._cache: OrderedDict[str, _Replay] = OrderedDict()
        self._size = size
        self._shared = shared
        self._lock = threading.Lock()
        #: Actions applied and full replays done (tests and the benchmark read them).
        self.applied = 0
        self.replays = 0

    @contextlib.contextmanager
    def pinned(self) -> Iterator[None]:
        """Within it, this thread reads each game's row and brings its game up to date once:
        a page asks for the status, seats, names, facts and phase, and would otherwise
        query the store for each (eight queries for one spectator page)."""
        self._local.rows, self._local.games = {}, {}
        try:
            yield
        finally:
            self._local.rows = self._local.games = None

    def row(self, game_id: str) -> GameRow:
        return self._once("rows", game_id, self.store.get_game)

    def game(self, game_id: str) -> Game:
        return self._once("games", game_id, self._game)

    def _once(self, kept: str, game_id: str, read: Callable[[str], T]) -> T:
        """``read(game_id)``, read once per ``pinned`` block (``kept`` names its cache)."""
        cache: dict[str, T] | None = getattr(self._local, kept, None)
        if cache is None:
            return read(game_id)
        if game_id not in cache:
            cache[game_id] = read(game_id)
        return cache[game_id]

    def _game(self, game_id: str) -> Game:
        with self._lock:
            hit = self._cache.get(game_id)
            if hit is not None:
                self._cache.move_to_end(game_id)
        if hit is not None and hit.final:
            return hit.game
        row = self.row(game_id)  # before the actions: they are at least as new
        if row.status in _ENDED:
            _, game, applied = rebuild(self.store, game_id)
            self.replays += 1
            entry = _Replay(game, applied, final=True)
        else:
            new = self.store.actions(game_id, after=hit.applied - 1 if hit else -1)
            if hit is not None and not new:
                return hit.game
            if hit is None:
                game = opening(row)[1]
                self.replays += 1
            else:
                game = copy.deepcopy(hit.game) if self._shared else hit.game
            apply_stored(game, game_id, new)
            self.applied += len(new)
            entry = _Replay(game, (hit.applied if hit else 0) + len(new), final=False)
        with self._lock:
            self._cache[game_id] = entry
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
        return entry.game

    def seats(self, game_id: str) -> list[SeatLine]:
        row = self.row(game_id)
        out = []
        for info in self.game(game_id).seats():
            who, model = played_by(row.seats.get(info.id, "scripted"))
            out.append(SeatLine(info.id, info.name, who, model, info.system))
        return out

    def names(self, game_id: str) -> dict[str, str]:
        return {s.id: s.name for s in self.game(game_id).seats()}

    def private_facts(self, game_id: str, seat: str) -> dict[str, str]:
        game = self.game(game_id)
        names = self.names(game_id)
        facts = sidebar_facts(game.view(seat).private, names)
        # A fact that only repeats the heading ("You are England": power, power name).
        return {k: v for k, v in facts.items() if v != names.get(seat, seat)}

    def dead(self, game_id: str) -> set[str]:
        """Seats out of the game (a dead werewolf player), from the public facts'
        ``players`` records that say ``alive``; empty for games that have none."""
        public = facts_dict(self.game(game_id).spectator_view(False).public)
        players = public.get("players")
        if not isinstance(players, list | tuple):
            return set()
        return {
            str(p.get("id") or p.get("seat"))
            for p in players
            if isinstance(p, dict) and p.get("alive") is False
        }

    def public_facts(self, game_id: str) -> dict[str, str]:
        return _flat(facts_dict(self.game(game_id).spectator_view(False).public))

    def clock(self, game_id: str) -> str:
        """The game's public clock in its own words (missing's time left, "04:12"), or ""
        for a game whose public facts have no ``clock``."""
        clock = facts_dict(self.game(game_id).spectator_view(False).public).get("clock")
        return clock if isinstance(clock, str) else ""

    def phase(self, game_id: str) -> str:
        return self.game(game_id).spectator_view(False).phase


#: Fields a seat's sidebar leaves out: the heading already says who the seat is
#: ("You are Kenji", and "out of the game" when not alive), and whether a person plays
#: it is the seat's own business, not a fact of the game.
SIDEBAR_SKIPS = frozenset({"id", "seat", "name", "alive", "is_person"})


def sidebar_facts(facts: Any, names: Mapping[str, str]) -> dict[str, str]:
    """A seat's private facts as a person reads them: field names in words, a game's
    record that says itself (an ``in_words(names)`` method: ``PackMate`` gives "Aiko
    (dead)") said so, a seat id as its name, empty
    values and ``SIDEBAR_SKIPS`` left out."""
    if not isinstance(facts, BaseModel):
        return _flat(facts_dict(facts))
    out: dict[str, str] = {}
    for key in type(facts).model_fields:
        value = getattr(facts, key)
        if key in SIDEBAR_SKIPS or value in (None, "", [], (), {}):
            continue
        out[key.replace("_", " ")] = _said(value, names)
    return out


def _said(value: Any, names: Mapping[str, str]) -> str:
    if callable(getattr(value, "in_words", None)):
        return str(value.in_words(names))
    if isinstance(value, BaseModel):
        return _said(
            {k: getattr(value, k) for k in type(value).model_fields if k not in SIDEBAR_SKIPS},
            names,
        )
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        parts = [
            f"{names.get(str(k), str(k).replace('_', ' '))}: {_said(v, names)}"
            for k, v in value.items()
            if v not in (None, "", [], (), {})
        ]
        return _joined(parts, ";")
    if isinstance(value, list | tuple | set | frozenset):
        return _joined([_said(v, names) for v in value], ",")
    return str(value)


def _flat(facts: dict[str, Any]) -> dict[str, str]:
    """Facts for a definition list: empty values dropped, values as plain words (no
    Python reprs: a list is "a, b", a mapping "key: value; ...", a flag "yes"/"no")."""
    return {k.replace("_", " "): _words(v) for k, v in facts.items() if v not in (None, "", [], {})}


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return _joined([f"{str(k).replace('_', ' ')}: {_words(v)}" for k, v in value.items()], ";")
    if isinstance(value, (list, tuple, set, frozenset)):
        return _joined([_words(v) for v in value], ",")
    return str(value)


def _joined(parts: list[str], mark: str) -> str:
    """Parts joined by ``mark``; a part that is a sentence loses its full stop first, so
    two never meet as ".;" (the whole keeps the last one)."""
    if not parts:
        return ""
    if mark == "," and all(p.endswith(".") for p in parts):
        return " ".join(parts)  # a list of sentences reads as sentences
    ends = parts[-1].endswith(".")
    text = f"{mark} ".join(p.removesuffix(".") for p in parts)
    return text + "." if ends else text


def seat_events(store: Store, game_id: str, seat: str, after: int = -1) -> list[Event]:
    try:
        return store.events_for(game_id, seat, after)
    except UnresolvedAudiences:  # stored before games filled Event.to: ask the game once
        resolve(store, game_id)
        return store.events_for(game_id, seat, after)


def lines(events: list[Event], names: dict[str, str]) -> list[Line]:
    out = []
    for e in events:
        if e.audience.kind == "all":
            scope = ""
        elif e.audience.kind == "group":
            scope = e.audience.group
        elif e.audience.kind == "seats":
            scope = ", ".join(names.get(s, s) for s in e.audience.seats)
        else:
            scope = "engine note"
        seat, quoted = e.data.get("reply_to_seat"), e.data.get("quote")
        to = names.get(seat, seat) if isinstance(seat, str) and "reply_to" in e.data else ""
        out.append(
            Line(
                e.seq,
                e.phase,
                e.kind,
                names.get(e.speaker, e.speaker),
                e.text,
                scope,
                reply_to=to,
                quote=quoted if to and isinstance(quoted, str) else "",
            )
        )
    return out


def costs(store: Store, game_id: str, by: str) -> list[CostLine]:
    """Tokens, cached tokens, cost and latency per ``seat`` or ``phase``, total last."""
    return summarise(store.calls(game_id), by)
