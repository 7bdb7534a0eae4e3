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
    #: Minutes left on the clock from which it can be found (None: from the start), e.g.
    #: what the ebbing tide uncovers; a search before then draws another clue or none.
    available_at: float | None = None
    #: Shorter names for it once it has been told in the chat ("the loan book page" for "a
    #: page from Gideon's loan book"): later lines refer to it by one of these, not its
    #: whole title each time. Empty: always the title.
    handles: tuple[str, ...] = ()


class Location(_Frozen):
    id: NonEmpty
    name: NonEmpty
    about: NonEmpty
    #: One per search, in an order shuffled by the game's seed.
    clues: tuple[Clue, ...] = ()
    #: What a searcher is told when the clues left here cannot be found yet ("The tide is
    #: still over the steps."); empty: the game's plain "nothing yet".
    not_yet: str = ""
    #: Shorter names a player may text for it ("the Tern" for "the Tern and Anchor");
    #: every player knows the place, so a line may use one at any time.
    handles: tuple[str, ...] = ()


#: Slots a story card's ``prompt`` and ``about`` words may name; the game fills them when
#: the card fires (``story.py``): the missing friend's first name, another player's first
#: name, a suspect, a place, and something found (by the addressee, or told to the chat).
CARD_SLOTS = ("friend", "player", "suspect", "place", "found")


class StoryCard(_Frozen):
    """A private prompt that fires at a minute mark (minutes left) to one player. Its
    ``prompt`` may name slots (``{suspect}``, ``{found}``...: ``CARD_SLOTS``)."""

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
    #: What happens when the clock runs out, in the town's words ("the tide turns"): the
    #: chat opens with "90:00 until the tide turns".
    deadline: NonEmpty = "time runs out"
    #: Seconds of the shared clock one search costs (the group waits while you look);
    #: ``--set search_cost=`` overrides it.
    search_cost: float = Field(default=60.0, ge=0, le=1800)
    source: str = ""

    def character(self, cid: str) -> Character:
        return next(c for c in self.characters if c.id == cid)

    def location(self, lid: str) -> Location:
        return next(loc for loc in self.locations if loc.id == lid)

    @property
    def final_card(self) -> StoryCard:
        return next(c for c in self.story_cards if c.final)
