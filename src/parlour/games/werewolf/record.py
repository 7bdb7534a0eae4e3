"""What a seat's events say, folded into a record its belief reads (``belief.py``).

``stances(event, names)`` reads one speech: whom it accused and defended, and a seer
claim's readings (shared with the metrics and the router). ``Record`` folds a seat's
events one by one. ``SeatRecords`` keeps a seat's latest record, so that its next
view's record is extended by the new events instead of read again from the first; the
game's state holds one per seat and hands it to that seat's views (``views.seat_view``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from parlour.core.events import Event
from parlour.games.werewolf.names import mentioned

_CLAIM = re.compile(r"\bI am the seer\b", re.IGNORECASE)
_FINDING = re.compile(r"I checked ([^:.]+): (evil|innocent|cleared)", re.IGNORECASE)
_ACCUSE = re.compile(
    r"\b(?:I suspect|Let's vote|Vote|I name|My eyes are on)\s+([^.!?,;:]+)", re.IGNORECASE
)
_DEFEND = re.compile(
    r"\b(?:I trust|Leave|Do not vote|I stand by|Do not trust)\s+([^.!?,;:]+)", re.IGNORECASE
)


@dataclass(frozen=True)
class Stance:
    """What one speech said: whom it accused and defended, and a seer claim's readings."""

    speaker: str
    accused: tuple[str, ...] = ()
    defended: tuple[str, ...] = ()
    claims_seer: bool = False
    readings: tuple[tuple[str, str], ...] = ()


def stances(event: Event, names: Mapping[str, str]) -> Stance:
    """What a speech said (see ``_stances``), cached: every belief reads every speech."""
    data = event.data
    keys = ("act", "target", "reading", "role", "with_act")
    return _stances(
        event.speaker,
        event.text,
        tuple(str(data.get(k, "")) for k in keys),
        tuple(names.items()),
    )


@lru_cache(maxsize=8192)
def _stances(
    speaker: str, text: str, fields: tuple[str, ...], names_items: tuple[tuple[str, str], ...]
) -> Stance:
    """Read a speech event: a speech act's data when it has one, else the fixed phrasings
    the scripted players use ("I suspect Aiko.", "I trust Kenji.", "I am the seer. I
    checked Omar: evil."). "Do not trust X" is an accusation, not a defence."""
    act, target, read, role, with_act = fields
    names = dict(names_items)
    if act:
        if act == "reveal":
            reading = "evil" if read == "evil" else "innocent"
            named: tuple[str, ...] = (target,) if reading == "evil" else ()
            return Stance(speaker, named, (), True, ((target, reading),))
        if act == "claim":
            return Stance(speaker, claims_seer=role == "seer")
        if act == "accuse" or (act == "agree" and with_act == "accuse"):
            return Stance(speaker, accused=(target,))
        if act == "defend" or (act == "agree" and with_act == "defend"):
            return Stance(speaker, defended=(target,))
        return Stance(speaker)
    others = {s: n for s, n in names.items() if s != speaker}
    accused: list[str] = []
    defended: list[str] = []
    readings: list[tuple[str, str]] = []
    claims = bool(_CLAIM.search(text))
    if claims:
        for name, reading in _FINDING.findall(text):
            for seat in mentioned(name, others):
                evil = reading.lower() == "evil"
                readings.append((seat, "evil" if evil else "innocent"))
                if evil:
                    accused.append(seat)
    for chunk in _ACCUSE.findall(text):
        accused += [s for s in mentioned(chunk, others) if s not in accused]
    for match in _DEFEND.finditer(text):
        found = [s for s in mentioned(match.group(1), others)]
        if match.group(0).lower().startswith("do not trust"):
            accused += [s for s in found if s not in accused]
        else:
            defended += [s for s in found if s not in defended]
    return Stance(speaker, tuple(accused), tuple(defended), claims, tuple(readings))


