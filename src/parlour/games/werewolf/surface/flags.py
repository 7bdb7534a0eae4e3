"""Werewolf's ``watch``/``play`` flags: ``--theme`` (a cast a model writes for a setting),
``--cast`` (a cast YAML file) and ``--speech`` (speech acts or free text)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from parlour.core.errors import ParlourError
from parlour.core.surface_hooks import FlagContext, FlagEffect
from parlour.games.werewolf.surface.cli import cast_options


def apply_flags(values: Mapping[str, str], context: FlagContext) -> FlagEffect:
    """The config options the given flags set; a cast is previewed on the terminal."""
    options: dict[str, object] = {}
    theme, cast = values.get("theme"), values.get("cast")
    if theme is not None or cast is not None:
        made = cast_options(
            theme,
            Path(cast) if cast is not None else None,
            context.players,
            context.model,
            seed=context.seed,
            store=context.store,
            base_url=context.base_url,
        )
        options["cast"] = made["cast"]
    speech = values.get("speech")
    if speech is not None:
        if speech not in ("acts", "free"):
            raise ParlourError(f"unknown --speech '{speech}'; use acts or free")
        options["speech"] = speech
    return FlagEffect(options=options)
