"""The player's turn (phase ``act``): a slash command is answered and costs no turn
(``/ooc QUESTION`` by the story director, out of character); any other line is the turn's
message, which the game director routes next."""

from __future__ import annotations

from parlour.core.actions import Action, Text
from parlour.core.decisions import Decision
from parlour.core.events import Audience
from parlour.games.campaign import commands
from parlour.games.campaign import requests as req
from parlour.games.campaign.config import CampaignConfig
from parlour.games.campaign.state import PLAYER, CampaignState
from parlour.games.campaign.views import player_view


def ask(st: CampaignState, cfg: CampaignConfig) -> Decision:
    return req.act_decision(st.decision_id("act"), cfg.act_max_length)


def apply(st: CampaignState, cfg: CampaignConfig, action: Action) -> None:
    assert isinstance(action, Text)
    text = action.text
    question = commands.ooc_question(text) if st.commands < commands.MAX_PER_TURN else None
    if question is not None:
        st.commands += 1
        st.emit("command", text, Audience.only(PLAYER), speaker=PLAYER)
        if not question:
            usage = "Write your question after it, e.g. /ooc how do checks work?"
            st.emit("reply", usage, Audience.only(PLAYER), data={"command": "ooc"})
            return
        st.ooc = question
        st.phase = "ooc"
        return
    command = commands.parse(text) if st.commands < commands.MAX_PER_TURN else None
    if command is not None:
        st.commands += 1
        st.emit("command", text, Audience.only(PLAYER), speaker=PLAYER)
        reply = commands.reply(command, player_view(st, cfg))
        st.emit("reply", reply, Audience.only(PLAYER), data={"command": command})
        return
    st.message = text
    st.scenes[-1].said.append((PLAYER, text))
    st.emit("message", text, Audience.everyone(), speaker=PLAYER, data=st.acted())
    st.phase = "gd"
