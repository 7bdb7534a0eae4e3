"""The typed facts of the four seats' views (what each holds: ``views.py``)."""

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


class Recalled(Facts):
    """A line said in an earlier scene, as the NPC who witnessed it recalls it."""

    scene: int
    session: int
    #: where the scene was (the place's name)
    place: str
    #: who said it: ``player`` or an NPC id; ``name``: their name
    who: str
    name: str
    text: str
    #: how well it matches the moment (``remembering.recall``)
    score: float = 0.0


class NpcPersona(Facts):
    """An NPC as anyone in the room sees it."""

    id: str
    name: str
    persona: str


class SceneFacts(Facts):
    title: str
    session: int
    scene: int
    location: str
    location_description: str
    #: sentences about the place for later beats (the campaign's ``details``)
    location_details: list[str] = Field(default_factory=list)
    synopsis: str
    pc: PcPublic
    #: the story director's reason when it asked for a rewrite
    rewrite: str = ""
    #: the NPC whose line is asked ("" while narrating)
    speaker: str = ""
    #: this beat so far while it is held for review: the narration, then each line given
    beat: list[str] = Field(default_factory=list)


class SceneSheets(Facts):
    #: every NPC present, public persona only
    npcs: list[NpcPersona]
    #: the private sheet of the NPC whose line is asked, and of nobody else
    speaker: NpcSheet | None = None
    #: what the speaker recalls of earlier scenes it witnessed, best match first
    recalled: list[Recalled] = Field(default_factory=list)
    #: the speaker's scripted lines (topic → lines) and reactions (check band → lines),
    #: from the campaign file
    lines: dict[str, list[str]] = Field(default_factory=dict)
    reactions: dict[str, list[str]] = Field(default_factory=dict)


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
