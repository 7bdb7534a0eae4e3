"""Stored games as a JSONL dataset: one line per game, per event and per model call.

A call line carries ``view_hash``: the SHA-256 of the seat's view (``game.view(seat)``
as canonical JSON) at the moment the decision was asked, recomputed by replaying the
game's stored actions. The prompt is built only from that view, so calls with equal
hashes saw the same facts; a dataset user can group or deduplicate by it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from parlour.runtime.session import opening
from parlour.runtime.store import Store
from parlour.tournament import storage


def view_hashes(store: Store, game_id: str) -> dict[str, str]:
    """decision id → hash of its seat's view when the decision was first open."""
    _module, game = opening(store.get_game(game_id))
    out: dict[str, str] = {}

    def note() -> None:
        for decision in game.pending():
            if decision.id not in out:
                view = game.view(decision.seat).model_dump(mode="json")
                text = json.dumps(view, sort_keys=True, separators=(",", ":"))
                out[decision.id] = hashlib.sha256(text.encode()).hexdigest()

    note()
    for act in store.actions(game_id):
        game.apply(act.decision_id, act.action)
        note()
    return out


def game_lines(
    store: Store, game_id: str, extra: dict[str, Any] | None = None
) -> Iterator[dict[str, Any]]:
    row = store.get_game(game_id)
    yield {
        "type": "game",
        "game_id": game_id,
        "game": row.game,
        "seed": row.seed,
        "config": json.loads(row.config),
        "seats": row.seats,
        "status": row.status,
        "result": row.result,
        **(extra or {}),
    }
    for ev in store.events(game_id):
        yield {"type": "event", "game_id": game_id, **ev.model_dump(mode="json")}
    calls = store.calls(game_id)
    hashes = view_hashes(store, game_id) if calls else {}
    for call in calls:
        data = dict(call.__dict__)
        yield {"type": "call", **data, "view_hash": hashes.get(call.decision_id)}


def tournament_lines(store: Store, tid: str) -> Iterator[dict[str, Any]]:
    for g in storage.games(store, tid):
        if g.game_id is None:
            continue
        yield from game_lines(
            store,
            g.game_id,
            {"tournament_id": tid, "idx": g.match.idx, "seating": g.match.seating},
        )
