"""Stored audiences: "what may this seat see since N" from the database, without a replay.

The answer must be exactly what the game's own ``view(seat)`` holds, for every seat of
every game, and spectator levels must match the game's spectator view.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.core import Audience, Text
from parlour.core.errors import ParlourError
from parlour.core.events import Event, EventLog
from parlour.runtime import session as sessions
from parlour.runtime.audiences import resolve
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, UnresolvedAudiences, db_url

WATCH = ("--quiet", "--players", "7", "--db")
SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})


def _hand_built() -> list[Event]:
    log = EventLog()
    log.emit("speech", "day 1", "hello all", Audience.everyone(), speaker="p1")
    log.emit("role", "setup", "you are the seer", Audience.only("p2"))
    log.emit("press", "day 1", "p1 to p3", Audience.only("p1", "p3"), speaker="p1")
    log.emit("reveal", "setup", "engine only", Audience.nobody())
    events = list(log.events)
    # A group event whose audience the game resolved when it emitted it...
    events.append(
        Event(
            seq=4,
            kind="wolf_chat",
            phase="night 1",
            audience=Audience.of_group("wolves"),
            text="psst",
            speaker="p3",
            to=("p3", "p4"),
        )
    )
    return events


def _seqs(events: list[Event]) -> list[int]:
    return [e.seq for e in events]


def test_hand_built_audiences_answer_per_seat_and_per_level(store: Store) -> None:
    gid = store.create_game("werewolf", "{}", 1, {}, _hand_built()[:2])
    store.record_action(gid, 0, "d", "p1", Text(text="x"), _hand_built()[2:])
    assert _seqs(store.events_for(gid, "p1")) == [0, 2]
    assert _seqs(store.events_for(gid, "p2")) == [0, 1]
    assert _seqs(store.events_for(gid, "p3")) == [0, 2, 4]
    assert _seqs(store.events_for(gid, "p4")) == [0, 4]
    assert _seqs(store.events_for(gid, "p9")) == [0]
    assert _seqs(store.events_for(gid, "p3", after_seq=2)) == [4]
    assert _seqs(store.events_for(gid, "p3", after_seq=4)) == []
    assert store.events_for(gid, "p3")[2].to == ("p3", "p4")
    assert _seqs(store.spectator_events(gid, "public")) == [0]
    assert _seqs(store.spectator_events(gid, "team:wolves")) == [0, 4]
    assert _seqs(store.spectator_events(gid, "team:village")) == [0]
    assert _seqs(store.spectator_events(gid, "everything")) == [0, 1, 2, 3, 4]
    assert _seqs(store.spectator_events(gid, "everything", after_seq=3)) == [4]
    assert store.events(gid) == _hand_built()
    with pytest.raises(ParlourError, match="public, team:GROUP"):
        store.spectator_events(gid, "team:")


def test_a_group_event_without_its_seats_is_refused_not_guessed(store: Store) -> None:
    gid = store.create_game("werewolf", "{}", 1, {})
    log = EventLog()
    log.emit("speech", "day 1", "hi", Audience.everyone())
    log.emit("wolf_chat", "night 1", "psst", Audience.of_group("wolves"))
    store.record_action(gid, 0, "d", "p1", Text(text="x"), list(log.events))
    with pytest.raises(UnresolvedAudiences, match="without their seats"):
        store.events_for(gid, "p1")
    assert store.unresolved_seqs(gid) == [1]
    # Spectator levels do not depend on membership: the group's name is stored.
    assert _seqs(store.spectator_events(gid, "team:wolves")) == [0, 1]
    store.resolve_audiences(gid, {1: ["p2"]})
    assert _seqs(store.events_for(gid, "p1")) == [0]
    assert _seqs(store.events_for(gid, "p2")) == [0, 1]
    assert store.unresolved_seqs(gid) == []


GAMES: dict[str, tuple[int | None, dict[str, Any]]] = {
    "werewolf": (9, {"maniac": True, "debrief": True}),
    "escape": (None, {"scripted_player": "explorer"}),
    "diplomacy": (None, {"end_year": 1902, "press_rounds": 1}),
}


def _strip(events: list[Event] | tuple[Event, ...]) -> list[dict[str, Any]]:
    # ``to`` is compared separately (the stored seats are what ``events_for`` keys on).
    return [e.model_dump(exclude={"to"}) for e in events]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_events_for_is_the_games_own_view_for_every_seat(name: str, tmp_path: Path) -> None:
    players, options = GAMES[name]
    store = Store(db_url(str(tmp_path / "g.sqlite")))
    session = sessions.start(store, name, players=players, seed=4, options=options, plan=SCRIPTED)
    asyncio.run(session.run(max_batches=40))  # mid-game: views are not the final ones
    resolved = resolve(store, session.game_id)
    game = session.game
    assert store.unresolved_seqs(session.game_id) == []
    # Games fill ``Event.to`` when they emit (the pack's channel too): nothing to resolve.
    assert resolved == 0
    middle = len(game.events) // 2
    for seat in game.seats():
        view = game.view(seat.id).events
        stored = store.events_for(session.game_id, seat.id)
        if seat.system:
            # A system seat's view may be curated (escape's narrator sees a recent window,
            # its classifier one message): never more than its audience allows.
            assert set(_seqs(list(view))) <= set(_seqs(stored))
            continue
        assert len(view) > 0
        assert _strip(stored) == _strip(view)
        later = [e for e in view if e.seq > middle]
        assert _strip(store.events_for(session.game_id, seat.id, middle)) == _strip(later)
    assert _strip(store.spectator_events(session.game_id, "public")) == _strip(
        game.spectator_view(False).events
    )
    assert _strip(store.spectator_events(session.game_id, "everything")) == _strip(game.events)


def _parlour(
    *args: str, check: bool = True, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python -m parlour ARGS`` with a wide terminal, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "parlour", *args],
        env={**os.environ, "COLUMNS": "200"},
        check=check,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_show_as_a_seat_reads_the_store_and_matches_the_replayed_view(tmp_path: Path) -> None:
    """``parlour show --as`` after a finished CLI game: the seat's view, secrets of others
    absent, the pack's channel present only for wolves."""
    db = tmp_path / "g.sqlite"
    _parlour(
        "watch", "werewolf", "--model", "scripted", "--seed", "3", *WATCH, str(db), timeout=300
    )
    store = Store(db_url(str(db)))
    gid = store.list_games()[0].id
    _, game, _ = sessions.rebuild(store, gid)
    wolves = {e.speaker for e in game.events if e.audience.kind == "group" and e.speaker}
    assert wolves
    villager = next(s.id for s in game.seats() if not s.system and s.id not in wolves)
    for seat in (min(wolves), villager):
        out = _parlour("show", gid, "--as", seat, "--db", str(db)).stdout
        mine = game.view(seat).events
        for event in game.events:
            if event.kind == "vote_reason":
                continue  # a transcript shows the voter's reason as its vote's "why" line
            if event in mine:
                assert event.text in out, f"{seat} should see: {event.text}"
            elif event.audience.kind != "all":
                assert event.text not in out, f"{seat} must not see: {event.text}"
        assert ("[wolves]" in out) == (seat in wolves)
    team = _parlour("show", gid, "--team", "wolves", "--db", str(db)).stdout
    assert "[wolves]" in team and "You are" not in team
    unknown = _parlour("show", gid, "--team", "ghosts", "--db", str(db), check=False)
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == f"error: game {gid} has no group 'ghosts'; its groups: wolves"
