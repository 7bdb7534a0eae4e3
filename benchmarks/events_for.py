"""What may a seat see: ``Store.events_for`` (one indexed query) against a full replay.

A full replay is what answering without stored audiences costs: rebuild the game from its
config, seed and stored actions, then build the seat's view. Both are timed in one run on
the same stored game:

* ``chatter``: a minimal game defined here whose every action emits one event (60 % for
  everyone, 20 % for the acting seat, 20 % for its team, resolved in ``Event.to``), so a
  game reaches 10,000 events; its replay is the cheapest one possible (no rules);
* ``werewolf``: the longest scripted werewolf game the options allow (16 players,
  10 messages per player, ~1,000 events), replayed by ``session.rebuild``.

``events_for`` is timed twice: the whole history (``after_seq=-1``) and a live observer's
delta (the last 10 events).

    uv run python benchmarks/events_for.py [--events 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from parlour.core import Audience, Choice
from parlour.core.actions import Action
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.events import Event, EventLog
from parlour.core.game import GameInfo, Result, SeatInfo
from parlour.core.game_base import SeededGame
from parlour.core.view import AnyView, NoFacts, View
from parlour.runtime import session as sessions
from parlour.runtime.audiences import resolve
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url

SEATS = 16


class ChatterConfig(BaseModel):
    events: int = 10_000


class Chatter(SeededGame[ChatterConfig]):
    """Seats speak in turn; each line goes to everyone, to the speaker, or to a team."""

    info: ClassVar[GameInfo] = GameInfo(
        name="chatter",
        title="Chatter",
        description="benchmark game",
        min_seats=SEATS,
        max_seats=SEATS,
        simultaneous=False,
        imperfect_information=True,
    )
    config_model: ClassVar[type[BaseModel]] = ChatterConfig

    def __init__(self, config: ChatterConfig, seed: int) -> None:
        teams = {f"team{t}": tuple(f"s{i}" for i in range(t, SEATS, 2)) for t in (0, 1)}
        self._config, self._seed, self._log, self._turn = config, seed, EventLog(teams), 0

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> Chatter:
        assert isinstance(config, ChatterConfig)
        return cls(config, seed)

    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(SeatInfo(id=f"s{i}", name=f"Seat {i}") for i in range(SEATS))

    def pending(self) -> tuple[Decision, ...]:
        if self.is_terminal():
            return ()
        seat = f"s{self._turn % SEATS}"
        return (
            Decision(
                id=f"t{self._turn}",
                seat=seat,
                kind=DecisionKind.CHOOSE_ONE,
                purpose="speak",
                prompt="say something",
                options=(Option(id="say", label="say"),),
            ),
        )

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        seat, kind = self._turn % SEATS, self._turn % 5
        text = f"line {self._turn} from seat {seat}"
        if kind < 3:
            event = self._log.emit("speech", "day", text, Audience.everyone(), speaker=f"s{seat}")
        elif kind == 3:
            event = self._log.emit("note", "day", text, Audience.only(f"s{seat}"))
        else:
            # The log resolves the team to its seats when it emits (``Event.to``).
            event = self._log.emit("team", "day", text, Audience.of_group(f"team{seat % 2}"))
        self._turn += 1
        return [event]

    def view(self, seat: str) -> AnyView:
        return self._view(seat, seat, tuple(self._log.visible(seat)))

    def spectator_view(self, reveal: bool) -> AnyView:
        return self._view("spectator", "Spectator", self._log.for_spectator(reveal))

    def _view(self, seat: str, name: str, events: tuple[Event, ...]) -> AnyView:
        """A seat's or the spectator's view: no facts, only the events it may see."""
        return View(
            game="chatter",
            seat=seat,
            seat_name=name,
            phase="day",
            public=NoFacts(),
            private=NoFacts(),
            events=events,
        )

    @property
    def events(self) -> tuple[Event, ...]:
        return self._log.events

    def is_terminal(self) -> bool:
        return self._turn >= self._config.events

    def result(self) -> Result | None:
        return Result(winners=(), summary="done") if self.is_terminal() else None

    def snapshot(self) -> dict[str, Any]:
        return {"turn": self._turn}

    def secret_markers(self) -> dict[str, frozenset[str]]:
        return {}


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _chatter(store: Store, events: int) -> tuple[str, Callable[[str], Any]]:
    game = Chatter(ChatterConfig(events=events), 1)
    gid = store.create_game("chatter", game.config.model_dump_json(), 1, {})
    idx = 0
    while not game.is_terminal():
        decision = game.pending()[0]
        action = Choice(option="say")
        store.record_action(
            gid, idx, decision.id, decision.seat, action, game.apply(decision.id, action)
        )
        idx += 1

    def replay(seat: str) -> object:  # what session.rebuild does, for a game not registered
        again = Chatter.new(ChatterConfig.model_validate_json(store.get_game(gid).config), 1)
        for act in store.actions(gid):
            again.apply(act.decision_id, act.action)
        return again.view(seat).events

    return gid, replay


def _werewolf(store: Store) -> tuple[str, Callable[[str], Any]]:
    plan = SeatPlan(default="scripted", system_default="scripted", overrides={})
    options = {"messages_per_player": 10, "wolf_chat_messages": 5, "max_days": 200}
    session = sessions.start(store, "werewolf", players=16, seed=1, options=options, plan=plan)
    asyncio.run(session.run())
    resolve(store, session.game_id)  # werewolf does not fill Event.to yet: once, untimed

    def replay(seat: str) -> object:
        _, game, _ = sessions.rebuild(store, session.game_id)
        return game.view(seat).events

    return session.game_id, replay


def _report(store: Store, name: str, gid: str, replay: Callable[[str], Any], repeat: int) -> None:
    seat = "s3" if name == "chatter" else "p3"
    n = store.event_count(gid)
    whole = store.events_for(gid, seat)
    assert [e.seq for e in whole] == [e.seq for e in replay(seat)]
    t_replay = _best(lambda: replay(seat), repeat)
    t_all = _best(lambda: store.events_for(gid, seat), repeat)
    t_delta = _best(lambda: store.events_for(gid, seat, n - 11), repeat)
    print(f"{name}: {n} events, seat {seat} sees {len(whole)}")
    print(f"  full replay + view    {t_replay * 1000:9.1f} ms")
    print(f"  events_for (all)      {t_all * 1000:9.1f} ms  {t_replay / t_all:6.0f}x cheaper")
    print(f"  events_for (last 10)  {t_delta * 1000:9.2f} ms  {t_replay / t_delta:6.0f}x cheaper")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(db_url(str(Path(tmp) / "bench.sqlite")))
        for name, (gid, replay) in (
            ("chatter", _chatter(store, args.events)),
            ("werewolf", _werewolf(store)),
        ):
            _report(store, name, gid, replay, args.repeat)
        store.close()


if __name__ == "__main__":
    main()
