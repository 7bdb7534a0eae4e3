"""Events: everything that happens, each with the audience allowed to see it."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Audience(BaseModel):
    """Who may see an event: everyone, listed seats, or members of a named group."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["all", "seats", "group", "nobody"]
    seats: tuple[str, ...] = ()
    group: str = ""

    @classmethod
    def everyone(cls) -> Audience:
        return cls(kind="all")

    @classmethod
    def only(cls, *seats: str) -> Audience:
        return cls(kind="seats", seats=tuple(seats))

    @classmethod
    def of_group(cls, group: str) -> Audience:
        return cls(kind="group", group=group)

    @classmethod
    def nobody(cls) -> Audience:
        """Engine-only record (e.g. a spectator's reveal); no seat's view holds it."""
        return cls(kind="nobody")

    def includes(self, seat: str, groups: Collection[str]) -> bool:
        if self.kind == "all":
            return True
        if self.kind == "seats":
            return seat in self.seats
        if self.kind == "group":
            return self.group in groups
        return False

    def describe(self) -> str:
        if self.kind == "all":
            return "everyone"
        if self.kind == "seats":
            return ", ".join(self.seats)
        if self.kind == "group":
            return f"group:{self.group}"
        return "nobody"


class Event(BaseModel):
    """One thing that happened. ``text`` is the human rendering; ``data`` the typed facts."""

    model_config = ConfigDict(frozen=True)

    seq: int
    kind: str
    phase: str
    audience: Audience
    text: str
    speaker: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
    #: The seats the audience resolved to when the event was emitted (for ``seats`` and
    #: ``group`` audiences; empty for ``all`` and ``nobody``). Stored, so "what may this
    #: seat see" is a query, not a replay.
    to: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _resolve_listed_seats(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("to"):
            audience = data.get("audience")
            if isinstance(audience, Audience) and audience.kind == "seats":
                data = {**data, "to": audience.seats}
        return data

    @property
    def unasked(self) -> bool:
        """The engine did this for its seat without asking it (``data["unasked"]``), e.g.
        a small model's vote taken from its plan: no answer of the seat owns it, so no
        reason or fallback mark of an earlier answer is shown with it."""
        return bool(self.data.get("unasked"))

    @property
    def is_public(self) -> bool:
        """Everyone may see it (what a spectator without reveal is shown)."""
        return self.audience.kind == "all"

    def visible_to(self, seat: str, groups: Collection[str]) -> bool:
        return self.audience.includes(seat, groups)


def spectator_events(events: Iterable[Event], reveal: bool) -> tuple[Event, ...]:
    """What an audience is shown: every event with ``reveal``, else the public ones only."""
    return tuple(events) if reveal else tuple(e for e in events if e.audience.kind == "all")


class EventLog:
    """A game's append-only event list, indexed by seat.

    Each event's audience is resolved to seats when it is emitted (``Event.to``): listed
    seats fill themselves, group audiences are looked up in the log's group table, which
    the game keeps current with ``set_group``. A group the log was never told about
    resolves to no seat, so a forgotten registration hides an event instead of leaking it.
    The index makes a seat's visible events a merge of two lists, not a scan of the log.
    """

    def __init__(self, groups: Mapping[str, Iterable[str]] | None = None) -> None:
        self._events: list[Event] = []
        self._public: list[Event] = []
        self._by_seat: dict[str, list[Event]] = {}
        self._groups: dict[str, tuple[str, ...]] = {
            name: tuple(seats) for name, seats in (groups or {}).items()
        }

    def set_group(self, group: str, seats: Iterable[str]) -> None:
        """Who is in ``group`` from now on (events already emitted keep their seats)."""
        self._groups[group] = tuple(seats)

    def emit(
        self,
        kind: str,
        phase: str,
        text: str,
        audience: Audience,
        *,
        speaker: str = "",
        data: dict[str, Any] | None = None,
    ) -> Event:
        """Append the next event (its ``seq`` is its index) with its audience resolved."""
        to = self._groups.get(audience.group, ()) if audience.kind == "group" else audience.seats
        event = Event(
            seq=len(self._events),
            kind=kind,
            phase=phase,
            audience=audience,
            text=text,
            speaker=speaker,
            data=data or {},
            to=to,
        )
        self._events.append(event)
        if audience.kind == "all":
            self._public.append(event)
        for seat in dict.fromkeys(to):
            self._by_seat.setdefault(seat, []).append(event)
        return event

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def since(self, seq: int) -> list[Event]:
        return self._events[seq:]

    def __len__(self) -> int:
        return len(self._events)

    def visible(self, seat: str) -> list[Event]:
        """The events ``seat`` may see, in order: public ones and those resolved to it."""
        own = self._by_seat.get(seat)
        if not own:
            return list(self._public)
        # Both lists are in seq order; sorting two sorted runs is a linear merge in C.
        return sorted(self._public + own, key=_seq)

    def public(self) -> list[Event]:
        return list(self._public)

    def for_spectator(self, reveal: bool) -> tuple[Event, ...]:
        """Everything with ``reveal``, otherwise the public events only."""
        return tuple(self._events) if reveal else tuple(self._public)

    def copy(self) -> EventLog:
        """An independent log sharing the (frozen) events: cheap enough for probes."""
        clone = EventLog.__new__(EventLog)
        clone._events = list(self._events)
        clone._public = list(self._public)
        clone._by_seat = {seat: list(events) for seat, events in self._by_seat.items()}
        clone._groups = dict(self._groups)
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> EventLog:
        return self.copy()


def _seq(event: Event) -> int:
    return event.seq
