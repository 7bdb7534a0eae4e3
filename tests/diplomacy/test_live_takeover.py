"""Live table: a person's power that misses its window deadline ``takeover_after`` times is
played by the scripted bot (a public event says so), and ``resume --seat POWER=human``
hands it back. The person is real: ``parlour play`` in a subprocess whose stdin stays
open and silent, so every deadline passes through the runtime's timeout path."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.core.events import Event
from parlour.runtime.store import Store, db_url
from tests.support.cli import run_silent

SETTINGS = [
    "press_rounds=1",
    "window_seconds=1",
    "takeover_after=2",
    "end_year=1904",
]  # years left after the kill


def _silent(
    args: list[str], tmp: Path, name: str, until: Callable[[list[Event]], bool] | None, db: Path
) -> str:
    """Run ``parlour ARGS`` with a silent person at the terminal; stop it once the stored
    public events satisfy ``until`` (None: let it finish). Returns its stderr."""
    err_path = tmp / f"{name}.err"
    stop = None if until is None else (lambda: until(_public(db)))
    proc = run_silent(args, tmp / f"{name}.out", err_path, stop)
    if until is None:
        assert proc.returncode == 0, err_path.read_text()
    return err_path.read_text()


def _public(db: Path) -> list[Event]:
    if not db.exists():
        return []
    store = Store(db_url(str(db)))
    games = store.list_games()
    return store.spectator_events(games[0].id, "public") if games else []


def _bot_ordered_in_fall(events: list[Event]) -> bool:
    """Stop once France's Fall 1901 orders (the bot's) are public."""
    return any(e.kind == "orders" and e.speaker == "FRANCE" and e.phase == "F1901M" for e in events)


@pytest.mark.slow  # real processes waiting out decision deadlines
def test_a_silent_person_is_taken_over_announced_and_handed_back(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite"
    args = ["play", "diplomacy", "--model", "bot:scripted", "--as", "FRANCE", "--db", str(db)]
    for s in SETTINGS:
        args += ["--set", s]
    _silent(args, tmp_path, "play", _bot_ordered_in_fall, db)
    store = Store(db_url(str(db)))
    [game] = store.list_games()
    france = [a for a in store.actions(game.id) if a.seat == "FRANCE"]
    # two deadlines missed (the talk and the orders of Spring 1901): each applied by the
    # runtime's timeout, then the bot plays France and nobody asks the person
    assert [a.by for a in france] == ["timeout", "timeout"]
    public = store.spectator_events(game.id, "public")
    [taken] = [e for e in public if e.kind == "takeover"]
    assert taken.data == {"power": "FRANCE", "missed": 2, "phase": "S1901M"}
    assert "France missed 2 deadlines" in taken.text and taken.audience.kind == "all"

    # the person comes back: the next movement phase is theirs again
    _silent(
        ["resume", game.id, "--seat", "FRANCE=human", "--db", str(db)], tmp_path, "back", None, db
    )
    again = Store(db_url(str(db)))
    row = again.get_game(game.id)
    assert row.status == "finished"
    back = json.loads(row.config)["handed_back"]
    assert list(back) == ["FRANCE"]
    events = again.spectator_events(game.id, "public")
    kinds = [e.kind for e in events if e.kind in ("takeover", "handback")]
    # handed back, then (still silent) missed twice more and taken over again
    assert kinds == ["takeover", "handback", "takeover"]
    [handback] = [e for e in events if e.kind == "handback"]
    assert handback.phase == back["FRANCE"]
    # while the bot played France, France's orders were DumbBot's, not civil disorder
    orders = [
        e for e in events if e.kind == "orders" and e.speaker == "FRANCE" and e.phase == "F1901M"
    ]
    assert orders and any(" - " in o for e in orders for o in e.data["orders"])
    # after the hand-back the person was asked again (and missed again: timeouts)
    later = [a for a in again.actions(game.id) if a.seat == "FRANCE"][len(france) :]
    assert len(later) == 2 and all(a.by == "timeout" for a in later)
