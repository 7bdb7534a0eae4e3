"""A seat's view: the only thing any seat (human, script or model) is ever given."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.events import Event


class View(BaseModel):
    """Private facts of one seat, the public state, and the events whose audience includes it.

    Built by ``Game.view(seat)`` and nothing else; prompts and renderers read only this.
    """

    model_config = ConfigDict(frozen=True)

    game: str
    seat: str
    seat_name: str
    phase: str
    public: dict[str, Any] = Field(default_factory=dict)
    private: dict[str, Any] = Field(default_factory=dict)
    events: tuple[Event, ...] = ()
