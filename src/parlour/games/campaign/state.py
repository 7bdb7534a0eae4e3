"""The engine's own records of a campaign: scenes with who was present, who knows which
secret, and the mutable character state (changed only by applied decisions)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Scene:
    number: int
    session: int
    location: str
    npcs: tuple[str, ...]
    header: str
    #: (speaker id: ``player``, ``narrator`` or an NPC id, exact text), in order
    said: list[tuple[str, str]] = field(default_factory=list)
    closed: bool = False


@dataclass
class Synopsis:
    text: str
    npc_list: tuple[str, ...]
    location: str


@dataclass
class Character:
    hp: int
    conditions: list[str]
    inventory: list[str]
    clocks: dict[str, int]

    def snapshot(self) -> dict[str, object]:
        return {
            "hp": self.hp,
            "conditions": list(self.conditions),
            "inventory": list(self.inventory),
            "clocks": dict(sorted(self.clocks.items())),
        }


@dataclass
class NpcProgress:
    attitude: str = ""
    notes: list[str] = field(default_factory=list)
