"""What a game declares so the surfaces (CLI, web) offer its own options without knowing it.

A game lists its content kinds (a scenario, a campaign: chosen by a shipped name or a
file) and its other ``watch``/``play`` flags; the CLI turns each into a command-line
option and the lobby into a field, and hands the values back to the game, which says
what they mean as config options, seat overrides and observers. Nothing here imports
the engine: a flag that needs it (a cast written by a model) is applied in the game's
``surface/`` package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The commands that take a game's own flags.
PLAY_COMMANDS = frozenset({"watch", "play"})


@dataclass(frozen=True)
class ContentKind:
    """Content a game loads by a shipped name or a file path, set as one config option.

    ``--FLAG VALUE`` on ``watch``/``play`` becomes ``--set KEY=VALUE``; the game's
    ``make_config`` loads and validates it (a one-line ``ParlourError`` when it cannot).
    """

    #: the command-line flag without dashes, e.g. ``scenario`` for ``--scenario``
    flag: str
    #: the config key the value sets
    key: str
    #: one line of ``--help``
    help: str
    #: the names of the shipped content, for the lobby's choice and for help
    shipped: Callable[[], list[str]]
    #: the lobby's label for a choice among ``shipped`` (None: not offered in the lobby)
    lobby_label: str | None = None


@dataclass(frozen=True)
class PlayFlag:
    """A ``watch``/``play`` option of one game that is not content (``--theme``)."""

    #: the command-line flag without dashes
    flag: str
    #: one line of ``--help``
    help: str
    #: the placeholder shown after the flag in ``--help``
    metavar: str = "TEXT"
    #: which commands take it
    commands: frozenset[str] = PLAY_COMMANDS
    #: the game needs the seed before the game is planned (a generated cast draws from it)
    needs_seed: bool = False


@dataclass(frozen=True)
class FlagContext:
    """What a game may use to apply its flags: the command's other choices."""

    players: int | None
    model: str
    seed: int
    base_url: str | None
    #: the surface's store (``parlour.runtime.store.Store``), for flags that call a model
    store: Any


@dataclass(frozen=True)
class FlagEffect:
    """What a game's flags mean: config options, seat overrides and runner observers."""

    options: Mapping[str, object] = field(default_factory=dict)
    #: ``SEAT=SPEC`` overrides, as ``--seat`` takes them
    seats: tuple[str, ...] = ()
    #: runtime observers (``on_events``/``on_finish``) to add to the game's runner
    observers: tuple[object, ...] = ()


#: ``apply_flags(values, context)``: flag (without dashes) → value, for the flags given.
ApplyFlags = Callable[[Mapping[str, str], FlagContext], FlagEffect]
