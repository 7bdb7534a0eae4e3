"""A game stored before a rule change replays as it was played: its config holds the
rules it was played under (``acts_follow_plan`` absent means off), so ``parlour show``
and ``resume`` re-derive exactly its stored events from its stored actions."""

from __future__ import annotations

import shutil
from pathlib import Path

from parlour.runtime import session as sessions
from parlour.runtime.store import Store, db_url

#: one game of the embedded model in every seat (engine plans, speech acts), stored by
#: the parlour of 3 Dec 2026 before ``acts_follow_plan`` (tournament tn-b19a08d6): a
#: wolf win in which the model accused players its plan did not vote for
FIXTURE = Path(__file__).parent.parent / "fixtures" / "werewolf_engine_plans_v1.sqlite"
GAME = "we-26d8990c8d8303c0"


def test_a_game_stored_before_acts_follow_plan_replays_its_stored_events(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(FIXTURE, db)
    store = Store(db_url(str(db)))
    stored = store.events(GAME)
    assert "acts_follow_plan" not in store.get_game(GAME).config
    _, game, applied = sessions.rebuild(store, GAME)
    assert applied == len(store.actions(GAME)) == 91
    assert list(game.events) == stored
    assert game.is_terminal()
