"""The scene director's beat (phase ``scene``) and, when the config asks for it, the story
director's review of the draft (phase ``review``, one rewrite at most). A published beat
ends the player's turn; the last turn of a session ends the session."""

from __future__ import annotations

from typing import Any

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.campaign import requests as req
from parlour.games.campaign import sessions
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.scenes import entered_scene
from parlour.games.campaign.state import SCENE, STORY, CampaignState


def ask(st: CampaignState, cfg: CampaignConfig) -> Decision:
    return req.scene_decision(
        st.decision_id("scene"),
        st.synopsis.npc_list,
        cfg.narrate_max_length,
        cfg.line_max_length,
        st.rewrite,
    )


def apply(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    value = req.answer(action)
    if cfg.review and st.rewrites == 0 and st.draft is None:
        st.draft = value
        st.phase = "review"
        return
    _publish(st, cfg, value)


def ask_review(st: CampaignState, cfg: CampaignConfig) -> Decision:
    return req.review_decision(st.decision_id("review"))


def apply_review(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    value = req.answer(action)
    draft = st.draft
    assert draft is not None
    if not value["approve"] and st.rewrites == 0:
        st.rewrites = 1
        st.rewrite = str(value.get("reason", "")).strip() or "keep to what they know"
        st.emit("review", f"rewrite asked: {st.rewrite}", Audience.only(STORY), speaker=STORY)
        st.phase = "scene"
        entered_scene(st)
        return
    _publish(st, cfg, draft)


def _publish(st: CampaignState, cfg: CampaignConfig, value: dict[str, Any]) -> None:
    scene = st.scenes[-1]
    narration = str(value["narration"])
    scene.said.append(("narrator", narration))
    st.emit("narration", narration, Audience.everyone(), speaker=SCENE)
    for line in value["lines"]:
        npc, text = str(line["npc"]), str(line["text"])
        scene.said.append((npc, text))
        st.emit(
            "line",
            f"{st.c.npc(npc).name}: “{text}”",
            Audience.everyone(),
            # no speaker: the line is the NPC's (its name leads the text), not the seat's
            data={"npc": npc, "said": text},
        )
    st.draft, st.rewrite, st.rewrites = None, "", 0
    if st.message is None:  # the opening beat of a session: no turn was played
        st.phase = "act"
        return
    st.message = None
    st.commands = 0
    if st.turn >= cfg.turns_per_session:
        sessions.end_session(st, cfg)
    else:
        st.turn += 1
        st.phase = "act"
