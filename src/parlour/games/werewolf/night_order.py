"""The order in which a seat whose plan the engine keeps (``engine_plans``, a small model)
reads its night options: best first, from its own view, as its day plans are ranked.

A 135M model picks the first option of a list most of the time (about three times in
four, measured over 20 embedded games). With targets in seat order, the pack, the seer
and the doctor all picked the first-seated player, so the doctor's guard and the pack's
victim were the same player far more often than chance. Ranked from each seat's own
belief instead:

- the pack: a claimed seer who named one of us evil, then any claimed seer, then whoever
  accused or voted against one of us, then the players the table trusts most (a
  suspected villager is worth more alive, as tomorrow's lynch); ties by a hash of the
  pack, so packmates read the same order;
- the seer: the player its belief finds most likely evil first;
- the doctor: a claimed seer, then everyone else in an order of its own (a hash of its
  seat), so it does not guard whom the pack's list puts first.
"""

from __future__ import annotations

from zlib import crc32

from parlour.games.werewolf.belief import belief, seat_record
from parlour.games.werewolf.plans import public_belief
from parlour.games.werewolf.views import WerewolfView


def _hashed(key: str, seats: list[str]) -> list[str]:
    return sorted(seats, key=lambda s: crc32(f"{key}:{s}".encode()))


def kill_order(view: WerewolfView, targets: list[str]) -> list[str]:
    """``targets`` in the order the pack wants them dead (see the module doc)."""
    pack = {w.id for w in view.private.pack or []} | {view.seat}
    rec = seat_record(view)
    public = public_belief(view)
    named_us = [
        s for s, read in rec.claims.items() if any(r == "evil" and t in pack for t, r in read)
    ]
    claimers = [*named_us, *rec.claims]
    against_us = {who for who, whom in rec.pointed if whom in pack}
    key = ",".join(sorted(pack))
    rest = sorted(
        _hashed(key, targets),
        key=lambda s: (s not in against_us, public.evil.get(s, 0.0)),
    )
    first = [s for s in dict.fromkeys(claimers) if s in targets]
    return [*first, *(s for s in rest if s not in first)]


def investigate_order(view: WerewolfView, targets: list[str]) -> list[str]:
    """``targets`` most likely evil first in the seer's belief (the night offers checked
    players only once nobody unchecked is left)."""
    return belief(view).ranked(targets)


def protect_order(view: WerewolfView, targets: list[str]) -> list[str]:
    """``targets`` with claimed seers first, the rest in the doctor's own hashed order."""
    claimers = [s for s in seat_record(view).claims if s in targets]
    rest = _hashed(view.seat, [s for s in targets if s not in claimers])
    return [*claimers, *rest]
