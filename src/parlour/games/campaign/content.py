"""A campaign file as frozen types: the player character's two sheets, NPCs, places, rules.

Types are checked by the loader (with file and line); cross references (an NPC id a
relationship names, the opening's location) by ``validate.py``, each with a code.
"""

from __future__ import annotations

from pydantic import Field

from parlour.core.content_file import ContentFileError, FrozenContent, NonEmpty
from parlour.core.lookup import by_id, ids_of

Id = str


class CampaignError(ContentFileError):
    """A campaign file that cannot be used; the message is ``file:line: [code] problem``."""


_Frozen = FrozenContent


class Secret(_Frozen):
    """A fact someone hides. Revealed in a scene, it becomes known to the NPCs present only."""

    id: NonEmpty
    text: NonEmpty


class PublicSheet(_Frozen):
    """What anyone in the room could notice or has heard: the scene director's PC."""

    looks: NonEmpty
    reputation: NonEmpty
    noticeable: tuple[str, ...] = ()


class FullSheet(_Frozen):
    """What only the player and the story director know."""

    history: NonEmpty
    goals: tuple[str, ...] = ()
    secrets: tuple[Secret, ...] = ()


class PlayerCharacter(_Frozen):
    name: NonEmpty
    public: PublicSheet
    full: FullSheet
    #: skill id → modifier added to the d20
    skills: dict[Id, int] = Field(default_factory=dict)
    hp: int = Field(default=10, ge=1, le=100)
    inventory: tuple[Id, ...] = ()


#: what a player's message can be about, for an NPC's scripted lines (``lines`` keys)
TOPICS = ("greet", "ask", "tell", "help", "threat", "farewell", "recall", "default")
#: check outcomes an NPC can react to (``reactions`` keys: the dice bands)
BANDS = ("complication", "mixed", "success", "success with style")
#: placeholders a line may use: the PC's name, the place now; in ``recall`` lines also
#: where the remembered scene was (``then``) and the remembered words (``memory``)
PLACEHOLDERS = ("pc", "place", "then", "memory")


class Npc(_Frozen):
    id: NonEmpty
    name: NonEmpty
    #: what the NPC shows the world
    persona: NonEmpty
    agenda: NonEmpty
    secrets: tuple[Secret, ...] = ()
    #: other NPC id (or ``pc``) → how this NPC sees them
    relationships: dict[Id, str] = Field(default_factory=dict)
    faction: Id | None = None
    #: topic (``TOPICS``) → lines the scripted scene director may give this NPC
    lines: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    #: check band (``BANDS``) → how this NPC reacts to the player's check coming out so
    reactions: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class Location(_Frozen):
    id: NonEmpty
    name: NonEmpty
    description: NonEmpty
    #: sentences the scripted narrator uses on later beats of a scene here, in turn
    details: tuple[str, ...] = ()


class CheckRule(_Frozen):
    """An action that can fail: a message with any of ``words`` (each whole or with a plain
    ending: "mix" matches "mixing" and "mixed", not "mixture") calls for a ``skill`` check.
    The game director asks for it; when it does not, the engine rolls it anyway."""

    words: tuple[NonEmpty, ...]
    skill: NonEmpty
    #: a name from ``difficulties``; empty: the middle one
    difficulty: str = ""
    reason: NonEmpty


class Faction(_Frozen):
    id: NonEmpty
    name: NonEmpty
    aim: NonEmpty


class Thread(_Frozen):
    """A plot thread: the story director's to pull."""

    id: NonEmpty
    text: NonEmpty


class Item(_Frozen):
    id: NonEmpty
    name: NonEmpty


class Clock(_Frozen):
    """A countdown the game director ticks (``segments`` ticks fill it)."""

    id: NonEmpty
    name: NonEmpty
    segments: int = Field(default=4, ge=1, le=12)


class Opening(_Frozen):
    location: NonEmpty
    npcs: tuple[Id, ...] = ()
    text: NonEmpty


class Campaign(_Frozen):
    title: NonEmpty
    pc: PlayerCharacter
    npcs: tuple[Npc, ...]
    locations: tuple[Location, ...]
    factions: tuple[Faction, ...] = ()
    threads: tuple[Thread, ...] = ()
    items: tuple[Item, ...] = ()
    conditions: tuple[Id, ...] = ()
    clocks: tuple[Clock, ...] = ()
    skills: tuple[Id, ...]
    #: difficulty name → DC for the d20 check
    difficulties: dict[str, int]
    #: actions of this campaign that can fail (before the engine's general list)
    checks: tuple[CheckRule, ...] = ()
    opening: Opening
    source: str = ""

    def npc(self, npc_id: Id) -> Npc:
        return by_id(self.npcs, npc_id)

    def location(self, location_id: Id) -> Location:
        return by_id(self.locations, location_id)

    @property
    def npc_ids(self) -> tuple[Id, ...]:
        return ids_of(self.npcs)

    @property
    def location_ids(self) -> tuple[Id, ...]:
        return ids_of(self.locations)

    def secrets(self) -> dict[Id, tuple[str, Secret]]:
        """Every secret id → (owner: ``pc`` or an NPC id, the secret)."""
        found: dict[Id, tuple[str, Secret]] = {s.id: ("pc", s) for s in self.pc.full.secrets}
        for npc in self.npcs:
            found.update({s.id: (npc.id, s) for s in npc.secrets})
        return found
