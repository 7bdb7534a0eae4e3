"""A town: the content of one game of missing (characters, suspects, places, cards, endings).

Models are frozen and strict about types (the loader reports type errors with file and line);
cross-references (a card addressed to an unknown character, an ending needing an unknown
clue) are the validator's job, reported with codes and lines.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.errors import ParlourError


class TownError(ParlourError):
    """A town file that cannot be read; the message names file, line and key."""

    def __init__(self, message: str, *, file: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.file = file
        self.line = line


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Friend(_Frozen):
    name: str = Field(min_length=1)
    about: str = Field(min_length=1)


class Character(_Frozen):
    """A card a player holds: who they are to the missing friend, and two questions."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    pronouns: str = Field(min_length=1)
    relation: str = Field(min_length=1)
    persona: str = Field(min_length=1)
    traits: tuple[str, ...] = ()
    #: One is dealt by seed: what this player wants out of the night.
    drives: tuple[str, ...] = Field(min_length=1)
    worldbuilding: str = Field(min_length=1)
    secret: str = Field(min_length=1)


class Suspect(_Frozen):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    about: str = Field(min_length=1)


class Clue(_Frozen):
    id: str = Field(min_length=1)
    #: A few words a player might text about it ("a torn ferry ticket").
    title: str = Field(min_length=1)
    #: What the searcher finds; shown to the searcher only.
    text: str = Field(min_length=1)


class Location(_Frozen):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    about: str = Field(min_length=1)
    #: Drawn in order, one per search.
    clues: tuple[Clue, ...] = ()


class StoryCard(_Frozen):
    """A private prompt that fires at a minute mark (minutes left) to one player."""

    at: float = Field(description="minutes left on the clock when it fires")
    to: str = Field(min_length=1, description="character id of the addressee")
    prompt: str = Field(min_length=1)
    #: Words the addressee's answer should carry (one is enough); empty for the final card.
    about: tuple[str, ...] = ()
    final: bool = False


class Ending(_Frozen):
    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    good: bool = False
    #: Chosen when at least ``min_found`` of these clues were found (the first match wins).
    needs: tuple[str, ...] = ()
    min_found: int = Field(default=0, ge=0)


class Town(_Frozen):
    title: str = Field(min_length=1)
    intro: str = Field(min_length=1)
    minutes: int = Field(ge=5, le=240)
    friend: Friend
    characters: tuple[Character, ...]
    suspects: tuple[Suspect, ...]
    locations: tuple[Location, ...]
    relationships: tuple[str, ...]
    story_cards: tuple[StoryCard, ...]
    endings: tuple[Ending, ...]
    source: str = ""

    def character(self, cid: str) -> Character:
        return next(c for c in self.characters if c.id == cid)

    def location(self, lid: str) -> Location:
        return next(loc for loc in self.locations if loc.id == lid)

    @property
    def final_card(self) -> StoryCard:
        return next(c for c in self.story_cards if c.final)
