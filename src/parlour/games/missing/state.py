"""The truth of one missing game: who holds which card, the setup answers, the clock, the
chat's rounds, the searches and the story cards.

Plain data with lookups: the phase modules change it, ``views.py`` reads it. Content (the
town and its cards) is frozen and shared by a fork (``Forkable``); what play changes is
held as ids, numbers and strings, so a fork copies little.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from parlour.core.events import EventLog
from parlour.core.game import Forkable
from parlour.core.markers import SecretMarkers
from parlour.core.rng import Rng
from parlour.games.missing.town import Character, Ending, StoryCard, Town

Phase = Literal["characters", "intro", "relationships", "suspicions", "chat", "epilogue", "over"]

#: The setup phases in which the seats speak to the group one after the other.
SEQUENTIAL: tuple[Phase, ...] = ("intro", "relationships", "suspicions")


class Find(BaseModel):
    """A clue a seat found: private to it; ``shared`` once its message mentioned it."""

    model_config = ConfigDict(frozen=True)

    place: str
    clue: str
    title: str
    text: str
    shared: bool = False


@dataclass
class MissingState(Forkable):
    town: Town
    seed: int
    seats: tuple[str, ...]
    #: Seats a person plays (the config's ``people``).
    people: frozenset[str]
    #: seat → the id of the character card it holds.
    cards: dict[str, str]
    #: seat → the drive dealt from its card.
    drive: dict[str, str]
    #: A cycle: each seat answers a relationship prompt about ``pair[seat]``.
    pair: dict[str, str]
    #: seat → its relationship prompt, ``{other}`` filled in when asked (a card may change).
    rel_template: dict[str, str]
    #: People who still pick their card at the table.
    picking: set[str]
    #: seat → (suspect id, place id) it tells the group about.
    assigned: dict[str, tuple[str, str]]
    markers: SecretMarkers
    #: seat → the marker planted in its secret ("" when markers are off).
    secret_mark: dict[str, str]
    #: Seconds left on the simulated clock.
    left: float
    #: The game's own draws during play (a story card's slots), from the seed.
    rng: Rng
    log: EventLog = field(default_factory=EventLog)
    phase: Phase = "characters"
    background: dict[str, str] = field(default_factory=dict)
    secret: dict[str, str] = field(default_factory=dict)
    #: Index into ``seats`` of the speaker in a sequential setup phase.
    turn: int = 0
    rel_answer: dict[str, str] = field(default_factory=dict)
    # -- the chat
    round: int = 1
    #: seat → its answer to this round's question (an option id).
    answered: dict[str, str] = field(default_factory=dict)
    #: person → how many standing message decisions it answered (each gets a fresh id).
    asked_person: dict[str, int] = field(default_factory=dict)
    #: Commands a person typed outside the chat: each re-asks the same question under a
    #: new id (``intro:p2:1``), so every stored action answers a distinct decision.
    commands: dict[str, int] = field(default_factory=dict)
    #: The seat asked for its message, and why it was asked.
    speaker: str | None = None
    speaker_why: str = ""
    silent_rounds: int = 0
    messages: dict[str, int] = field(default_factory=dict)
    #: The speaker seat of every chat message, in order.
    history: list[str] = field(default_factory=list)
    last_text: str = ""
    #: Indexes of the story cards fired so far.
    fired: list[int] = field(default_factory=list)
    #: seat → index of its unanswered story card.
    card_of: dict[str, int] = field(default_factory=dict)
    cards_got: dict[str, int] = field(default_factory=dict)
    ending: Ending | None = None
    announced: bool = False
    #: place id → (searching seat, seconds left when it leaves).
    busy: dict[str, tuple[str, float]] = field(default_factory=dict)
    #: place id → the ids of its clues not found yet, in the order the seed shuffled.
    deck: dict[str, list[str]] = field(default_factory=dict)
    #: fired story card index → its prompt and ``about`` words with the slots filled.
    card_words: dict[int, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    finds: dict[str, list[Find]] = field(default_factory=dict)
    visited: dict[str, list[str]] = field(default_factory=dict)
    epilogue: dict[str, str] = field(default_factory=dict)
    #: The debrief told every secret.
    revealed: bool = False

    # -- lookups -------------------------------------------------------------------------

    def card(self, seat: str) -> Character:
        return self.town.character(self.cards[seat])

    def name(self, seat: str) -> str:
        return self.card(seat).name.split()[0]

    def is_person(self, seat: str) -> bool:
        return seat in self.people

    def ais(self) -> list[str]:
        return [s for s in self.seats if s not in self.people]

    def persons(self) -> list[str]:
        """The seats people play, in seat order."""
        return [s for s in self.seats if s in self.people]

    def rel_prompt(self, seat: str) -> str:
        return self.rel_template[seat].replace("{other}", self.name(self.pair[seat]))

    def free_cards(self, seat: str) -> list[Character]:
        """The seat's dealt card first, then every card nobody else holds, in town order."""
        held = {self.cards[s] for s in self.seats if s != seat}
        mine = self.card(seat)
        return [mine, *(c for c in self.town.characters if c.id not in held and c != mine)]

    def occupant(self, place: str) -> str | None:
        """Who is searching ``place`` now (None: free)."""
        held = self.busy.get(place)
        if held is not None and self.left > held[1]:
            return held[0]
        return None

    def pending_card(self, seat: str) -> StoryCard | None:
        """The story card the seat must answer with its next message, its slots filled."""
        index = self.card_of.get(seat)
        if index is None:
            return None
        card = self.town.story_cards[index]
        prompt, about = self.card_words.get(index, (card.prompt, card.about))
        return card.model_copy(update={"prompt": prompt, "about": about})

    def found_clues(self) -> set[str]:
        return {f.clue for finds in self.finds.values() for f in finds}
