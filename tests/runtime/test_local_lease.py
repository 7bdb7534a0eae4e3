"""The local lease of a command-line game: live while held, never claimed by a host, gone
when the game stops here, and never taken from a game a host runs."""

from __future__ import annotations

import time

import pytest

from parlour.core.errors import ParlourError
from parlour.runtime.host import GameHost
from parlour.runtime.local_lease import held_here
from parlour.runtime.store import Store, schema


def _game(store: Store) -> str:
    return GameHost(store, worker="creator").create(
        "werewolf", players=6, seed=1, seats={}, overrides={}
    )


def _unhost(store: Store) -> None:
    """As a command-line game: no lease row until its process takes one."""
    with store.db.engine.begin() as conn:
        conn.execute(schema.leases.delete())


def test_a_held_local_lease_is_live_and_never_claimable(store: Store) -> None:
    game_id = _game(store)
    store.leases.release(game_id, "nobody", drop=True)  # not the holder: nothing happens
    assert store.leases.claimable(10) == [game_id]  # a hosted game nobody holds
    # The host's own row is not local: a command-line process leaves it alone.
    assert not store.leases.hold_local(game_id, "cli:here:1", 30)

    _unhost(store)
    assert store.leases.hold_local(game_id, "cli:here:1", 0.5)
    assert store.leases.live([game_id]) == {game_id}
    lease = store.leases.get(game_id)
    assert lease is not None and lease.local
    with pytest.raises(ParlourError, match="not hosted"):
        GameHost(store, worker="web").pause(game_id)
    time.sleep(1.0)
    assert store.leases.live([game_id]) == set()  # lapsed: the process is gone
    assert store.leases.claimable(10) == []  # and a host still does not take it


def test_held_here_renews_then_drops_the_row(store: Store) -> None:
    game_id = _game(store)
    _unhost(store)
    with held_here(store, game_id, seconds=0.6):
        time.sleep(1.5)  # past two lease lengths: only renewal keeps it live
        assert store.leases.live([game_id]) == {game_id}
    assert store.leases.get(game_id) is None
