"""The story director's synopsis (phases ``open`` and ``story``): where the story goes and
who is there, its own notes, an out-of-character reply, and a secret revealed on purpose
to the NPCs present; and its out-of-character answers to the player (phase ``ooc``)."""

from __future__ import annotations

from parlour.core.actions import Action, Text
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.campaign import requests as req
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.scenes import close_scene, entered_scene, open_scene
from parlour.games.campaign.state import PLAYER, STORY, CampaignState, Synopsis


def ask(st: CampaignState, cfg: CampaignConfig) -> Decision:
    purpose = "open" if st.phase == "open" else "synopsis"
    return req.story_decision(st.decision_id(st.phase), st.c, purpose)


def apply(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    value = req.answer(action)
    npcs = tuple(dict.fromkeys(str(n) for n in value["npc_list"]))
    location = str(value["location"])
    current = st.scenes[-1]
    st.synopsis = Synopsis(text=str(value["text"]), npc_list=npcs, location=location)
    # A change of place or of who is present is a new scene: scene attendance (and so
    # every NPC's memory) is fixed for the whole of a scene.
    changed = npcs != current.npcs or location != current.location
    if st.phase == "open" or bool(value["new_scene"]) or changed:
        close_scene(st)
        open_scene(st)
    notes = str(value.get("notes_for_self", "")).strip()
    if notes:
        st.notes_for_self.append(notes)
        st.emit("notes", notes, Audience.only(STORY), speaker=STORY)
    ooc = str(value.get("ooc_reply", "")).strip()
    if ooc:
        st.emit("ooc", ooc, Audience.only(PLAYER), speaker=STORY, data=st.acted())
    for secret_id in value.get("reveal") or []:
        reveal(st, str(secret_id))
    st.phase = "scene"
    entered_scene(st)


def ask_ooc(st: CampaignState, cfg: CampaignConfig) -> Decision:
    return req.ooc_decision(st.decision_id("ooc"), st.ooc)


def apply_ooc(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    """The out-of-character answer goes to the player only (screened: ``gates.py``); the
    turn goes on."""
    assert isinstance(action, Text)
    text = action.text.strip() or "No answer to that, out of character."
    data = st.acted({"question": st.ooc})
    st.emit("ooc", text, Audience.only(PLAYER), speaker=STORY, data=data)
    st.ooc = ""
    st.phase = "act"


def reveal(st: CampaignState, secret_id: str) -> None:
    """The NPCs present now learn the secret; nobody else (the player's table does)."""
    owner, secret = st.secrets[secret_id]
    witnesses = set(st.scenes[-1].npcs) - {owner}
    known = st.who_knows.setdefault(secret_id, set())
    known.update(witnesses)
    if secret_id not in st.revealed:
        st.revealed.append(secret_id)
    names = ", ".join(st.c.npc(n).name for n in sorted(witnesses)) or "only you"
    st.emit(
        "reveal",
        f"Revealed to {names}: {secret.text}",
        Audience.everyone(),
        data={"secret": secret_id, "witnesses": sorted(witnesses)},
    )
