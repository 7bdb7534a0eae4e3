"""``parlour audit``: replay stored games and prove no seat was given a secret it may not know.

A game started with ``plant_markers`` carries a unique marker string in every secret, and the
game says, at every moment, which seats are entitled to each marker. The audit replays the
stored actions from the config and seed and, before each action, scans everything each seat
was given: its view (every string: event text and data, public and private facts) and its
pending decisions. Then it scans every stored model prompt of each seat against the
entitlements of the moment that seat was asked (the last step its decision was pending,
since entitlements only grow while a decision waits). Games without markers cannot be
audited and are reported as such, never as clean.

Each marker a seat is given but not entitled to is traced to its author (``provenance``):

* **leak**: the engine, or an engine role that may not pass secrets on (a director, a
  narrator, a router), or a seat repeating what was leaked to it, handed it over. Reported
  with its path end to end ("story-director's answer to s1:open → scene-director
  (view.public.synopsis) → ... → player"). A leak fails the audit.
* **disclosure**: a participant the game lets publish what it knows (``SeatInfo.
  may_disclose``: a werewolf player claiming a role, a character confessing a secret) said
  it, and others heard it. Counted and listed, never a leak.
* **forgery**: a seat wrote a marker it was never given, or one that was never planted (a
  person typing a marker-shaped string). Listed; never blamed on the engine.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from parlour.core.conformance import strings_in, texts_in
from parlour.core.errors import ParlourError
from parlour.core.events import Event
from parlour.core.game import Game
from parlour.core.markers import MARKER_SHAPE, marker_nonce, without_nonce
from parlour.runtime.provenance import Finding, Markers, Provenance, Receipt
from parlour.runtime.session import opening
from parlour.runtime.store import ActionRow, CallRecord, GameRow, Store

Status = Literal["clean", "leak", "not auditable"]
#: answers replayed, at most, to find the engine's first marker when telling an old game
LOOK_AHEAD = 200


@dataclass
class SeatAudit:
    seat: str
    views: int = 0
    prompts: int = 0
    #: secrets this seat was given and may not know
    leaks: list[Finding] = field(default_factory=list)
    #: secrets a participant published to this seat
    disclosures: list[Finding] = field(default_factory=list)
    #: markers this seat wrote without having them
    forgeries: list[Finding] = field(default_factory=list)


@dataclass
class GameAudit:
    game_id: str
    game: str
    status: Status
    note: str = ""
    seats: dict[str, SeatAudit] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def leaks(self) -> list[Finding]:
        return [f for seat in self.seats.values() for f in seat.leaks]

    @property
    def disclosures(self) -> list[Finding]:
        return [f for seat in self.seats.values() for f in seat.disclosures]

    @property
    def forgeries(self) -> list[Finding]:
        return [f for seat in self.seats.values() for f in seat.forgeries]


def audit_all(store: Store, limit: int = 1_000_000) -> list[GameAudit]:
    return [audit_game(store, row.id) for row in store.list_games(limit)]


def audit_game(store: Store, game_id: str) -> GameAudit:
    started = time.perf_counter()
    report = _audit(store, game_id)
    report.seconds = time.perf_counter() - started
    return report


def _audit(store: Store, game_id: str) -> GameAudit:
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
    seats = game.seats()
    report.seats = {s.id: SeatAudit(s.id) for s in seats}
    ledger = Provenance(frozenset(s.id for s in seats if s.may_disclose))
    asked: dict[str, tuple[Markers, int]] = {}  # decision id → entitlements, step when last pending
    actions = store.actions(game_id)
    calls = store.calls(game_id)
    read = _marker_reader(row, store, actions)
    if read is not None:
        report.note = "stored before markers had a per-game part: read in the old form"
    for step in range(len(actions) + 1):
        markers = game.secret_markers()
        ledger.planted.update(markers)
        pending = game.pending()
        for decision in pending:
            asked[decision.id] = (markers, step)
        for seat in report.seats.values():
            view = game.view(seat.seat)
            mine = [d for d in pending if d.seat == seat.seat]
            blob = view.model_dump_json() + "".join(d.model_dump_json() for d in mine)
            seat.views += 1
            if not _news(seat.seat, ledger, markers, blob):
                continue
            given = {
                "view": view.model_dump(mode="json"),
                "decisions": [d.model_dump(mode="json") for d in mine],
            }
            _scan(seat, ledger, markers, given, f"view at step {step}", view.events, step)
        if step == len(actions):
            break
        act = actions[step]
        texts = texts_in(act.action.model_dump(mode="json"))
        texts = [read(t) for t in texts] if read is not None else texts
        author = report.seats.setdefault(act.seat, SeatAudit(act.seat))
        author.forgeries += ledger.answer(act.seat, step, act.decision_id, texts, markers)
        try:
            events = game.apply(act.decision_id, act.action)
        except ParlourError as err:
            report.status, report.note = "not auditable", f"replay failed at action {step}: {err}"
            return report
        ledger.emitted(step, events)
    if read is not None:
        calls = [replace(c, messages=_read_all(c.messages, read)) for c in calls]
    _scan_prompts(report, ledger, calls, asked, game, len(actions))
    if report.leaks:
        report.status = "leak"
    return report


def _marker_reader(
    row: GameRow, store: Store, actions: list[ActionRow]
) -> Callable[[str], str] | None:
    """For a game stored before markers carried their per-game part (``[[mk:KEY]]``), a
    function that reads its stored answers and prompts in today's form; else None.

    Decided by the engine's own words only: a fresh replay's first event that holds a
    marker is compared with the stored event of the same number. (What seats wrote cannot
    decide it, or a person typing ``[[mk:role:p5]]`` would be read as the real marker.)"""
    nonce = marker_nonce(row.seed)
    stored = {e.seq: e.text for e in store.spectator_events(row.id, "everything")}
    if any(f"[[mk:{nonce}:" in text for text in stored.values()):
        return None  # stored with today's markers: no second replay needed
    _, probe = opening(row)
    seen = 0
    for step in range(len(actions) + 1):
        events = probe.events
        for event in events[seen:]:
            if f"[[mk:{nonce}:" in event.text:
                if stored.get(event.seq) != without_nonce(event.text):
                    return None
                pattern = re.compile(rf"\[\[mk:(?!{nonce}:)")
                return lambda text: pattern.sub(f"[[mk:{nonce}:", text)
        seen = len(events)
        if step == len(actions) or step >= LOOK_AHEAD:
            return None  # no marker in the engine's first words: nothing to read
        probe.apply(actions[step].decision_id, actions[step].action)
    return None


def _read_all(value: Any, read: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return read(value)
    if isinstance(value, dict):
        return {k: _read_all(v, read) for k, v in value.items()}
    if isinstance(value, list):
        return [_read_all(v, read) for v in value]
    return value


def _scan_prompts(
    report: GameAudit,
    ledger: Provenance,
    calls: list[CallRecord],
    asked: dict[str, tuple[Markers, int]],
    game: Game,
    steps: int,
) -> None:
    final = (game.secret_markers(), steps)
    unmatched: defaultdict[str, int] = defaultdict(int)
    for call in calls:
        seat = report.seats.get(call.seat)
        if seat is None:  # a seat outside the table (e.g. casting before the game)
            seat = report.seats.setdefault(call.seat, SeatAudit(call.seat))
        when = asked.get(call.decision_id)
        if when is None:
            unmatched[call.seat] += 1
            when = final
        markers, step = when
        seat.prompts += 1
        where = f"prompt of {call.decision_id} (attempt {call.attempt})"
        if _news(seat.seat, ledger, markers, json.dumps(call.messages, ensure_ascii=False)):
            _scan(seat, ledger, markers, call.messages, where, (), step + 1)
    if unmatched:
        counts = ", ".join(f"{s}: {n}" for s, n in sorted(unmatched.items()))
        report.note = f"prompts of decisions never pending, checked at the end ({counts})"


def _news(seat: str, ledger: Provenance, markers: Markers, blob: str) -> bool:
    """Does ``blob`` (all ``seat`` was given, as JSON) hold a marker whose receipt is not
    settled yet? A cheap pass over the text, so that the walk through a view's values
    (``_scan``) runs only when there is something to attribute."""
    if "[[mk:" not in blob:
        return False
    for found in set(MARKER_SHAPE.findall(blob)):
        allowed = markers.get(found)
        if allowed is None or (seat, found) in ledger.held:
            continue
        if seat not in allowed:
            return True
        if seat in ledger.disclosers:  # what a participant was told, it keeps
            ledger.held[(seat, found)] = Receipt("entitled")
    return False


def _scan(
    seat: SeatAudit,
    ledger: Provenance,
    markers: Markers,
    given: object,
    where: str,
    events: tuple[Event, ...],
    step: int,
) -> None:
    """Record every marker in ``given`` as given to ``seat``; file what is not allowed."""
    if not any("[[mk:" in t for t in texts_in(given)):
        return  # most views hold no marker: their strings' paths are not worth building
    strings = [(p, t) for p, t in strings_in(given, "") if "[[mk:" in t]
    everything = "\n".join(text for _, text in strings)
    for marker, allowed in markers.items():
        if marker not in everything:
            continue
        path, text = next((p, t) for p, t in strings if marker in t)
        author = None
        if seat.seat not in allowed:
            author = ledger.author_of(marker, path, text, events, step)
        finding = ledger.receive(seat.seat, marker, allowed, f"{where}: {path}", author)
        if finding is None:
            continue
        if finding.kind == "leak":
            seat.leaks.append(finding)
        else:
            seat.disclosures.append(finding)
