"""Casting a themed game field by field, as small decisions a small model can answer.

One large JSON cast (a scene and seven characters) is too much for the embedded 135M
model: it rambles inside long strings until the call times out. So the cast is built in
steps, each a short grammar-constrained answer checked on its own:

1. ``cast:names`` — the players' first names (unique, one capitalised word each);
2. ``cast:genders`` — one gender per name, in order;
3. ``cast:scene`` — two sentences of plain prose;
4. ``cast:story:N`` — one sentence per character ("NAME is …").

Names and genders are JSON whose schema becomes the local model's grammar; the prose
steps are plain text with a character bound, cut to whole sentences and checked for
copied instructions: by the shared guards in the LLM seat (``PROSE_CHECKS``: the prompt
or its worked example copied, a loop), retried with the reason, and again here. A worked
example in the system prompt shows the shape.

Playstyles are dealt by the seed (a mixed table is a rule, not a matter of taste).
Whatever a seat cannot answer, the fallback policy answers from the built-in cast, and
the builder says which pieces those were.
"""

from __future__ import annotations

import re
from typing import Any, get_args

from parlour.core.actions import Action, Structured, Text
from parlour.core.decisions import Decision, DecisionKind, TextCheck
from parlour.core.errors import ParlourError
from parlour.core.prompting import PromptParts
from parlour.core.rng import Rng
from parlour.core.view import AnyView, Facts, NoFacts, View
from parlour.games.werewolf.ask import CastAsk
from parlour.games.werewolf.cast import (
    MAX_SCENE,
    MAX_STORY,
    Cast,
    Character,
    Gender,
    default_cast,
)
from parlour.games.werewolf.names import DEFAULT_NAMES, name_problem
from parlour.games.werewolf.playstyles import Playstyle

#: Bounds that keep each answer short: the model cannot write more than these.
NAME_PATTERN = "^[A-Z][a-z]{1,9}$"
GENDERS: tuple[Gender, ...] = get_args(Gender)

#: One worked example: a 135M model copies the shape of an example far better than it
#: follows a description of one.
SYSTEM = (
    "You are the casting director of a Werewolf party game. You invent characters that "
    "fit the setting: short first names, one plain sentence each.\n"
    "Example, for the setting 'a pirate ship':\n"
    "Scene: The crew of the Grey Gull is becalmed far from any port. Each night a sailor "
    "vanishes, and everyone fears a werewolf hides among them.\n"
    "Story of Anne: Anne is the ship's cook, who hums while she sharpens her knives.\n"
    "Story of Jack: Jack is the youngest deckhand and climbs the mast to be alone.\n"
    "Now the setting is: {theme}."
)
SCENE_CHARS = 240
#: The shared guards (seats/text_guard.py) on the prose a player reads (scene, stories).
#: Names are one pattern-bound word each: nothing there to copy or loop.
PROSE_CHECKS: tuple[TextCheck, ...] = ("prompt_copy", "repetition")
STORY_CHARS = 110


def _object(key: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {key: schema},
        "required": [key],
        "additionalProperties": False,
    }


def names_schema(players: int) -> dict[str, Any]:
    name = {"type": "string", "pattern": NAME_PATTERN}
    return _object(
        "names",
        {
            "type": "array",
            "minItems": players,
            "maxItems": players,
            "items": name,
            "uniqueItems": True,
        },
    )


def genders_schema(players: int) -> dict[str, Any]:
    gender = {"type": "string", "enum": list(GENDERS)}
    return _object(
        "genders", {"type": "array", "minItems": players, "maxItems": players, "items": gender}
    )


class CastingFacts(Facts):
    """The cast so far: what the casting seat sees while it writes the next piece."""

    theme: str
    names: tuple[str, ...] = ()
    genders: tuple[str, ...] = ()
    scene: str = ""


CastingView = View[CastingFacts, NoFacts]


