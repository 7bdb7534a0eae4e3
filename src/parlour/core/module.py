"""What a game package exports so the runtime and CLI can use it without knowing its rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from parlour.core.evaluation import EvalTools
from parlour.core.game import Game
from parlour.core.metrics import GameMetrics
from parlour.core.policy import Policy
from parlour.core.prompting import Prompter
from parlour.core.surface_hooks import ApplyFlags, ContentKind, PlayFlag


@dataclass(frozen=True)
class GameModule:
    game: type[Game]
    #: The scripted policy for any seat of this game (reads the seat's role from its view).
    policy: Policy
    #: Builds the layered prompt parts for LLM seats.
    prompter: Prompter
    #: ``make_config(players, overrides)`` → a validated config for ``game.new``.
    make_config: Callable[[int | None, dict[str, object]], BaseModel]
    #: Further named scripted policies, usable as seat specs (e.g. ``dumbbot``, ``hold``).
    policies: Mapping[str, Policy] = field(default_factory=dict)
    #: Answers when a seat fails (crash, retry budget spent). Default: ``policy``.
    fallback: Policy | None = None
    #: System seats played by a script unless a seat override says otherwise (e.g. a
    #: werewolf router: deterministic first, ``--seat router=MODEL`` for an LLM router).
    scripted_system_seats: frozenset[str] = frozenset()
    #: Config options to add when a human plays this seat (e.g. werewolf's open mic).
    human_options: Callable[[str], dict[str, object]] | None = None
    #: Config options for a person who asks for a seat by name (``--as Ines``) before the
    #: name is resolved, e.g. missing deals the named character when the seed did not;
    #: ``as_options(key, config)``, raising ParlourError when the key names nothing playable.
    as_options: Callable[[str, BaseModel], dict[str, object]] | None = None
    #: Config options to add for the player seats a small model plays (``Capabilities.small``),
    #: e.g. werewolf's speech acts; an option the user set is never overridden.
    small_model_options: Callable[[tuple[str, ...]], dict[str, object]] | None = None
    #: The same for the player seats a model plays that is not small (e.g. werewolf's
    #: written day plans).
    capable_model_options: Callable[[tuple[str, ...]], dict[str, object]] | None = None
    #: The same for the system seats a small model plays (e.g. campaign's directors in
    #: acts); a list it returns under a key ``small_model_options`` also set is joined.
    small_system_options: Callable[[tuple[str, ...]], dict[str, object]] | None = None
    #: Config options when a seat plays the game's bot protocol (``bot(k=v):SPEC``):
    #: ``bot_options(seat, options)``; None: the game has no bot protocol.
    bot_options: Callable[[str, dict[str, str]], dict[str, object]] | None = None
    #: Config options when a seat becomes a bot mid-game (``resume --seat X=bot:SPEC``):
    #: ``bot_takeover(game, seat, options)``; the stored actions must replay under them.
    bot_takeover: Callable[[Game, str, dict[str, str]], dict[str, object]] | None = None
    #: Config options when a person takes a seat back (``resume --seat X=human``), e.g. from
    #: the bot that took over a seat that missed its deadlines: ``seat_returned(game, seat)``.
    seat_returned: Callable[[Game, str], dict[str, object]] | None = None
    #: Decision purposes that spend a seat's chat budget (the rest: the orders pool).
    chat_purposes: frozenset[str] = frozenset()
    # -- what the game hands tournaments and evaluations --
    #: The facts and ratios a tournament reports for this game (``core.metrics``);
    #: None: the generic facts (ratings and win rates from the game's returns).
    metrics: GameMetrics | None = None
    #: The game's evaluation harness, run as ``parlour eval NAME``: ``evaluation(tools)``
    #: returns its command-line app (a ``typer.Typer`` with one command), built from the
    #: game's ``surface/`` with the surface's ``EvalTools``; None: the game has no evaluation.
    evaluation: Callable[[EvalTools], object] | None = None

    # -- what the surfaces (CLI, web) show of the game ---------------------------------
    #: Content chosen by name or file (escape's ``--scenario``): a ``watch``/``play``
    #: flag each, and a choice of the shipped names in the lobby.
    content: tuple[ContentKind, ...] = ()
    #: The game's other ``watch``/``play`` flags (werewolf's ``--theme``); ``apply_flags``
    #: says what the given ones mean.
    flags: tuple[PlayFlag, ...] = ()
    #: ``apply_flags(values, context)`` → config options, seat overrides and observers
    #: for the ``flags`` given (flag name without dashes → value); ``ParlourError`` when
    #: a value is bad. Needed when ``flags`` is not empty.
    apply_flags: ApplyFlags | None = None
    #: The game's own sub-commands, mounted as ``parlour NAME ...``: returns a
    #: ``typer.Typer`` (imported lazily, so the rules never import the engine).
    commands: Callable[[], Any] | None = None
    #: How a finished or running game is drawn, per phase: event seq of each phase's end
    #: → an inline SVG of the board then, key -1 the final board once the game is over;
    #: empty for a game with nothing to draw. Pure (no engine, no files).
    pictures: Callable[[Game], Mapping[int, str]] | None = None
    #: The board as it stands now, as inline SVG ("" when there is none); public to
    #: every seat, so a person's room may show it.
    picture_now: Callable[[Game], str] | None = None

    @property
    def fallback_policy(self) -> Policy:
        return self.fallback or self.policy

    def named_policy(self, name: str) -> Policy | None:
        if name == "scripted":
            return self.policy
        return self.policies.get(name)
