"""A seat's view: the only thing any seat (human, script or model) is ever given.

``View`` is generic over a game's own models of public and private facts, so prompts,
policies and renderers read typed attributes that ``mypy --strict`` checks, never string
keys. Code that serves every game (seats, runtime, conformance) takes ``AnyView``.
"""

from __future__ import annotations

import copy
from typing import Any, Generic, Self, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict

from parlour.core.events import Event


class Facts(BaseModel):
    """Base of a game's public or private facts: frozen, typed, JSON-serialisable."""

    model_config = ConfigDict(frozen=True)


FactsT = TypeVar("FactsT", bound="Facts")

#: Values a copy of facts shares as they are (immutable).
_SHARED = (str, int, float, bool, type(None))


def copy_facts(facts: FactsT) -> FactsT:
    """A deep copy of ``facts`` (what ``model_copy(deep=True)`` gives: no list or dict
    shared, the same fields set), made without ``copy.deepcopy``'s bookkeeping: facts hold
    JSON-like values, so their lists, dicts, tuples and nested facts are rebuilt and their
    strings and numbers shared. A value of any other type is deep-copied as before. Views
    that hand out records of the state (e.g. werewolf's finished days) call it per view."""
    if facts.__pydantic_extra__ or facts.__pydantic_private__:
        return facts.model_copy(deep=True)
    cls = type(facts)
    clone = cls.__new__(cls)
    values = {name: _copy_value(value) for name, value in facts.__dict__.items()}
    object.__setattr__(clone, "__dict__", values)
    object.__setattr__(clone, "__pydantic_fields_set__", set(facts.__pydantic_fields_set__))
    object.__setattr__(clone, "__pydantic_extra__", None)
    object.__setattr__(clone, "__pydantic_private__", None)
    return clone


def _copy_value(value: Any) -> Any:
    if isinstance(value, _SHARED):
        return value
    kind = type(value)
    if kind is list:
        return [_copy_value(v) for v in value]
    if kind is dict:
        return {k: _copy_value(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_copy_value(v) for v in value)
    if isinstance(value, Facts):
        return copy_facts(value)
    return copy.deepcopy(value)


class NoFacts(Facts):
    """Nothing: the private facts of a seat that has none (a spectator, a system seat)."""


#: The seat id of a game's spectator view.
SPECTATOR = "spectator"

PublicT = TypeVar("PublicT", bound=Facts)
PrivateT = TypeVar("PrivateT", bound=Facts)


class View(BaseModel, Generic[PublicT, PrivateT]):
    """Private facts of one seat, the public state, and the events whose audience includes it.

    Built by ``Game.view(seat)`` and nothing else; prompts and renderers read only this.
    A game names its own view type once, e.g.
    ``WerewolfView = View[WerewolfPublic, WerewolfPrivate]``.
    """

    model_config = ConfigDict(frozen=True)

    game: str
    seat: str
    seat_name: str
    phase: str
    public: PublicT
    private: PrivateT
    events: tuple[Event, ...] = ()

    @classmethod
    def spectator(
        cls, game: str, phase: str, public: PublicT, private: PrivateT, events: tuple[Event, ...]
    ) -> Self:
        """The view of the seat every game names ``spectator`` (``Game.spectator_view``):
        ``private`` is what it is shown of the seats' secrets, ``events`` what it may see."""
        return cls(
            game=game,
            seat=SPECTATOR,
            seat_name="Spectator",
            phase=phase,
            public=public,
            private=private,
            events=events,
        )


#: Any game's view, for code that serves every game.
AnyView: TypeAlias = View[Any, Any]


def facts_dict(facts: Any) -> dict[str, Any]:
    """A view's facts as plain JSON values by field name, for code that serves every game
    and reads the few fields games share by name (a mapping is taken as it is)."""
    if isinstance(facts, BaseModel):
        dumped: dict[str, Any] = facts.model_dump(mode="json")
        return dumped
    return dict(facts) if isinstance(facts, dict) else {}
