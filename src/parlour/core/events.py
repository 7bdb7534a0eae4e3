"""Events: everything that happens, each with the audience allowed to see it."""

from __future__ import annotations

from collections.abc import Collection
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

    def visible_to(self, seat: str, groups: Collection[str]) -> bool:
        return self.audience.includes(seat, groups)


def append_event(
    events: list[Event],
    kind: str,
    phase: str,
    text: str,
    audience: Audience,
    *,
    speaker: str = "",
    data: dict[str, Any] | None = None,
) -> Event:
    """Append the next event (its ``seq`` is its index) to a game's plain event list."""
    event = Event(
        seq=len(events),
        kind=kind,
        phase=phase,
        audience=audience,
        text=text,
        speaker=speaker,
        data=data or {},
    )
    events.append(event)
    return event


class EventLog:
    """Append-only list of events with a running sequence number."""

    def __init__(self) -> None:
        self._events: list[Event] = []

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
        return append_event(self._events, kind, phase, text, audience, speaker=speaker, data=data)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def since(self, seq: int) -> list[Event]:
        return self._events[seq:]

    def __len__(self) -> int:
        return len(self._events)

    def visible(self, seat: str, groups: Collection[str]) -> list[Event]:
        return [e for e in self._events if e.audience.includes(seat, groups)]
