"""Building a game's config from the surfaces' ``--players`` and ``--set`` options, with the
errors worded the same way in every game.

``validated_config`` is for configs made of plain settings: pydantic's first problem becomes
one ``ParlourError`` line. ``content_config`` is for a solo game whose config embeds a loaded
content file (an escape scenario, a campaign): it reads the file named by one option,
rejects options the config does not have, and validates the rest around the content.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from parlour.core.errors import ParlourError

ConfigT = TypeVar("ConfigT", bound=BaseModel)


def validated_config(model: type[ConfigT], data: Mapping[str, Any], game: str) -> ConfigT:
    """``model`` validated from ``data``; its first problem as ``<game> config: where: what``."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = "unknown setting; known: " + ", ".join(model.model_fields)
        prefix = f"{where}: " if where else ""
        raise ParlourError(f"{game} config: {prefix}{message}") from None


def content_config(
    model: type[ConfigT],
    players: int | None,
    overrides: Mapping[str, object],
    *,
    game: str,
    key: str,
    default: str,
    content: type[BaseModel],
    load: Callable[[str], BaseModel],
) -> ConfigT:
    """A one-player game's config: option ``key`` names the content (a shipped name or a
    path, read with ``load``; default ``default``) or is already ``content``; every other
    option must be a field of ``model``."""
    if players not in (None, 1):
        raise ParlourError(f"{game} is played by one player, not {players}; drop --players")
    options = dict(overrides)
    source = options.pop(key, default)
    if isinstance(source, content):
        loaded = source
    elif isinstance(source, str):
        loaded = load(source)
    else:
        raise ParlourError(f"--set {key}= takes a shipped {key} name or a path to a .yaml")
    unknown = sorted(set(options) - set(model.model_fields))
    if unknown:
        allowed = ", ".join(sorted(model.model_fields))
        raise ParlourError(f"unknown {game} option(s) {', '.join(unknown)}; options: {allowed}")
    try:
        return model.model_validate({**options, key: loaded})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ParlourError(f"bad {game} option {where}: {first['msg']}") from err
