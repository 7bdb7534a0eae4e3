"""A campaign file as frozen types: the player character's two sheets, NPCs, places, rules.

Types are checked by the loader (with file and line); cross references (an NPC id a
relationship names, the opening's location) by ``validate.py``, each with a code.
"""

from __future__ import annotations

from pydantic import Field

from parlour.core.content_file import ContentFileError, FrozenContent
from parlour.core.lookup import by_id, ids_of

Id = str


class CampaignError(ContentFileError):
    """A campaign file that cannot be used; the message is ``file:line: [code] problem``."""


_Frozen = FrozenContent


class Secret(_Frozen):
    """A fact someone hides. Revealed in a scene, it becomes known to the NPCs present only."""

    id: Id = Field(min_length=1)
    text: str = Field(min_length=1)


class PublicSheet(_Frozen):
    """What anyone in the room could notice or has heard: the scene director's PC."""

    looks: str = Field(min_length=1)
    reputation: str = Field(min_length=1)
    noticeable: tuple[str, ...] = ()


class FullSheet(_Frozen):
    """What only the player and the story director know."""

    history: str = Field(min_length=1)
    goals: tuple[str, ...] = ()
    secrets: tuple[Secret, ...] = ()


class PlayerCharacter(_Frozen):
    name: str = Field(min_length=1)
    public: PublicSheet
    full: FullSheet
    #: skill id → modifier added to the d20
    skills: dict[Id, int] = Field(default_factory=dict)
    hp: int = Field(default=10, ge=1, le=100)
    inventory: tuple[Id, ...] = ()


class Npc(_Frozen):
    id: Id = Field(min_length=1)
    name: str = Field(min_length=1)
    #: what the NPC shows the world
    persona: str = Field(min_length=1)
    agenda: str = Field(min_length=1)
    secrets: tuple[Secret, ...] = ()
    #: other NPC id (or ``pc``) → how this NPC sees them
    relationships: dict[Id, str] = Field(default_factory=dict)
    faction: Id | None = None


class Location(_Frozen):
    id: Id = Field(min_length=1)
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)


class Faction(_Frozen):
    id: Id = Field(min_length=1)
    name: str = Field(min_length=1)
    aim: str = Field(min_length=1)


class Thread(_Frozen):
    """A plot thread: the story director's to pull."""

    id: Id = Field(min_length=1)
    text: str = Field(min_length=1)


class Item(_Frozen):
    id: Id = Field(min_length=1)
    name: str = Field(min_length=1)


class Clock(_Frozen):
    """A countdown the game director ticks (``segments`` ticks fill it)."""

    id: Id = Field(min_length=1)
    name: str = Field(min_length=1)
    segments: int = Field(default=4, ge=1, le=12)


class Opening(_Frozen):
    location: Id = Field(min_length=1)
    npcs: tuple[Id, ...] = ()
    text: str = Field(min_length=1)


class Campaign(_Frozen):
    title: str = Field(min_length=1)
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