class CastBuilder:
    """The casting steps as decisions for the seat ``casting``; feed each answer back
    with ``answer`` and read the finished ``cast()`` when ``next()`` returns None."""

    def __init__(self, theme: str, players: int, seed: int) -> None:
        self.theme, self.players, self.seed = theme, players, seed
        self.built_in = default_cast(players, seed, theme)
        self.styles: list[Playstyle] = Rng(seed).shuffled(list(Playstyle))
        self.names: list[str] = []
        self.genders: list[Gender] = []
        self.scene = ""
        self.stories: list[str] = []
        #: pieces the fallback answered instead of the model, in order ("names", "scene", …)
        self.fallbacks: list[str] = []

    def view(self) -> CastingView:
        return CastingView(
            game="werewolf",
            seat="casting",
            seat_name="Casting director",
            phase="setup",
            public=CastingFacts(
                theme=self.theme,
                names=tuple(self.names),
                genders=tuple(self.genders),
                scene=self.scene,
            ),
            private=NoFacts(),
        )

    def next(self) -> Decision | None:
        n = self.players
        if not self.names:
            return self._ask(
                "names",
                f"Give {n} different first names that fit the setting, each a single "
                "capitalised word, with different first letters.",
                names_schema(n),
            )
        if not self.genders:
            return self._ask(
                "genders",
                f"Give the gender of each of the {n} characters, in the same order.",
                genders_schema(n),
            )
        if not self.scene:
            return self._ask(
                "scene",
                "Write the scene: two short sentences, like the example, for the setting "
                f"{self.theme}.",
                max_length=SCENE_CHARS,
            )
        i = len(self.stories)
        if i < n:
            name, gender = self.names[i], self.genders[i]
            return self._ask(
                "story",
                f"Write the story of {name} ({gender}): one short sentence, like the "
                f"examples, that starts with '{name} is'.",
                max_length=STORY_CHARS,
                index=i,
            )
        return None

    def _ask(
        self,
        step: str,
        prompt: str,
        schema: dict[str, Any] | None = None,
        max_length: int = 0,
        index: int = -1,
    ) -> Decision:
        """A structured answer when ``schema`` is given, else plain prose (a schema in
        the prompt would be copied into a small model's sentences)."""
        return Decision(
            id=f"cast:{step}" if index < 0 else f"cast:{step}:{index + 1}",
            seat="casting",
            kind=DecisionKind.STRUCTURED if schema else DecisionKind.FREE_TEXT,
            purpose=f"cast_{step}",
            prompt=prompt,
            json_schema=schema,
            max_length=max_length or 2000,
            checks=() if schema else PROSE_CHECKS,
            context=CastAsk(theme=self.theme, players=self.players, index=index).context(),
        )

    def answer(self, decision: Decision, action: Action, *, fallback: bool = False) -> None:
        """Take one answer; an unusable piece is replaced by the built-in one (and noted)."""
        value = action.value if isinstance(action, Structured) and not fallback else {}
        prose = "" if fallback or not isinstance(action, Text) else action.text
        step = decision.purpose.removeprefix("cast_")
        if step == "names":
            self.names = self._names(value.get("names"))
        elif step == "genders":
            raw = value.get("genders")
            if isinstance(raw, list) and len(raw) == self.players and set(raw) <= set(GENDERS):
                self.genders = [g for r in raw for g in GENDERS if g == r]
            else:
                self.genders = [c.gender for c in self.built_in.players]
                self.fallbacks.append("genders")
        elif step == "scene":
            scene = _sentences(prose.removeprefix("Scene:"), 2, MAX_SCENE)
            if len(scene) < 20 or _echoes(scene):
                scene = self.built_in.scene
                self.fallbacks.append("scene")
            self.scene = scene
        elif step == "story":
            i = len(self.stories)
            name, stock = self.names[i], self.built_in.players[i]
            story = _sentences(prose.removeprefix(f"Story of {name}:"), 1, MAX_STORY)
            if name.casefold() not in story.casefold() and len(story) >= 10:
                story = f"{name}: {story}"
            if len(story) < 10 + len(name) or _echoes(story):
                story = stock.story.replace(stock.name, name)
                self.fallbacks.append(f"{name}'s story")
            self.stories.append(story)
        else:
            raise ParlourError(f"not a casting decision: {decision.id}")

    def _names(self, raw: object) -> list[str]:
        """The model's usable names, then built-in ones (not clashing) for any missing."""
        names: list[str] = []
        for name in raw if isinstance(raw, list) else []:
            if re.match(NAME_PATTERN, str(name)) and name_problem((*names, str(name))) is None:
                names.append(str(name))
        missing = self.players - len(names[: self.players])
        if missing:
            spare = [n for n in DEFAULT_NAMES if name_problem((*names, n)) is None]
            names += spare[:missing]
            self.fallbacks.append("names" if missing == self.players else f"{missing} names")
        return names[: self.players]

    def cast(self) -> Cast:
        if self.next() is not None:
            raise ParlourError("the cast is not finished")
        return Cast(
            theme=self.theme,
            scene=self.scene,
            players=tuple(
                Character(
                    name=name,
                    gender=gender,
                    story=story,
                    playstyle=self.styles[i % len(self.styles)],
                )
                for i, (name, gender, story) in enumerate(
                    zip(self.names, self.genders, self.stories, strict=True)
                )
            ),
        )


def _sentences(text: str, most: int, limit: int) -> str:
    """The first ``most`` sentences of ``text`` on one line, within ``limit`` characters."""
    flat = " ".join(text.split()).strip(" \"'")
    parts = re.findall(r"[^.!?]+[.!?]+", flat)
    if parts:
        out = " ".join(p.strip() for p in parts[:most])
    else:
        # No full stop: the answer was cut at its bound, so drop the cut-off last word.
        out = flat.rsplit(" ", 1)[0].rstrip(",;:- ") + "." if " " in flat else flat
    if len(out) > limit:
        out = out[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:- ") + "."
    return out


#: Words of the instructions that a sentence copying them (not a story) would hold.
_ECHO = re.compile(r"\b(short sentence|the example|starts with|setting is|story of)\b", re.I)


def _echoes(text: str) -> bool:
    return bool(_ECHO.search(text)) or "{" in text or "[" in text


class CastingPrompter:
    """Stable system line (the theme), the cast so far as memory, then the one ask."""

    def parts(self, view: AnyView, decision: Decision) -> PromptParts:
        pub: CastingFacts = view.public
        memory: list[str] = []
        if pub.genders:
            people = zip(pub.names, pub.genders, strict=True)
            memory.append("Characters: " + ", ".join(f"{n} ({g})" for n, g in people) + ".")
        elif pub.names:
            memory.append("Characters: " + ", ".join(pub.names) + ".")
        if pub.scene:
            memory.append(f"Scene: {pub.scene}")
        return PromptParts(
            system=SYSTEM.format(theme=pub.theme),
            memory="\n".join(memory),
            command=decision.prompt,
        )


def casting_fallback(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """An empty answer: the builder fills the piece from the built-in cast and notes it."""
    if decision.kind is DecisionKind.FREE_TEXT:
        return Text(text="")
    return Structured(value={})
