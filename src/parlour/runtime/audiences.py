"""Resolving group audiences that were stored without their seats.

A game fills ``Event.to`` when it emits an event for a group (``Audience.of_group``):
only the game knows who is in a group at that moment. Events stored before a game did so
(and databases from before schema v3) are keyed ``UNRESOLVED``; this module asks the
game itself, by replaying the stored actions once: each unresolved event goes to the
seats whose view holds it right after the action that emitted it. Nothing is guessed
from the group's name.
"""

from __future__ import annotations

from parlour.core.game import Game
from parlour.runtime.session import opening
from parlour.runtime.store import Store


def resolve(store: Store, game_id: str) -> int:
    """Store the seats of every unresolved group event of a game; return how many."""
    pending = set(store.unresolved_seqs(game_id))
    if not pending:
        return 0
    _, game = opening(store.get_game(game_id))
    found: dict[int, tuple[str, ...]] = {}
    _collect(game, 0, pending, found)
    for act in store.actions(game_id):
        if not pending:
            break
        before = len(game.events)
        game.apply(act.decision_id, act.action)
        _collect(game, before, pending, found)
    store.resolve_audiences(game_id, found)
    return len(found)


def _collect(game: Game, start: int, pending: set[int], found: dict[int, tuple[str, ...]]) -> None:
    new = [e for e in game.events[start:] if e.seq in pending]
    if not new:
        return
    unfilled = [e for e in new if not e.to]
    seen: dict[str, set[int]] = {}
    if unfilled:
        seen = {s.id: {e.seq for e in game.view(s.id).events} for s in game.seats()}
    for event in new:
        found[event.seq] = event.to or tuple(s for s, seqs in seen.items() if event.seq in seqs)
        pending.discard(event.seq)
