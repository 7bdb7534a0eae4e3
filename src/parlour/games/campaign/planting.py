"""Leak markers for the conformance suite and ``parlour audit``: one in the PC's history and
each goal, each secret and each NPC agenda (scenes get theirs when they open). Who is
entitled to each is decided at each moment from the state (``entitled``), so they are
planted with no fixed audience."""

from __future__ import annotations

from parlour.core.markers import SecretMarkers
from parlour.games.campaign.content import Campaign, Secret
from parlour.games.campaign.scenes import visible_scenes
from parlour.games.campaign.state import GAME, PLAYER, SCENE, STORY, CampaignState


def _secret(s: Secret, markers: SecretMarkers) -> Secret:
    return s.model_copy(update={"text": s.text + markers.plant(f"secret:{s.id}", ())})


def plant(c: Campaign, markers: SecretMarkers) -> Campaign:
    if not markers.enabled:
        return c
    full = c.pc.full
    full = full.model_copy(
        update={
            "history": full.history + markers.plant("pc:history", ()),
            "goals": tuple(g + markers.plant(f"pc:goal:{n}", ()) for n, g in enumerate(full.goals)),
            "secrets": tuple(_secret(s, markers) for s in full.secrets),
        }
    )
    npcs = tuple(
        n.model_copy(
            update={
                "agenda": n.agenda + markers.plant(f"npc:{n.id}:agenda", ()),
                "secrets": tuple(_secret(s, markers) for s in n.secrets),
            }
        )
        for n in c.npcs
    )
    pc = c.pc.model_copy(update={"full": full})
    return c.model_copy(update={"pc": pc, "npcs": npcs})


def entitled(st: CampaignState) -> dict[str, frozenset[str]]:
    """Who may see each planted marker now (entitlements only grow, except the scene
    director's, which follow who is present)."""
    if not st.markers.enabled:
        return {}
    present = set(st.synopsis.npc_list)
    out: dict[str, frozenset[str]] = {}
    for sid, (owner, _) in st.secrets.items():
        allowed = {STORY}
        if owner == "pc":
            allowed.add(PLAYER)
        if sid in st.revealed:
            allowed |= {PLAYER, GAME}
        if owner in present or present & st.who_knows.get(sid, set()):
            allowed.add(SCENE)
        out[st.markers.name(f"secret:{sid}")] = frozenset(allowed)
    out[st.markers.name("pc:history")] = frozenset({PLAYER, STORY})
    for n in range(len(st.c.pc.full.goals)):
        out[st.markers.name(f"pc:goal:{n}")] = frozenset({PLAYER, STORY})
    for npc in st.c.npc_ids:
        agenda = {STORY, SCENE} if npc in present else {STORY}
        out[st.markers.name(f"npc:{npc}:agenda")] = frozenset(agenda)
    visible = visible_scenes(st)
    for s in st.scenes:
        allowed_scene = {PLAYER, STORY, GAME} | ({SCENE} if s.number in visible else set())
        out[st.markers.name(f"scene:{s.number}")] = frozenset(allowed_scene)
    return out
