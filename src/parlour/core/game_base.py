"""The parts of the Game protocol that every game answers the same way, in one place.

A game keeps its config and seed and serves them as properties, and the config class it
names as its ``ConfigT`` is its ``config_model``; a game whose whole state lives in one
object (``_st``) with an event log serves ``events`` and ``state`` from it, and, when that
state also keeps the open decisions, the outcome and the planted markers, ``pending``,
``result`` and ``secret_markers`` too. Games inherit what fits and write only
what is their own (seats, apply, views, ``is_terminal``). ``config_for`` and
``require_config`` are the two ways a game's ``new`` takes the config it is handed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, Protocol, TypeVar, get_args, get_origin

from pydantic import BaseModel

from parlour.core.decisions import Decision
from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event, EventLog
from parlour.core.game import Result
from parlour.core.markers import SecretMarkers
from parlour.core.pending import PendingDecisions

ConfigT = TypeVar("ConfigT", bound=BaseModel)


def config_for(config: BaseModel, model: type[ConfigT]) -> ConfigT:
    """``config`` as the game's own config model (validated again when it is another one)."""
    return config if isinstance(config, model) else model.model_validate(config.model_dump())


def require_config(config: BaseModel, model: type[ConfigT], game: str) -> ConfigT:
    """``config`` when it is the game's own model; a game whose config holds loaded content
    (a scenario, a campaign) cannot rebuild it from a dump, so anything else is an error."""
    if not isinstance(config, model):
        name = model.__name__
        raise ParlourError(f"{game} needs a{_an(name)} {name} (use make_config)")
    return config


def _an(noun: str) -> str:
    return "n" if noun[:1].upper() in "AEIOU" else ""


class SeededGame(Generic[ConfigT]):
    """The protocol's ``config`` and ``seed``: what a game was created with; and its
    ``config_model``, the config class the game names as its ``ConfigT``
    (``class EscapeGame(SeededGame[EscapeConfig])``), so a game states it once."""

    config_model: ClassVar[type[BaseModel]]
    _config: ConfigT
    _seed: int

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        model = _named_config(cls)
        if model is not None and "config_model" not in cls.__dict__:
            cls.config_model = model

    @property
    def config(self) -> ConfigT:
        return self._config

    @property
    def seed(self) -> int:
        return self._seed


def _named_config(cls: type) -> type[BaseModel] | None:
    """The config class ``cls``'s own bases fill ``ConfigT`` with; None while it is left
    open (``StateGame``) or ``cls`` names no bases of its own."""
    for base in cls.__dict__.get("__orig_bases__", ()):
        params = getattr(get_origin(base), "__parameters__", ())
        for param, arg in zip(params, get_args(base), strict=False):
            if param is ConfigT and isinstance(arg, type) and issubclass(arg, BaseModel):
                return arg
    return None


class LoggedState(Protocol):
    """A game state that keeps the game's event log."""

    log: EventLog


class TrackedState(LoggedState, Protocol):
    """A game state that also keeps the open decisions, the outcome and the planted markers."""

    pending: PendingDecisions
    outcome: Result | None
    markers: SecretMarkers


LoggedT = TypeVar("LoggedT", bound=LoggedState)
TrackedT = TypeVar("TrackedT", bound=TrackedState)


class StateGame(SeededGame[ConfigT], Generic[ConfigT, LoggedT]):
    """A game whose state is one object ``_st`` that keeps the event log."""

    _st: LoggedT

    @property
    def events(self) -> tuple[Event, ...]:
        return self._st.log.events

    @property
    def state(self) -> LoggedT:
        """The full state, for tests and tooling (never for a seat)."""
        return self._st


class TrackedStateGame(StateGame[ConfigT, TrackedT], ABC):
    """A ``StateGame`` whose state also keeps pending decisions, outcome and markers."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over (each game says from its own state)."""

    def pending(self) -> tuple[Decision, ...]:
        return self._st.pending.all()

    def result(self) -> Result | None:
        return self._st.outcome if self.is_terminal() else None

    def secret_markers(self) -> dict[str, frozenset[str]]:
        return self._st.markers.entitled()


class PhasedLog(ABC):
    """``emit`` for a dataclass state whose events are tagged with its current phase name
    unless told another; the state names its phase in ``current_phase`` and may add what
    every event of it carries in ``event_data``."""

    log: EventLog

    @abstractmethod
    def current_phase(self) -> str:
        """The phase name an event is tagged with unless ``emit`` is told another."""

    def event_data(self, data: dict[str, Any] | None) -> dict[str, Any] | None:
        return data

    def emit(
        self,
        kind: str,
        text: str,
        audience: Audience,
        *,
        speaker: str = "",
        data: dict[str, Any] | None = None,
        phase: str | None = None,
    ) -> Event:
        tag = phase or self.current_phase()
        return self.log.emit(kind, tag, text, audience, speaker=speaker, data=self.event_data(data))
