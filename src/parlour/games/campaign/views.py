"""The four seats' views, built from the state. What each holds, by construction:

* player: the full PC sheet (it is their character), state, the table's events;
* game director: the PUBLIC PC sheet, skills, difficulties, state, the table's events;
* story director: everything (full PC sheet, every NPC's private sheet, threads, who
  knows what, every scene, its own notes);
* scene director: the synopsis, the location, the PUBLIC PC sheet, the public persona of
  each NPC in the synopsis' ``npc_list``, this beat's draft so far, and the events its
  context may see (``knowledge``): while it narrates, nobody's private sheet and only the
  scenes every NPC present attended; while it plays one NPC's line, that NPC's private
  sheet (with the secrets it saw revealed), the scenes it attended and its memory records
  of earlier sessions, and of the others their personas only.
"""

from __future__ import annotations

from parlour.core.errors import ParlourError
from parlour.core.view import AnyView, NoFacts
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.knowledge import NARRATOR, scene_context
from parlour.games.campaign.remembering import recall, remembered
from parlour.games.campaign.scenes import scene_events
from parlour.games.campaign.state import GAME, NAME, PLAYER, SCENE, SEATS, STORY, CampaignState
from parlour.games.campaign.view_types import (
    NpcPersona,
    NpcSheet,
    PcPublic,
    PlayerSheet,
    PlayerView,
    SceneFacts,
    SceneSheets,
    SceneView,
    StoryFacts,
    StoryView,
    TableFacts,
    TableView,
)

#: the view types, re-exported for the modules that build or read views
__all__ = [
    "PlayerView",
    "SceneView",
    "StoryView",
    "TableView",
]


# -- building the views from the state ------------------------------------------------------


def pc_public(st: CampaignState) -> PcPublic:
    pub = st.c.pc.public
    return PcPublic(
        name=st.c.pc.name,
        looks=pub.looks,
        reputation=pub.reputation,
        noticeable=list(pub.noticeable),
        hp=st.pc.hp,
        conditions=list(st.pc.conditions),
    )


def table_facts(st: CampaignState, cfg: CampaignConfig) -> TableFacts:
    scene = st.scenes[-1]
    return TableFacts(
        title=st.c.title,
        session=st.session,
        turn=st.turn,
        turns_per_session=cfg.turns_per_session,
        scene=scene.number,
        location=st.c.location(scene.location).name,
        present=[st.c.npc(n).name for n in scene.npcs],
        pc=pc_public(st),
        inventory=[st.item_name(i) for i in st.pc.inventory],
        clocks={k.name: f"{st.pc.clocks[k.id]}/{k.segments}" for k in st.c.clocks},
        skills=dict(st.c.pc.skills),
        difficulties=dict(st.c.difficulties),
        message=st.message if st.phase == "gd" else None,
    )


def npc_sheet(st: CampaignState, npc_id: str) -> NpcSheet:
    """An NPC's sheet with the secrets of others it saw revealed."""
    npc = st.c.npc(npc_id)
    known = [
        st.secrets[s][1].text
        for s in st.revealed
        if npc_id in st.who_knows.get(s, set()) and st.secrets[s][0] != npc_id
    ]
    progress = st.npc[npc_id]
    return NpcSheet(
        id=npc.id,
        name=npc.name,
        persona=npc.persona,
        agenda=npc.agenda,
        secrets=[s.text for s in npc.secrets],
        relationships=dict(npc.relationships),
        knows=known,
        attitude=progress.attitude,
        notes=list(progress.notes),
    )


def npc_persona(st: CampaignState, npc_id: str) -> NpcPersona:
    npc = st.c.npc(npc_id)
    return NpcPersona(id=npc.id, name=npc.name, persona=npc.persona)


def _beat(st: CampaignState) -> list[str]:
    """The beat held for review so far (a beat not held is in the events already)."""
    if st.draft is None or not st.draft["held"]:
        return []
    lines = [f"{st.c.npc(d['npc']).name}: {d['text']}" for d in st.draft["lines"] if d["text"]]
    return [str(st.draft["narration"]), *lines]


def _names(st: CampaignState, present: tuple[str, ...]) -> str:
    """The names said in a moment that tell nothing of what it is about."""
    return " ".join([st.c.pc.name, *(st.c.npc(n).name for n in present)])


