"""Scenes: opening and closing them (closing writes each present NPC's memory record), and
which scenes and events the scene director may see in each of its contexts (the rule of
``knowledge.context_knows``, which its views, the leak markers and ``show --as`` follow)."""

from __future__ import annotations

from parlour.core.events import Audience, Event
from parlour.games.campaign.knowledge import context_knows, scene_context
from parlour.games.campaign.state import STORY, CampaignState, Scene

#: the public event kinds of a scene the scene director is shown
SCENE_KINDS = ("scene", "message", "narration", "line", "check", "state")


def open_scene(st: CampaignState) -> None:
    """A new scene at the synopsis' location with the synopsis' NPCs present."""
    number = len(st.scenes) + 1
    place = st.c.location(st.synopsis.location)
    names = ", ".join(st.c.npc(n).name for n in st.synopsis.npc_list) or "nobody"
    header = f"Scene {number} — {place.name} (present: {names})"
    header += st.markers.plant(f"scene:{number}", ())
    st.scenes.append(Scene(number, st.session, place.id, st.synopsis.npc_list, header))
    data = {"npcs": list(st.synopsis.npc_list), "place": place.name}
    st.emit("scene", header, Audience.everyone(), data=data)


def close_scene(st: CampaignState) -> None:
    """Each NPC present gets a memory record quoting the scene exactly."""
    scene = st.scenes[-1]
    if scene.closed:
        return
    scene.closed = True
    place = st.c.location(scene.location).name
    quoted = " | ".join(
        f'{st.speaker_name(who)} said: "{text}"' for who, text in scene.said if who != "narrator"
    )
    for npc in scene.npcs:
        name = st.c.npc(npc).name
        text = (
            f"Memory of {name}: {scene.header}, session {scene.session}, at {place}. "
            f"{quoted or 'Nothing was said.'}"
        )
        st.emit(
            "memory",
            text,
            Audience.only(STORY),
            data={
                "npc": npc,
                "location": scene.location,
                "place": place,
                "said": [list(s) for s in scene.said],
                "lines": [
                    [who, st.speaker_name(who), text]
                    for who, text in scene.said
                    if who != "narrator"
                ],
            },
        )


def visible_scenes(st: CampaignState, present: tuple[str, ...], speaker: str | None) -> set[int]:
    """Scenes the scene director may see in context ``(present, speaker)``
    (``knowledge.context_knows``): the current one, and those whose attendees' memories
    the context holds."""
    seen = {s.number for s in st.scenes if context_knows(s.npcs, present, speaker)}
    return seen | {st.scenes[-1].number}


def scene_events(st: CampaignState, present: tuple[str, ...], speaker: str | None) -> list[Event]:
    """This session's events of the scenes the context may see, and the memory records of
    closed scenes (this session's and earlier ones) of the NPCs whose knowledge it holds
    (the pool its recall ranks)."""
    scenes = visible_scenes(st, present, speaker)
    out: list[Event] = []
    for e in st.log.events:
        if e.kind == "memory":
            if context_knows((e.data["npc"],), present, speaker):
                out.append(e)
        elif (
            e.audience.kind == "all"
            and e.data.get("session") == st.session
            and e.data.get("scene") in scenes
            and e.kind in SCENE_KINDS
        ):
            out.append(e)
    return out


def entered_scene(st: CampaignState) -> None:
    """Remember what the scene director's view holds now (it is about to be asked)."""
    st.scene_seen.update(e.seq for e in scene_events(st, *scene_context(st)))
