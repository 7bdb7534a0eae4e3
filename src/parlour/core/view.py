"""A seat's view: the only thing any seat (human, script or model) is ever given.

``View`` is generic over a game's own models of public and private facts, so prompts,
policies and renderers read typed attributes that ``mypy --strict`` checks, never string
keys. Code that serves every game (seats, runtime, conformance) takes ``AnyView``.
"""

from __future__ import annotations

from typing import Any, Generic, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict

from parlour.core.events import Event


class Facts(BaseModel):
    """Base of a game's public or private facts: frozen, typed, JSON-serialisable."""

    model_config = ConfigDict(frozen=True)


class NoFacts(Facts):
    """Nothing: the private facts of a seat that has none (a spectator, a system seat)."""


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


#: Any game's view, for code that serves every game.
AnyView: TypeAlias = View[Any, Any]


def facts_dict(facts: Any) -> dict[str, Any]:
    """A view's facts as plain JSON values by field name, for code that serves every game
    and reads the few fields games share by name (a mapping is taken as it is)."""
    if isinstance(facts, BaseModel):
        dumped: dict[str, Any] = facts.model_dump(mode="json")
        return dumped
    return dict(facts) if isinstance(facts, dict) else {}