@dataclass
class Record:
    """The public record a seat's view holds, folded event by event (``add``): what
    ``belief`` reads from the events. A view's events only ever grow (the log is
    append-only and what a seat may see does not change), so a seat's record can be kept
    and extended with the new events instead of re-read from the first (``SeatRecords``)."""

    seat: str
    names: dict[str, str]
    #: seer claimers in claim order → their announced readings
    claims: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: what each player said on each day, merged over the day's speeches
    said: dict[tuple[int, str], Stance] = field(default_factory=dict)
    ballots: list[tuple[int, str, str]] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)
    #: (speaker, day) for every speech after which the speaker had accused this seat that
    #: day (in event order: each is one piece of evidence)
    accused_me: list[tuple[str, int]] = field(default_factory=list)
    #: players whose words tied to something at least once (an accusation, a defence or
    #: a claim this seat could read)
    heard: set[str] = field(default_factory=set)
    #: (who, whom) for every accusation and ballot, each once
    pointed: set[tuple[str, str]] = field(default_factory=set)
    #: (day, who) for every player who had a turn that day (spoke or passed)
    spoke: set[tuple[int, str]] = field(default_factory=set)
    #: events folded so far; the first and the last one (kept, so identity is exact)
    count: int = 0
    first: Event | None = None
    last: Event | None = None

    def add(self, event: Event) -> None:
        self.count += 1
        self.first = self.first or event
        self.last = event
        if event.kind == "death":
            self.killed.extend(str(s) for s in event.data.get("dead", []))
            return
        if event.kind == "vote":
            voter, target = str(event.data["voter"]), str(event.data["target"])
            self.ballots.append((int(event.data["day"]), voter, target))
            self.pointed.add((voter, target))
            return
        if event.kind == "pass" and event.data.get("seat"):
            self.spoke.add((_day_of(event.phase), str(event.data["seat"])))
            return
        if event.kind != "speech" or not event.speaker:
            return
        self.spoke.add((_day_of(event.phase), event.speaker))
        stance = stances(event, self.names)
        if stance.accused or stance.defended or stance.claims_seer:
            self.heard.add(stance.speaker)
        self.pointed.update((stance.speaker, a) for a in stance.accused if a != stance.speaker)
        if stance.claims_seer:
            self.claims.setdefault(stance.speaker, []).extend(stance.readings)
        day = _day_of(event.phase)
        key = (day, stance.speaker)
        if key in self.said:
            prev = self.said[key]
            stance = Stance(
                stance.speaker,
                prev.accused + stance.accused,
                prev.defended + stance.defended,
                prev.claims_seer or stance.claims_seer,
                prev.readings + stance.readings,
            )
        self.said[key] = stance
        if stance.speaker != self.seat and self.seat in stance.accused:
            self.accused_me.append((stance.speaker, day))

    def extends(self, events: tuple[Event, ...] | list[Event]) -> bool:
        """Whether ``events`` start with the events folded so far."""
        n = self.count
        return n <= len(events) and (
            n == 0 or (events[0] is self.first and events[n - 1] is self.last)
        )

    def copy(self) -> Record:
        return Record(
            self.seat,
            self.names,
            {c: list(r) for c, r in self.claims.items()},
            dict(self.said),
            list(self.ballots),
            list(self.killed),
            list(self.accused_me),
            set(self.heard),
            set(self.pointed),
            set(self.spoke),
            self.count,
            self.first,
            self.last,
        )


#: beliefs a seat keeps (the latest ones; a view usually asks again for the same)
_KEEP_BELIEFS = 16


class SeatRecords:
    """One seat's latest ``Record`` of its own events and the beliefs read from it, kept
    with the game (``WerewolfState.records``) and handed to that seat's views only. It
    holds nothing the seat's view does not: a copy of the state starts an empty one, and
    any two compare equal."""

    def __init__(self) -> None:
        self._kept: Record | None = None
        #: belief key → (the record it was read from, the belief)
        self._beliefs: dict[tuple[object, ...], tuple[Record, Any]] = {}

    def record(self, seat: str, names: dict[str, str], events: tuple[Event, ...]) -> Record:
        """The seat's record of ``events``: the kept one extended by the events it has
        not seen yet, or a fresh fold when ``events`` do not extend it (an earlier point
        of the game). The returned record must not be changed."""
        kept = self._kept
        if kept is None or (kept.seat, kept.names) != (seat, names) or not kept.extends(events):
            kept = Record(seat, dict(names))
        elif kept.count == len(events):
            return kept
        else:
            kept = kept.copy()  # the kept one may still be read by an earlier caller
        for event in events[kept.count :]:
            kept.add(event)
        self._kept = kept
        return kept

    def belief(self, key: tuple[object, ...], rec: Record) -> Any:
        """The belief kept for ``key`` when it was read from ``rec``, else None."""
        kept = self._beliefs.get(key)
        return kept[1] if kept is not None and kept[0] is rec else None

    def keep(self, key: tuple[object, ...], rec: Record, belief: Any) -> None:
        if key not in self._beliefs and len(self._beliefs) >= _KEEP_BELIEFS:
            self._beliefs.pop(next(iter(self._beliefs)))
        self._beliefs[key] = (rec, belief)

    def __deepcopy__(self, memo: dict[int, Any]) -> SeatRecords:
        return SeatRecords()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeatRecords)

    __hash__ = None  # type: ignore[assignment]


def _day_of(phase: str) -> int:
    """The day a speech belongs to ("day 2" → 2); 0 for anything else."""
    word, _, number = phase.partition(" ")
    return int(number) if word == "day" and number.isdigit() else 0
