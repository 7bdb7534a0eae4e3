"""The Game protocol every game implements, in the spirit of OpenSpiel and PettingZoo.

A game is a deterministic state machine: ``new(config, seed)`` then ``apply`` of
actions, in order, always gives the same state and the same event log. No model call
happens inside a game.

Optional: a game with its own simulated time implements ``clock() -> float`` (not part
of the protocol, so other games need not). Decisions may then carry
``Deadline(seconds=T, clock="game")``: ``T`` is a time on that clock, absolute (write
``self.clock() + 30`` when opening the decision), and after every applied action the
runner applies the ``default`` of each open decision once ``clock() >= T``. Because the
clock is a function of the applied actions, resume and replay see the same deadlines.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.view import AnyView


class GameInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    title: str
    description: str
    min_seats: int
    max_seats: int
    simultaneous: bool
    imperfect_information: bool


class SeatInfo(BaseModel):
    """A seat at the table. ``system`` seats (router, narrator, classifier) serve the game."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    system: bool = False
    #: A hint for seating: a model too small for hard jobs (``Capabilities.small``) should
    #: not play this seat by default; the game's script does unless a seat override says so.
    needs_capable_model: bool = False


class Result(BaseModel):
    model_config = ConfigDict(frozen=True)

    winners: tuple[str, ...]
    summary: str
    returns: dict[str, float] = Field(default_factory=dict)


@runtime_checkable
class Game(Protocol):
    info: ClassVar[GameInfo]
    config_model: ClassVar[type[BaseModel]]

    @classmethod
    def new(cls, config: BaseModel, seed: int) -> Game: ...

    @property
    def config(self) -> BaseModel: ...

    @property
    def seed(self) -> int: ...

    def seats(self) -> tuple[SeatInfo, ...]:
        """Every seat, player and system seats alike, in a stable order."""
        ...

    def pending(self) -> tuple[Decision, ...]:
        """Open decisions. Several at once are independent and may be answered concurrently."""
        ...

    def apply(self, decision_id: str, action: Action) -> list[Event]:
        """Apply an answer; raise ``IllegalAction`` naming why it is not legal.

        Returns the events the action produced.
        """
        ...

    def view(self, seat: str) -> AnyView: ...

    def spectator_view(self, reveal: bool) -> AnyView:
        """What an audience sees: public only, or everything when ``reveal``."""
        ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    def is_terminal(self) -> bool: ...

    def result(self) -> Result | None: ...

    def snapshot(self) -> dict[str, Any]:
        """Canonical JSON-compatible full state, used to check that replay is exact."""
        ...

    def secret_markers(self) -> dict[str, frozenset[str]]:
        """Marker strings planted in secrets (config ``plant_markers``) → seats entitled to them."""
        ...
