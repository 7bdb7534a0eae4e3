"""What each installed game adds to the ``parlour`` command, found through its GameModule:
its sub-commands (``parlour NAME ...``), its content flags (``--scenario``) and its other
``watch``/``play`` flags (``--theme``). The CLI names no game: a game from another
package gets the same treatment as the built-in five."""

from __future__ import annotations

import functools
import inspect
import json
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from parlour.core.errors import ParlourError
from parlour.core.module import GameModule
from parlour.core.surface_hooks import FlagContext, FlagEffect
from parlour.games import registry

#: the prefix of a game flag's click parameter name (kept apart from the command's own)
_PARAM = "game_flag__"


def needed(argv: Sequence[str], own: Mapping[str, frozenset[str]]) -> list[tuple[str, GameModule]]:
    """The games a command line needs loaded. Importing a game costs its rules' imports
    (a tenth to a third of a second each, paid by every ``parlour`` process), and most
    commands need none.

    ``parlour`` alone or ``--help``: every game (help lists their sub-commands and
    flags); ``parlour NAME ...``: that game (its sub-commands); ``watch``/``play``
    (``own``: the options each command has of its own): the games the line names, or
    every game when the line has an option the command does not own (a game flag,
    perhaps another game's, whose refusal names its owner); anything else: none.
    """
    names = set(registry.game_names())
    words = [a for a in argv if not a.startswith("-")]
    if not words or any(a in ("--help", "-h") for a in argv):
        return registry.installed()
    command = words[0]
    if command in names:
        return registry.installed([command])
    if command not in own:
        return []
    options = {a.split("=", 1)[0] for a in argv if a.startswith("-")}
    if options - own[command]:
        return registry.installed()
    return registry.installed([w for w in words[1:] if w in names])


def option_names(func: Callable[..., object]) -> frozenset[str]:
    """Every option string a typer command function takes (``--seed``, ``-n``,
    ``--reveal``, ``--no-reveal``, ``--help``), read by typer itself."""
    probe = typer.Typer()
    probe.command()(func)
    command = typer.main.get_command(probe)
    return frozenset(
        o for p in command.params for o in (*p.opts, *p.secondary_opts) if o[:1] == "-"
    )


def mount_commands(app: typer.Typer, games: Iterable[tuple[str, GameModule]]) -> None:
    """``parlour NAME ...`` for every game that has its own sub-commands."""
    for name, module in games:
        if module.commands is not None:
            app.add_typer(module.commands(), name=name)


@dataclass(frozen=True)
class _Flag:
    flag: str
    help: str
    metavar: str


def _declared(module: GameModule, command: str) -> list[_Flag]:
    content = [_Flag(k.flag, k.help, "TEXT") for k in module.content]
    own = [_Flag(f.flag, f.help, f.metavar) for f in module.flags if command in f.commands]
    return content + own


def with_flags(
    func: Callable[..., None], command: str, games: Iterable[tuple[str, GameModule]]
) -> Callable[..., None]:
    """``func`` (the ``watch`` or ``play`` command) taking, besides its own options, the
    flags the installed games declare for ``command``; the given ones reach it through
    ``given()``. Typer reads the options from the signature, so they show in ``--help``."""
    seen: dict[str, _Flag] = {}
    for _, module in games:
        for flag in _declared(module, command):
            seen.setdefault(flag.flag, flag)
    names = {_PARAM + flag.replace("-", "_"): flag for flag in seen}
    extra = [
        inspect.Parameter(
            param,
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[
                str | None,
                typer.Option(f"--{flag}", help=seen[flag].help, metavar=seen[flag].metavar),
            ],
        )
        for param, flag in names.items()
    ]
    own = inspect.signature(func, eval_str=True)

    @functools.wraps(func)
    def command_with_flags(*args: Any, **kwargs: Any) -> None:
        values = {names[k]: kwargs.pop(k) for k in list(kwargs) if k in names}
        token = _GIVEN.set({flag: str(v) for flag, v in values.items() if v is not None})
        try:
            func(*args, **kwargs)
        finally:
            _GIVEN.reset(token)

    command_with_flags.__signature__ = own.replace(  # type: ignore[attr-defined]
        parameters=[*own.parameters.values(), *extra]
    )
    return command_with_flags


#: the game flags given to the command running now (set by ``with_flags``)
_GIVEN: ContextVar[Mapping[str, str] | None] = ContextVar("parlour_game_flags", default=None)


def given() -> dict[str, str]:
    """The game flags given to the running command: flag (no dashes) → value."""
    return dict(_GIVEN.get() or {})


@dataclass(frozen=True)
class Applied:
    """What the given game flags add to a ``watch``/``play``."""

    seed: int | None
    #: ``KEY=VALUE`` items, as ``--set`` takes them
    sets: tuple[str, ...] = ()
    #: ``SEAT=SPEC`` items, as ``--seat`` takes them
    seats: tuple[str, ...] = ()
    observers: tuple[object, ...] = ()


def apply(
    game: str,
    command: str,
    values: Mapping[str, str],
    *,
    players: int | None,
    model: str,
    seed: int | None,
    store: Any,
    base_url: str | None,
) -> Applied:
    """Check that ``game`` takes every flag given and let it say what they mean."""
    if not values:
        return Applied(seed)
    module = registry.load(game)
    content = {k.flag: k for k in module.content}
    own = {f.flag: f for f in module.flags if command in f.commands}
    for flag in values:
        if flag not in content and flag not in own:
            raise ParlourError(_not_for(flag, game, command))
    sets = [f"{content[f].key}={json.dumps(v)}" for f, v in values.items() if f in content]
    mine = {f: v for f, v in values.items() if f in own}
    if seed is None and any(own[f].needs_seed for f in mine):
        seed = secrets.randbelow(1_000_000)  # e.g. a generated cast draws from it now
    effect = FlagEffect()
    if mine:
        if module.apply_flags is None:
            raise ParlourError(f"game '{game}' declares --{next(iter(mine))} but no apply_flags")
        context = FlagContext(players, model, seed or 0, base_url, store)
        effect = module.apply_flags(mine, context)
    sets += [f"{key}={json.dumps(value)}" for key, value in effect.options.items()]
    return Applied(seed, tuple(sets), effect.seats, effect.observers)


def _not_for(flag: str, game: str, command: str) -> str:
    owners = [name for name, module in registry.installed() if flag in _names(module, command)]
    if not owners:
        return f"--{flag} is not an option of {game}"
    which = " or ".join(owners)
    article = "an" if which[0] in "aeiou" else "a"
    return f"--{flag} is {article} {which} option"


def _names(module: GameModule, command: str) -> set[str]:
    return {f.flag for f in _declared(module, command)}