def scene_view(
    st: CampaignState, present: tuple[str, ...] | None = None, speaker: str | None = None
) -> SceneView:
    """The scene director's view in context ``(present, speaker)`` (``knowledge``); by
    default its context now. ``speaker`` is an NPC id or ``NARRATOR``; a context other than
    the current one ("what if these were present", memory probes) is built by the very
    same code."""
    now_present, now_speaker = scene_context(st)
    present = now_present if present is None else present
    speaker = (now_speaker if present == now_present else NARRATOR) if speaker is None else speaker
    place = st.c.location(st.synopsis.location)
    voiced = speaker if speaker != NARRATOR else ""
    events = scene_events(st, present, speaker)
    moment = st.message if st.message is not None else st.synopsis.text
    return SceneView(
        game=NAME,
        seat=SCENE,
        seat_name="Scene director",
        phase=st.phase_tag,
        public=SceneFacts(
            title=st.c.title,
            session=st.session,
            scene=st.scenes[-1].number,
            location=place.name,
            location_description=place.description,
            location_details=list(place.details),
            synopsis=st.synopsis.text,
            pc=pc_public(st),
            rewrite=st.rewrite,
            speaker=voiced,
            beat=_beat(st),
        ),
        private=SceneSheets(
            npcs=[npc_persona(st, n) for n in present],
            speaker=npc_sheet(st, voiced) if voiced else None,
            # only the voiced NPC's own records, from this very view's events
            recalled=recall(remembered(events, voiced), moment, ignore=_names(st, present))
            if voiced
            else [],
            lines={k: list(v) for k, v in st.c.npc(voiced).lines.items()} if voiced else {},
            reactions={k: list(v) for k, v in st.c.npc(voiced).reactions.items()} if voiced else {},
        ),
        events=tuple(events),
    )


def player_view(st: CampaignState, cfg: CampaignConfig) -> PlayerView:
    full = st.c.pc.full
    return PlayerView(
        game=NAME,
        seat=PLAYER,
        seat_name=st.c.pc.name,
        phase=st.phase_tag,
        public=table_facts(st, cfg),
        private=PlayerSheet(
            history=full.history,
            goals=list(full.goals),
            secrets=[s.text for s in full.secrets],
        ),
        events=tuple(st.log.visible(PLAYER)),
    )


def game_director_view(st: CampaignState, cfg: CampaignConfig) -> TableView:
    return TableView(
        game=NAME,
        seat=GAME,
        seat_name="Game director",
        phase=st.phase_tag,
        public=table_facts(st, cfg),
        private=NoFacts(),
        events=tuple(st.log.visible(GAME)),
    )


def story_view(st: CampaignState) -> StoryView:
    full = st.c.pc.full
    scene = st.scenes[-1]
    draft = ""
    if st.draft is not None:
        lines = " ".join(f"{d['npc']}: {d['text']}" for d in st.draft["lines"])
        draft = f"{st.draft['narration']} {lines}".strip()
    return StoryView(
        game=NAME,
        seat=STORY,
        seat_name="Story director",
        phase=st.phase_tag,
        public=StoryFacts(
            title=st.c.title,
            session=st.session,
            turn=st.turn,
            scene=scene.number,
            location=scene.location,
            present=list(scene.npcs),
            synopsis=st.synopsis.text,
            message=st.message,
            pc_sheet=PlayerSheet(
                history=full.history,
                goals=list(full.goals),
                secrets=[f"{s.id}: {s.text}" for s in full.secrets],
            ),
            pc=pc_public(st),
            npcs=[npc_sheet(st, n) for n in st.c.npc_ids],
            locations={p.id: p.name for p in st.c.locations},
            threads=[f"{t.id}: {t.text}" for t in st.c.threads],
            who_knows={s: sorted(n) for s, n in sorted(st.who_knows.items())},
            notes_for_self=list(st.notes_for_self),
            draft=draft,
        ),
        private=NoFacts(),
        events=tuple(st.log.visible(STORY)),
    )


def seat_view(st: CampaignState, cfg: CampaignConfig, seat: str) -> AnyView:
    if seat == SCENE:
        return scene_view(st)
    if seat == PLAYER:
        return player_view(st, cfg)
    if seat == GAME:
        return game_director_view(st, cfg)
    if seat == STORY:
        return story_view(st)
    raise ParlourError(f"no seat '{seat}' in campaign; seats: {', '.join(SEATS)}")


def spectator(st: CampaignState, cfg: CampaignConfig, reveal: bool) -> TableView:
    return TableView.spectator(
        NAME, st.phase_tag, table_facts(st, cfg), NoFacts(), st.log.for_spectator(reveal)
    )
