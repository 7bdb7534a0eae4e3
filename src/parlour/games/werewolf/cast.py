"""The cast: a scene and, per player, a name, gender, short story and playstyle.

A cast is plain validated data that goes into the game's config, so a themed game replays
exactly. It can be generated for a theme by any seat (a structured decision whose schema
is ``cast_schema``), previewed and edited as YAML, and loaded with ``--cast``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from parlour.core.actions import Action, Structured
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import ParlourError
from parlour.core.prompting import PromptParts
from parlour.core.rng import Rng
from parlour.core.safe_yaml import YamlError, load_file
from parlour.core.view import AnyView, Facts, NoFacts, View
from parlour.games.werewolf.names import DEFAULT_NAMES, MAX_NAME_LENGTH, name_problem
from parlour.games.werewolf.playstyles import STYLES, Playstyle

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


def cast_schema(players: int) -> dict[str, Any]:
    """The JSON schema a generated cast must satisfy (names are checked for uniqueness after)."""
    return {
        "type": "object",
        "properties": {
            "scene": {"type": "string", "minLength": 20, "maxLength": MAX_SCENE},
            "players": {
                "type": "array",
                "minItems": players,
                "maxItems": players,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {
                            "type": "string",
                            "minLength": 2,
                            "maxLength": 12,
                            "pattern": "^[A-Z][a-z]+$",
                        },
                        "gender": {"type": "string", "enum": ["female", "male", "nonbinary"]},
                        "story": {"type": "string", "minLength": 10, "maxLength": 160},
                        "playstyle": {"type": "string", "enum": [p.value for p in Playstyle]},
                    },
                    "required": ["name", "gender", "story", "playstyle"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["scene", "players"],
        "additionalProperties": False,
    }


def casting_decision(theme: str, players: int) -> Decision:
    styles = ", ".join(f"{p.value} ({s.title})" for p, s in STYLES.items())
    return Decision(
        id="cast",
        seat="casting",
        kind=DecisionKind.STRUCTURED,
        purpose="cast",
        prompt=(
            f"Create a cast of {players} players for a game of Werewolf set in: {theme}. "
            "Write a scene (2-4 sentences) and, for each player, a short unique first name "
            "(one word, different first letters where possible), a gender, a one-sentence "
            f"story that fits the setting, and a playstyle, one of: {styles}. Mix the "
            "playstyles."
        ),
        json_schema=cast_schema(players),
        context={"theme": theme, "players": players},
    )


class CastingFacts(Facts):
    theme: str
    #: why the previous cast was rejected (unique names), for a second attempt
    problem: str | None = None


CastingView = View[CastingFacts, NoFacts]


def casting_view(theme: str) -> CastingView:
    return CastingView(
        game="werewolf",
        seat="casting",
        seat_name="Casting director",
        phase="setup",
        public=CastingFacts(theme=theme),
        private=NoFacts(),
    )


class CastingPrompter:
    def parts(self, view: AnyView, decision: Decision) -> PromptParts:
        return PromptParts(
            system="You are the casting director of a Werewolf party game. You invent "
            "characters that fit a theme. Names are short single words.",
            command=decision.prompt,
        )


def cast_from_answer(theme: str, value: dict[str, Any]) -> Cast:
    """Validate a generated answer into a cast; raises ``ParlourError`` naming the problem."""
    try:
        return Cast.model_validate({"theme": theme, **value})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "cast"
        raise ParlourError(f"{where}: {str(first['msg']).removeprefix('Value error, ')}") from err


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


def casting_fallback(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """Fallback for the casting decision: the built-in cast, in the schema's shape."""
    cast = default_cast(
        int(decision.context["players"]), rng.randint(0, 2**31), str(decision.context["theme"])
    )
    value = cast.model_dump(mode="json", exclude={"theme"})
    return Structured(value=value)


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
        return Cast.model_validate(lined.data)
    except ValidationError as err:
        first = err.errors()[0]
        loc = tuple(first["loc"])
        where = ".".join(str(p) for p in loc) or "cast"
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ParlourError(f"{path}:{lined.line_of(loc)}: {where}: {message}") from err
