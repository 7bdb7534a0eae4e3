"""What a page shows about a game, read from the store: seats, facts, events, costs.

Every read goes through the store's audience queries (``events_for`` for a seat,
``spectator_events`` for an audience), never through the full log, so a page cannot
show what its reader may not see. The game itself is rebuilt (replayed) only for the
seat's own view (private facts, phase) and cached per number of stored events.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from parlour.core.events import Event
from parlour.core.game import Game
from parlour.core.view import facts_dict
from parlour.runtime.audiences import resolve
from parlour.runtime.costs import CostLine, summarise
from parlour.runtime.seating import is_model, parse_seat_spec
from parlour.runtime.session import rebuild
from parlour.runtime.store import Store, UnresolvedAudiences


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


class Games:
    """Rebuilt games, cached by (game id, stored event count): one replay per change."""

    def __init__(self, store: Store, size: int = 64, fresh: float = 0.5) -> None:
        self.store = store
        self._cache: OrderedDict[str, tuple[int, float, Game]] = OrderedDict()
        self._size = size
        #: A running game is replayed at most once per ``fresh`` seconds: a replay costs
        #: tens of milliseconds, and a live game changes many times a second. The event
        #: log itself (what a reader may see) is always read fresh from the store; only
        #: the sidebar (phase, facts, seats) may lag by this much, which is why the page
        #: asks for its sidebar once more 0.7 s after a burst of lines (static/parlour.js).
        self._fresh = fresh
        self._lock = threading.Lock()

    def game(self, game_id: str) -> Game:
        count = self.store.event_count(game_id)
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(game_id)
        recent = hit is not None and now - hit[1] < self._fresh and not hit[2].is_terminal()
        # A game that stopped running changes no more: its last lines bring the last
        # refresh, so a copy a moment old would stay on the page (a dead player "alive").
        if hit is not None and (
            hit[0] == count or (recent and self.store.get_game(game_id).status == "running")
        ):
            with self._lock:
                if game_id in self._cache:
                    self._cache.move_to_end(game_id)
            return hit[2]
        _, game, _ = rebuild(self.store, game_id)
        with self._lock:
            self._cache[game_id] = (count, now, game)
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
        return game

    def seats(self, game_id: str) -> list[SeatLine]:
        row = self.store.get_game(game_id)
        out = []
        for info in self.game(game_id).seats():
            who, model = played_by(row.seats.get(info.id, "scripted"))
            out.append(SeatLine(info.id, info.name, who, model, info.system))
        return out

    def names(self, game_id: str) -> dict[str, str]:
        return {s.id: s.name for s in self.game(game_id).seats()}

    def private_facts(self, game_id: str, seat: str) -> dict[str, str]:
        return _flat(facts_dict(self.game(game_id).view(seat).private))

    def public_facts(self, game_id: str) -> dict[str, str]:
        return _flat(facts_dict(self.game(game_id).spectator_view(False).public))

    def phase(self, game_id: str) -> str:
        return self.game(game_id).spectator_view(False).phase


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
        out.append(Line(e.seq, e.phase, e.kind, names.get(e.speaker, e.speaker), e.text, scope))
    return out


def costs(store: Store, game_id: str, by: str) -> list[CostLine]:
    """Tokens, cached tokens, cost and latency per ``seat`` or ``phase``, total last."""
    return summarise(store.calls(game_id), by)
