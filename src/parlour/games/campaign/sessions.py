"""Session ends (phase ``sheets``): the scene closes, the story director updates the sheet
of every NPC met this session, then the next session opens or the campaign ends."""

from __future__ import annotations

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.campaign import requests as req
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.scenes import close_scene
from parlour.games.campaign.state import STORY, CampaignState


def end_session(st: CampaignState, cfg: CampaignConfig) -> None:
    close_scene(st)
    met = [n for s in st.scenes if s.session == st.session for n in s.npcs]
    st.sheet_queue = list(dict.fromkeys(met))
    st.emit("session", f"End of session {st.session}.", Audience.everyone())
    st.phase = "sheets" if st.sheet_queue else "over"
    if not st.sheet_queue:
        _next_session(st, cfg)


def ask_sheet(st: CampaignState, cfg: CampaignConfig) -> Decision:
    npc = st.sheet_queue[0]
    return req.sheet_decision(f"{st.decision_id('sheet')}:{npc}", npc)


def apply_sheet(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    value = req.answer(action)
    npc = st.sheet_queue.pop(0)
    progress = st.npc[npc]
    progress.attitude = str(value["attitude"])
    progress.notes.append(str(value["note"]))
    st.emit(
        "sheet",
        f"{st.c.npc(npc).name}'s sheet: {progress.attitude}; {value['note']}",
        Audience.only(STORY),
        speaker=STORY,
        data={"npc": npc},
    )
    if not st.sheet_queue:
        _next_session(st, cfg)


def _next_session(st: CampaignState, cfg: CampaignConfig) -> None:
    if st.ending or st.session >= cfg.sessions:
        st.phase = "over"
        st.emit("ending", st.ending or "The campaign rests here.", Audience.everyone())
        return
    st.session += 1
    st.turn = 1
    st.emit("session", f"Session {st.session} begins.", Audience.everyone())
    st.phase = "open"
