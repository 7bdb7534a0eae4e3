"""The engine's own records of a campaign: scenes with who was present, who knows which
secret, the mutable character state, and the phase the game is in. Only applied
decisions change it (the phase modules do); views and prompts read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from parlour.core.events import EventLog
from parlour.core.game_base import PhasedLog
from parlour.core.markers import SecretMarkers
from parlour.core.rng import Rng
from parlour.games.campaign.content import Campaign, Secret

#: the game's name, as views carry it
NAME = "campaign"
Phase = Literal["open", "act", "ooc", "gd", "story", "scene", "line", "review", "sheets", "over"]
PLAYER, STORY, SCENE, GAME = "player", "story-director", "scene-director", "game-director"
SEATS = (PLAYER, STORY, SCENE, GAME)


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


@dataclass(frozen=True)
class Synopsis:
    """The story director's brief for the scene director; replaced whole, never edited."""

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


@dataclass
class CampaignState(PhasedLog):
    """One campaign in play. ``c`` is the campaign as played (with markers when planted)."""

    c: Campaign
    rng: Rng
    markers: SecretMarkers
    pc: Character
    synopsis: Synopsis
    #: secret id → (owner: ``pc`` or an NPC id, the secret)
    secrets: dict[str, tuple[str, Secret]]
    npc: dict[str, NpcProgress]
    log: EventLog = field(default_factory=EventLog)
    phase: Phase = "scene"
    scenes: list[Scene] = field(default_factory=list)
    #: secret id → NPC ids who witnessed its reveal
    who_knows: dict[str, set[str]] = field(default_factory=dict)
    #: secret ids, in reveal order (the table knows them)
    revealed: list[str] = field(default_factory=list)
    notes_for_self: list[str] = field(default_factory=list)
    session: int = 1
    turn: int = 1
    #: slash commands answered this turn
    commands: int = 0
    #: the player's out-of-character question the story director answers now (phase ``ooc``)
    ooc: str = ""
    #: the player's message of this turn, once sent (None at a session's opening beat)
    message: str | None = None
    #: the beat being written: ``{"narration": str, "lines": [{"npc", "text"}], "held":
    #: bool}``, from the narration to its last line (``held``: kept back for the review)
    draft: dict[str, Any] | None = None
    rewrite: str = ""
    rewrites: int = 0
    #: NPCs whose sheets the story director updates at the end of the session, in order
    sheet_queue: list[str] = field(default_factory=list)
    ending: str = ""
    #: every event seq the scene director's view held when it was asked (``show --as``)
    scene_seen: set[int] = field(default_factory=set)
    #: the id of the act being applied (``acts.py``; "" for a seat's own words): the
    #: events its words reach carry it (``acted``)
    act: str = ""

    @classmethod
    def start(cls, c: Campaign, seed: int, markers: SecretMarkers) -> CampaignState:
        """The state before the title is announced: full HP, no scene, the opening synopsis."""
        op = c.opening
        return cls(
            c=c,
            rng=Rng(seed),
            markers=markers,
            pc=Character(
                hp=c.pc.hp,
                conditions=[],
                inventory=list(c.pc.inventory),
                clocks={k.id: 0 for k in c.clocks},
            ),
            synopsis=Synopsis(text=op.text, npc_list=tuple(op.npcs), location=op.location),
            secrets=c.secrets(),
            npc={n.id: NpcProgress() for n in c.npcs},
        )

    # -- events --------------------------------------------------------------------------

    @property
    def phase_tag(self) -> str:
        return f"s{self.session}"

    def current_phase(self) -> str:
        return self.phase_tag

    def event_data(self, data: dict[str, Any] | None) -> dict[str, Any]:
        """Every event carries the session and the scene it happened in (0: before any)."""
        scene = self.scenes[-1].number if self.scenes else 0
        return {"session": self.session, "scene": scene, **(data or {})}

    def acted(self, data: dict[str, Any] | None = None, act: str | None = None) -> dict[str, Any]:
        """``data`` of an event whose words an answer wrote, naming the act that chose
        them (``act``, by default the one being applied), when it was one."""
        act = self.act if act is None else act
        return {**(data or {}), **({"act": act} if act else {})}

    # -- lookups -------------------------------------------------------------------------

    def speaker_name(self, who: str) -> str:
        if who == PLAYER:
            return self.c.pc.name
        return self.c.npc(who).name if who in self.c.npc_ids else who

    def line_speaker(self) -> str | None:
        """The NPC whose line of the beat is asked now (phase ``line``), else None."""
        if self.phase != "line" or self.draft is None:
            return None
        said = {line["npc"] for line in self.draft["lines"]}
        return next((n for n in self.synopsis.npc_list if n not in said), None)

    def item_name(self, item_id: str) -> str:
        return next((i.name for i in self.c.items if i.id == item_id), item_id)

    def decision_id(self, step: str) -> str:
        """Stable ids: ``s1:open``, ``s1:scene``, ``s1t2:act3``, ``s1t2:scene2``, ..."""
        if step == "ooc":
            return f"s{self.session}t{self.turn}:ooc{self.commands}"
        if step in ("open", "sheet"):
            return f"s{self.session}:{step}"
        again = ""
        if step == "act" and self.commands:
            again = str(self.commands + 1)
        if step in ("scene", "review") and self.message is None:
            # The session's opening beat comes before turn 1: its own ids.
            return f"s{self.session}:{step}{str(self.rewrites + 1) if self.rewrites else ''}"
        if step == "scene" and self.rewrites:
            again = str(self.rewrites + 1)
        return f"s{self.session}t{self.turn}:{step}{again}"
