"""The store keeps games, actions, events and calls in a real SQLite file."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from parlour.core import Audience, Choice, Text
from parlour.core.errors import ParlourError
from parlour.core.events import EventLog
from parlour.runtime.store import Store, db_url, schema
from tests.support.calls import make_call


def test_round_trip(store: Store) -> None:
    gid = store.create_game("werewolf", '{"players": 7}', 7, {"p1": "scripted"})
    log = EventLog()
    e1 = log.emit("speech", "day 1", "hello", Audience.everyone(), speaker="p1")
    e2 = log.emit("wolf_chat", "night 1", "psst", Audience.of_group("wolves"), speaker="p2")
    store.record_action(gid, 0, "d1:speak:p1", "p1", Text(text="hello"), [e1], "scripted")
    store.record_action(gid, 1, "n1:chat:p2", "p2", Choice(option="p3", reason="x"), [e2])
    assert [a.action for a in store.actions(gid)] == [
        Text(text="hello"),
        Choice(option="p3", reason="x"),
    ]
    assert store.events(gid) == [e1, e2]
    row = store.get_game(gid)
    assert (row.game, row.seed, row.status, row.seats) == (
        "werewolf",
        7,
        "running",
        {"p1": "scripted"},
    )
    store.finish_game(gid, {"summary": "done", "winners": []})
    assert store.get_game(gid).status == "finished"
    assert [g.id for g in store.list_games()] == [gid]


def test_calls_round_trip(store: Store) -> None:
    gid = store.create_game("werewolf", "{}", 1, {})
    call = make_call(game_id=gid)  # every field set, none empty
    store.record_call(call)
    assert store.calls(gid) == [call]


def test_duplicate_action_index_is_refused_and_nothing_is_lost(store: Store) -> None:
    gid = store.create_game("werewolf", "{}", 1, {})
    store.record_action(gid, 0, "a", "p1", Text(text="one"), [])
    with pytest.raises(ParlourError, match="running in another process"):
        store.record_action(gid, 0, "b", "p1", Text(text="two"), [])
    assert [a.decision_id for a in store.actions(gid)] == ["a"]


def test_migrations_are_idempotent_and_versioned(db_path) -> None:  # type: ignore[no-untyped-def]
    Store(db_url(str(db_path)))
    second = Store(db_url(str(db_path)))
    with second.engine.connect() as conn:
        versions = conn.execute(sa.select(schema.schema_version.c.version)).scalars().all()
    assert sorted(versions) == list(range(1, schema.LATEST + 1))


def test_newer_schema_is_refused(db_path) -> None:  # type: ignore[no-untyped-def]
    store = Store(db_url(str(db_path)))
    with store.engine.begin() as conn:
        conn.execute(schema.schema_version.insert().values(version=schema.LATEST + 5))
    with pytest.raises(ParlourError, match="upgrade parlour"):
        Store(db_url(str(db_path)))


def test_unknown_game_id_names_the_fix(store: Store) -> None:
    with pytest.raises(ParlourError, match="parlour list"):
        store.get_game("nope")
