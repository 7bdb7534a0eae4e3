"""The cast: a scene and, per player, a name, gender, short story and playstyle.

A cast is plain validated data that goes into the game's config, so a themed game replays
exactly. It can be generated for a theme by any seat (field by field: see ``casting``),
previewed and edited as YAML, and loaded with ``--cast``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from parlour.core.errors import ParlourError
from parlour.core.rng import Rng
from parlour.core.safe_yaml import YamlError, load_file
from parlour.games.werewolf.cast_checks import scene_problem, story_problem
from parlour.games.werewolf.names import DEFAULT_NAMES, MAX_NAME_LENGTH, name_problem
from parlour.games.werewolf.playstyles import Playstyle

Gender = Literal["female", "male", "nonbinary"]
MAX_STORY = 240
MAX_SCENE = 700


class Character(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    gender: Gender
    story: str = Field(min_length=1, max_length=MAX_STORY)
    playstyle: Playstyle


class Cast(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    theme: str = ""
    scene: str = Field(min_length=1, max_length=MAX_SCENE)
    players: tuple[Character, ...]

    @model_validator(mode="after")
    def _names(self) -> Cast:
        problem = name_problem(tuple(c.name for c in self.players))
        if problem:
            raise ValueError(problem)
        return self

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.players)


_STOCK_STORIES = (
    "grew up here and knows every rumour worth knowing",
    "arrived last winter and still keeps to themselves",
    "runs the busiest stall and hears everything",
    "lost a friend to the wolves and wants answers",
    "is the one everybody asks for advice",
    "keeps careful notes on everything people say",
    "laughs loudly and forgives slowly",
    "is new to the group and eager to prove themselves",
)
#: What a composed bio says after the character's place ("… the cargo pilot, who …"):
#: present tense, no pronoun, so it fits any character and any setting.
TRAITS = (
    "knows every rumour worth knowing",
    "keeps to themselves since arriving",
    "hears everything and repeats half of it",
    "wants answers and will not wait for them",
    "is the one everybody asks for advice",
    "keeps careful notes on everything people say",
    "laughs loudly and forgives slowly",
    "is eager to prove themselves",
    "trusts nobody before breakfast",
    "remembers every promise anyone made",
)
_GENDERS: tuple[Gender, ...] = ("male", "female", "male", "female", "male", "female", "nonbinary")


def default_cast(players: int, seed: int, theme: str = "") -> Cast:
    """A deterministic cast from built-in content (also the fallback when generation fails)."""
    rng = Rng(seed)
    styles = rng.shuffled(list(Playstyle))
    stories = rng.shuffled(list(_STOCK_STORIES))
    setting = theme or "a quiet village"
    return Cast(
        theme=theme,
        scene=f"The players gather in {setting}. Every night someone disappears, and by day "
        "everyone wonders who among them is a werewolf.",
        players=tuple(
            Character(
                name=DEFAULT_NAMES[i],
                gender=_GENDERS[i % len(_GENDERS)],
                story=f"{DEFAULT_NAMES[i]} {stories[i % len(stories)]}.",
                playstyle=styles[i % len(styles)],
            )
            for i in range(players)
        ),
    )


def with_names(cast: Cast, names: tuple[str, ...]) -> Cast:
    """The same characters under other names (when a config gives names but no cast)."""
    players = tuple(
        c.model_copy(update={"name": n, "story": c.story.replace(c.name, n)})
        for c, n in zip(cast.players, names, strict=True)
    )
    return cast.model_copy(update={"players": players})


def save_cast(cast: Cast, path: Path) -> None:
    data = cast.model_dump(mode="json")
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def load_cast(path: Path) -> Cast:
    """A cast file through the safe loader; every error is one line with file:line."""
    try:
        lined = load_file(path)
    except YamlError as err:
        raise ParlourError(f"cast file {err}") from err
    if not isinstance(lined.data, dict):
        raise ParlourError(f"{path}:1: expected a mapping with scene and players")
    try:
        cast = Cast.model_validate(lined.data)
    except ValidationError as err:
        first = err.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(p) for p in loc) or "cast"
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ParlourError(f"{path}:{lined.line_of(loc)}: {where}: {message}") from err
    # A cast is checked before use: a hand-edited bio must still make sense to players.
    problem = scene_problem(cast.scene)
    if problem:
        raise ParlourError(f"{path}:{lined.line_of(('scene',))}: scene: {problem}; rewrite it")
    for i, c in enumerate(cast.players):
        problem = story_problem(c.name, c.gender, c.story)
        if problem:
            line = lined.line_of(("players", i, "story"))
            raise ParlourError(f"{path}:{line}: {c.name}'s story: {problem}; rewrite it")
    return cast
