"""``parlour audit``: replay stored games and prove no seat was given a secret it may not know.

A game started with ``plant_markers`` carries a unique marker string in every secret, and the
game says, at every moment, which seats are entitled to each marker. The audit replays the
stored actions from the config and seed and, before each action, scans everything each seat
was given: its view (every string: event text and data, public and private facts) and its
pending decisions. Then it scans every stored model prompt of each seat against the
entitlements of the moment that seat was asked (the last step its decision was pending,
since entitlements only grow while a decision waits). Games without markers cannot be
audited and are reported as such, never as clean.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from parlour.core.conformance import strings_in
from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.runtime.session import opening
from parlour.runtime.store import CallRecord, Store

Markers = dict[str, frozenset[str]]
Status = Literal["clean", "leak", "not auditable"]


@dataclass(frozen=True)
class Leak:
    seat: str
    marker: str
    where: str  # "view at step 12: view.events.3.data.reason" or "prompt of d2:vote:p3 ..."
    allowed: tuple[str, ...]

    def __str__(self) -> str:
        allowed = ", ".join(self.allowed) or "nobody"
        return f"{self.seat} was given {self.marker} in {self.where} (entitled: {allowed})"


@dataclass
class SeatAudit:
    seat: str
    views: int = 0
    prompts: int = 0
    leaks: list[Leak] = field(default_factory=list)


@dataclass
class GameAudit:
    game_id: str
    game: str
    status: Status
    note: str = ""
    seats: dict[str, SeatAudit] = field(default_factory=dict)

    @property
    def leaks(self) -> list[Leak]:
        return [leak for seat in self.seats.values() for leak in seat.leaks]


def audit_all(store: Store, limit: int = 1_000_000) -> list[GameAudit]:
    return [audit_game(store, row.id) for row in store.list_games(limit)]


def audit_game(store: Store, game_id: str) -> GameAudit:
    row = store.get_game(game_id)
    try:
        _, game = opening(row)
    except (ParlourError, ValueError, ImportError) as err:
        return GameAudit(game_id, row.game, "not auditable", f"cannot rebuild: {err}")
    if not getattr(game.config, "plant_markers", False):
        return GameAudit(
            game_id,
            row.game,
            "not auditable",
            "no planted markers; start games with --set plant_markers=true to audit them",
        )
    report = GameAudit(game_id, row.game, "clean")
    report.seats = {s.id: SeatAudit(s.id) for s in game.seats()}
    asked: dict[str, Markers] = {}  # decision id → entitlements when last pending
    actions = store.actions(game_id)
    for step in range(len(actions) + 1):
        markers = game.secret_markers()
        for decision in game.pending():
            asked[decision.id] = markers
        for seat in report.seats.values():
            given = {
                "view": game.view(seat.seat).model_dump(mode="json"),
                "decisions": [
                    d.model_dump(mode="json") for d in game.pending() if d.seat == seat.seat
                ],
            }
            seat.views += 1
            _scan(seat, markers, strings_in(given, ""), f"view at step {step}")
        if step == len(actions):
            break
        act = actions[step]
        try:
            game.apply(act.decision_id, act.action)
        except ParlourError as err:
            report.status, report.note = "not auditable", f"replay failed at action {step}: {err}"
            return report
    _scan_prompts(report, store.calls(game_id), asked, game)
    if report.leaks:
        report.status = "leak"
    return report


def _scan_prompts(
    report: GameAudit, calls: list[CallRecord], asked: dict[str, Markers], game: Game
) -> None:
    final = game.secret_markers()
    unmatched: defaultdict[str, int] = defaultdict(int)
    for call in calls:
        seat = report.seats.get(call.seat)
        if seat is None:  # a seat outside the table (e.g. casting before the game)
            seat = report.seats.setdefault(call.seat, SeatAudit(call.seat))
        markers = asked.get(call.decision_id)
        if markers is None:
            unmatched[call.seat] += 1
            markers = final
        seat.prompts += 1
        where = f"prompt of {call.decision_id} (attempt {call.attempt})"
        _scan(seat, markers, strings_in(call.messages, ""), where)
    if unmatched:
        counts = ", ".join(f"{s}: {n}" for s, n in sorted(unmatched.items()))
        report.note = f"prompts of decisions never pending, checked at the end ({counts})"


def _scan(
    seat: SeatAudit, markers: Markers, strings: Iterable[tuple[str, str]], where: str
) -> None:
    strings = list(strings)
    everything = "\n".join(text for _, text in strings)
    for marker, allowed in markers.items():
        if seat.seat in allowed or marker not in everything:
            continue
        path = next(p for p, text in strings if marker in text)
        seat.leaks.append(Leak(seat.seat, marker, f"{where}: {path}", tuple(sorted(allowed))))
