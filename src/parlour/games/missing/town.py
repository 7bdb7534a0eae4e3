"""A town: the content of one game of missing (characters, suspects, places, cards, endings).

Models are frozen and strict about types (the loader reports type errors with file and line);
cross-references (a card addressed to an unknown character, an ending needing an unknown
clue) are the validator's job, reported with codes and lines.
"""

from __future__ import annotations

from pydantic import Field

from parlour.core.content_file import FrozenContent, NonEmpty
from parlour.core.errors import ParlourError


class TownError(ParlourError):
    """A town file that cannot be read; the message names file, line and key."""

    def __init__(self, message: str, *, file: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.file = file
        self.line = line


_Frozen = FrozenContent


class Friend(_Frozen):
    name: NonEmpty
    about: NonEmpty


class Character(_Frozen):
    """A card a player holds: who they are to the missing friend, and two questions."""

    id: NonEmpty
    name: NonEmpty
    pronouns: NonEmpty
    relation: NonEmpty
    persona: NonEmpty
    traits: tuple[str, ...] = ()
    #: One is dealt by seed: what this player wants out of the night.
    drives: tuple[str, ...] = Field(min_length=1)
    worldbuilding: NonEmpty
    secret: NonEmpty


class Suspect(_Frozen):
    id: NonEmpty
    name: NonEmpty
    about: NonEmpty


class Clue(_Frozen):
    id: NonEmpty
    #: A few words a player might text about it ("a torn ferry ticket").
    title: NonEmpty
    #: What the searcher finds; shown to the searcher only.
    text: NonEmpty


class Location(_Frozen):
    id: NonEmpty
    name: NonEmpty
    about: NonEmpty
    #: Drawn in order, one per search.
    clues: tuple[Clue, ...] = ()


class StoryCard(_Frozen):
    """A private prompt that fires at a minute mark (minutes left) to one player."""

    at: float = Field(description="minutes left on the clock when it fires")
    to: str = Field(min_length=1, description="character id of the addressee")
    prompt: NonEmpty
    #: Words the addressee's answer should carry (one is enough); empty for the final card.
    about: tuple[str, ...] = ()
    final: bool = False


class Ending(_Frozen):
    id: NonEmpty
    title: NonEmpty
    text: NonEmpty
    good: bool = False
    #: Chosen when at least ``min_found`` of these clues were found (the first match wins).
    needs: tuple[str, ...] = ()
    min_found: int = Field(default=0, ge=0)


class Town(_Frozen):
    title: NonEmpty
    intro: NonEmpty
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
