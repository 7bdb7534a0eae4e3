"""The scene director's beat: the narration (phase ``scene``), then one line per NPC present
(phase ``line``), each its own decision whose view holds that NPC's private sheet and no
other's. Each part goes out as soon as it is written, unless the config asks for the story
director's review: then the beat is held and reviewed whole (phase ``review``, one rewrite
at most) and goes out once approved. A finished beat ends the player's turn; the last turn
of a session ends the session."""

from __future__ import annotations

from typing import Any

from parlour.core.actions import Action, Text
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.campaign import requests as req
from parlour.games.campaign import sessions
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.scenes import entered_scene
from parlour.games.campaign.state import SCENE, STORY, CampaignState


def ask(st: CampaignState, cfg: CampaignConfig) -> Decision:
    return req.scene_decision(st.decision_id("scene"), cfg.narrate_max_length, st.rewrite)


def apply(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    value = req.answer(action)
    held = cfg.review and st.rewrites == 0
    # an act's id goes with its words, which a held beat says only once reviewed
    st.draft = {"narration": str(value["narration"]), "lines": [], "held": held, "act": st.act}
    if not held:
        _say_narration(st, st.draft["narration"], st.act)
    _next(st, cfg)


def ask_line(st: CampaignState, cfg: CampaignConfig) -> Decision:
    npc = line_speaker(st)
    decision_id = f"{st.decision_id('scene')}:{npc}"
    return req.line_decision(decision_id, npc, st.c.npc(npc).name, cfg.line_max_length, st.rewrite)


def apply_line(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    assert isinstance(action, Text) and st.draft is not None
    # An empty line is the NPC saying nothing; it still takes its turn in the beat.
    line = {"npc": line_speaker(st), "text": action.text.strip(), "act": st.act}
    st.draft["lines"].append(line)
    if not st.draft["held"]:
        _say_line(st, line)
    _next(st, cfg)


def line_speaker(st: CampaignState) -> str:
    npc = st.line_speaker()
    assert npc is not None, "no line is asked now"
    return npc


def _next(st: CampaignState, cfg: CampaignConfig) -> None:
    """Ask the next NPC's line, or hand the finished beat to the review, or end the beat."""
    st.phase = "line"
    if st.line_speaker() is not None:
        entered_scene(st)
        return
    assert st.draft is not None
    if st.draft["held"]:
        st.phase = "review"
        return
    _end_beat(st, cfg)


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
        st.draft = None
        st.phase = "scene"
        entered_scene(st)
        return
    _publish(st, cfg, draft)


def _say_narration(st: CampaignState, narration: str, act: str) -> None:
    st.scenes[-1].said.append(("narrator", narration))
    st.emit("narration", narration, Audience.everyone(), speaker=SCENE, data=st.acted(act=act))


def _say_line(st: CampaignState, line: dict[str, str]) -> None:
    npc, text = line["npc"], line["text"]
    if not text:
        return
    st.scenes[-1].said.append((npc, text))
    st.emit(
        "line",
        f"{st.c.npc(npc).name}: “{text}”",
        Audience.everyone(),
        # no speaker: the line is the NPC's (its name leads the text), not the seat's
        data=st.acted({"npc": npc, "said": text}, act=line.get("act", "")),
    )


def _publish(st: CampaignState, cfg: CampaignConfig, draft: dict[str, Any]) -> None:
    """A reviewed beat goes out whole, once approved."""
    _say_narration(st, str(draft["narration"]), str(draft.get("act", "")))
    for line in draft["lines"]:
        _say_line(st, line)
    _end_beat(st, cfg)


def _end_beat(st: CampaignState, cfg: CampaignConfig) -> None:
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
