"""Typed facts of the four seats' views. What each holds, by construction:

* player: the full PC sheet (it is their character), state, the table's events;
* game director: the PUBLIC PC sheet, skills, difficulties, state, the table's events;
* story director: everything (full PC sheet, every NPC's private sheet, threads, who
  knows what, every scene, its own notes);
* scene director: the synopsis, the location, the PUBLIC PC sheet, the sheets of the NPCs
  in the synopsis' ``npc_list`` (with the secrets they witnessed being revealed), this
  session's scenes those NPCs attended, and their memory records of earlier sessions.
"""

from __future__ import annotations

from pydantic import Field

from parlour.core.view import Facts, NoFacts, View


class PcPublic(Facts):
    name: str
    looks: str
    reputation: str
    noticeable: list[str]
    hp: int
    conditions: list[str]


class NpcSheet(Facts):
    id: str
    name: str
    persona: str
    agenda: str
    secrets: list[str]
    relationships: dict[str, str]
    #: secrets revealed in a scene this NPC attended
    knows: list[str]
    attitude: str = ""
    notes: list[str] = Field(default_factory=list)


class SceneFacts(Facts):
    title: str
    session: int
    scene: int
    location: str
    location_description: str
    synopsis: str
    pc: PcPublic
    #: the story director's reason when it asked for a rewrite
    rewrite: str = ""


class SceneSheets(Facts):
    npcs: list[NpcSheet]


class TableFacts(Facts):
    """What the player and the game director share."""

    title: str
    session: int
    turn: int
    turns_per_session: int
    scene: int
    location: str
    present: list[str]
    pc: PcPublic
    inventory: list[str]
    clocks: dict[str, str]
    skills: dict[str, int]
    difficulties: dict[str, int]
    message: str | None = None


class PlayerSheet(Facts):
    history: str
    goals: list[str]
    secrets: list[str]


class StoryFacts(Facts):
    title: str
    session: int
    turn: int
    scene: int
    location: str
    present: list[str]
    synopsis: str
    message: str | None
    pc_sheet: PlayerSheet
    pc: PcPublic
    npcs: list[NpcSheet]
    locations: dict[str, str]
    threads: list[str]
    #: secret id → NPC ids who witnessed its reveal
    who_knows: dict[str, list[str]]
    notes_for_self: list[str]
    draft: str = ""


SceneView = View[SceneFacts, SceneSheets]
TableView = View[TableFacts, NoFacts]
PlayerView = View[TableFacts, PlayerSheet]
StoryView = View[StoryFacts, NoFacts]
