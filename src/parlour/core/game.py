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

import copy
import dataclasses
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.view import AnyView

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


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
    #: May this seat publish a secret it knows (a claim, a confession)? ``None``: the
    #: default, participants may and system seats (directors, narrators, routers,
    #: classifiers) may not. The audit counts a permitted disclosure and reports anything
    #: else that hands a secret to a seat not entitled to it as a leak.
    discloses: bool | None = None

    @property
    def may_disclose(self) -> bool:
        return (not self.system) if self.discloses is None else self.discloses


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


#: Values a fork shares as they are (``immutable``); a tuple, since ``isinstance`` with one
#: is fast and a ``|`` union would be built again on every call.
_ATOMIC = (str, int, float, bytes, Enum)
#: Exact types whose containers a fork copies in one step (checked in C: ``map(type, ...)``).
_COLLECTIONS = (tuple, frozenset)
_PLAIN = frozenset({str, int, float, bool, bytes, type(None)})


def immutable(value: object) -> bool:
    """True for a value a fork may share: None, numbers, strings, bytes, enums, frozen
    pydantic models (configs, content, decisions, events), frozen dataclasses, and
    frozensets and tuples of such values."""
    if value is None or isinstance(value, _ATOMIC):
        return True
    if isinstance(value, BaseModel):
        return bool(value.model_config.get("frozen"))
    if isinstance(value, _COLLECTIONS):
        return all(immutable(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # The dataclass machinery's own record of @dataclass(frozen=...); typeshed omits it.
        return bool(value.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    return False


class Forkable:
    """A base for a game (or its state) that ``copy.deepcopy`` forks: a rules trial's probe,
    a cached game a reader advances, the conformance suite's per-answer copies.

    The fork shares every immutable value (see ``immutable``: the config and its content
    are often large), copies lists and dicts element by element the same way (so a list
    of frozen records is copied, its records shared; keys and set members, being
    hashable, are shared), and deep-copies anything else with the standard protocol, so
    an attribute that is itself ``Forkable`` is forked the same way. A game then needs no
    hand-written ``__deepcopy__``; it keeps what play changes in plain containers of
    immutable values.
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        clone = copy.copy(self)
        memo[id(self)] = clone
        fields = vars(clone)
        for name, value in vars(self).items():
            fields[name] = fork_value(value, memo)
        return clone


def fork_value(value: Any, memo: dict[int, Any]) -> Any:
    """``value`` as a fork holds it: shared when immutable, else a copy (see ``Forkable``)."""
    kind = type(value)
    if kind is not list and kind is not dict and kind is not set:
        return value if immutable(value) else copy.deepcopy(value, memo)
    done = memo.get(id(value))
    if done is not None:
        return done
    if set(map(type, value.values() if kind is dict else value)) <= _PLAIN:
        plain = value.copy()  # the common case, kept cheap: ids, names, counts
        memo[id(value)] = plain
        return plain
    if kind is set:  # members are hashable, so shared as they are
        members = set(value)
        memo[id(value)] = members
        return members
    if kind is list:
        items: list[Any] = []
        memo[id(value)] = items  # before the items: a list may hold itself
        items.extend(fork_value(item, memo) for item in value)
        return items
    table: dict[Any, Any] = {}
    memo[id(value)] = table
    table.update((key, fork_value(item, memo)) for key, item in value.items())
    return table


DataclassT = TypeVar("DataclassT", bound="DataclassInstance")


def copy_containers(obj: DataclassT, **own: Any) -> DataclassT:
    """A copy of the dataclass ``obj`` whose state keeps immutable values in plain
    containers: each list, dict and set field is copied one level (its items shared), any
    other field is shared, and a field named in ``own`` takes that value instead (one
    whose items need copying too)."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        if f.name in own:
            continue
        value = getattr(obj, f.name)
        if isinstance(value, list):
            value = list(value)
        elif isinstance(value, dict):
            value = dict(value)
        elif isinstance(value, set):
            value = set(value)
        values[f.name] = value
    return dataclasses.replace(obj, **values, **own)
