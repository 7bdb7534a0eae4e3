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

A small model (the embedded one) writes no bios at all: its free sentences were
dialogue, fragments and other people's stories. It names each character's place in the
setting instead (``cast:places``, a short lowercase phrase under a grammar, like "cargo
pilot"), and the builder composes the bio from that place and a trait dealt by the seed.

Every piece is checked (``cast_checks``: whole sentences, the character's own gender, no
game role named). Playstyles are dealt by the seed (a mixed table is a rule, not a
matter of taste). Whatever a seat cannot answer, the built-in cast fills in, and the
builder says which pieces those were and why.
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
    TRAITS,
    Cast,
    Character,
    Gender,
    default_cast,
)
from parlour.games.werewolf.cast_checks import gender_in, role_named, scene_problem, story_problem
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
#: The places the worked example gives (a pirate ship): copied, they fit no other setting.
EXAMPLE_PLACES = frozenset({"ship's cook", "youngest deckhand"})
#: A character's place in the setting: one to four lowercase words ("cargo pilot").
PLACE_PATTERN = "^[a-z][a-z']{1,14}( [a-z][a-z']{0,14}){0,3}$"


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


def places_schema(players: int) -> dict[str, Any]:
    place = {"type": "string", "pattern": PLACE_PATTERN}
    return _object(
        "places", {"type": "array", "minItems": players, "maxItems": players, "items": place}
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
    with ``answer`` and read the finished ``cast()`` when ``next()`` returns None.

    ``places``: ask for each character's place in the setting and compose the bios
    (for a small model) instead of asking for one bio per character.
    """

    def __init__(self, theme: str, players: int, seed: int, *, places: bool = False) -> None:
        self.theme, self.players, self.seed = theme, players, seed
        self.by_places = places
        self.places: list[str] = []  # the places given so far, in seat order
        self.traits: list[str] = Rng(seed).shuffled(list(TRAITS))
        self.built_in = default_cast(players, seed, theme)
        self.styles: list[Playstyle] = Rng(seed).shuffled(list(Playstyle))
        self.names: list[str] = []
        self.genders: list[Gender] = []
        self.scene = ""
        self.stories: list[str] = []
        #: pieces the fallback answered instead of the model, in order ("names", "scene", …)
        self.fallbacks: list[str] = []
        #: why each of those pieces was not the model's (piece → reason), where known
        self.why: dict[str, str] = {}

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
        if self.by_places and i < n:
            return self._ask(
                "places",
                f"For each of the {n} characters, in the same order, give their job or place "
                f"in the setting {self.theme}: one to four lowercase words, like 'ship's cook'.",
                places_schema(n),
            )
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
            problem = "it copies the instructions" if _echoes(scene) else scene_problem(scene)
            if fallback or problem:
                scene = self.built_in.scene
                self._fell_back("scene", None if fallback else problem)
            self.scene = scene
        elif step == "places":
            raw = value.get("places")
            places = [str(p) for p in raw] if isinstance(raw, list) else []
            for i in range(self.players):
                self.stories.append(self._placed(i, places[i] if i < len(places) else ""))
        elif step == "story":
            i = len(self.stories)
            name = self.names[i]
            story = _sentences(prose.removeprefix(f"Story of {name}:"), 1, MAX_STORY)
            problem = "it copies the instructions" if _echoes(story) else None
            marked = gender_in(story)
            if not problem and marked and marked != self.genders[i]:
                # The bio is the richer answer: the character is who it describes.
                self._fell_back(f"{name}'s gender", f"the story calls {name} {marked}")
                self.genders[i] = "female" if marked == "female" else "male"
            problem = problem or story_problem(name, self.genders[i], story)
            if fallback or problem:
                story = self._stock_story(i)
                self._fell_back(f"{name}'s story", None if fallback else problem)
            self.stories.append(story)
        else:
            raise ParlourError(f"not a casting decision: {decision.id}")

    def mostly_refused(self) -> bool:
        """True when more than half of the prose (the scene and the bios) is the built-in
        cast's: what the model wrote does not make a cast of its own."""
        prose = [p for p in self.fallbacks if p == "scene" or p.endswith("'s story")]
        return len(prose) * 2 > 1 + self.players

    def _fell_back(self, piece: str, why: str | None) -> None:
        self.fallbacks.append(piece)
        if why:
            self.why[piece] = why

    def _stock_story(self, i: int) -> str:
        stock = self.built_in.players[i]
        return stock.story.replace(stock.name, self.names[i])

    def _placed(self, i: int, place: str) -> str:
        """Character ``i``'s bio from its place in the setting and a dealt trait, or the
        built-in bio when the place is unusable (and why)."""
        name = self.names[i]
        words = place.split()
        if words and words[0] in ("a", "an", "the"):
            words = words[1:]
        place = " ".join(words)
        problem = None
        if not re.fullmatch(PLACE_PATTERN, place or "-"):
            problem = "no place in the setting was given"
        elif role_named(place):
            problem = f"its place names a game role ('{role_named(place)}')"
        elif any(n.casefold() in words for n in self.names):
            problem = "its place names a character"
        elif place in EXAMPLE_PLACES or len(set(words)) < len(words):
            problem = f"'{place}' is copied or repeated words, not a place in the setting"
        elif place in self.places:
            problem = f"'{place}' is already {self.names[self.places.index(place)]}'s place"
        self.places.append(place)
        story = f"{name} is the {place}, who {self.traits[i % len(self.traits)]}."
        problem = problem or story_problem(name, self.genders[i], story)
        if problem:
            self._fell_back(f"{name}'s story", problem)
            return self._stock_story(i)
        return story

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
