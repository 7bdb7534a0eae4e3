"""The scripted bot: answers the bot protocol's decisions without a model, so the
protocol runs (and is tested) model-free, and is the fallback of model-played bots.

* plan: DumbBot's orders as indices; agenda: propose peace to the first power listed;
* gate: reply only when the message is about the board (a province, unit, order words
  or a question), silence for greetings and small talk;
* reply / initiate: a short fixed text; an initiated message promises the first unit's
  floor order;
* finalise: the floor, i.e. the plan stands.
"""

from __future__ import annotations

import re

from parlour.core.actions import Action, Choice, Structured
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.games.diplomacy.bot_protocol import (
    FINALISE,
    GATE,
    INITIATE,
    PLAN,
    REPLY,
    REPLY_OPT,
    SILENT_OPT,
)
from parlour.games.diplomacy.views import DiplomacyView

_BOARD_WORDS = re.compile(
    r"\b(support|move|attack|hold|convoy|bounce|dmz|peace|ally|alliance|army|fleet|"
    r"[A-Z]{3}|[AF] [A-Z]{3})\b|\?",
)


def needs_reply(text: str) -> bool:
    """Whether a message is about the board (so silence would be rude or costly)."""
    return bool(_BOARD_WORDS.search(text.split("⟦")[0]))


def plan(view: DiplomacyView, decision: Decision, rng: Rng) -> Action:
    from parlour.games.diplomacy.dumbbot import dumbbot_orders
    from parlour.games.diplomacy.policies import board_of

    options: dict[str, list[str]] = decision.context["options"]
    chosen = {str(o) for o in dumbbot_orders(board_of(view), decision.seat, rng)}
    orders = {
        u: next((i for i, text in enumerate(opts) if text in chosen), 0)
        for u, opts in options.items()
    }
    value: dict[str, object] = {"read": "DumbBot's reading of the board.", "orders": orders}
    assert decision.json_schema is not None
    agenda = decision.json_schema["properties"].get("agenda")
    if agenda is not None:
        first = agenda["items"]["properties"]["to"]["enum"][0]
        value["agenda"] = [{"to": first, "about": "peace on our border"}]
    return Structured(value=value)


def bot_answer(view: DiplomacyView, decision: Decision, rng: Rng) -> Action | None:
    """The scripted answer to a bot-protocol decision; None for any other decision."""
    purpose = decision.purpose
    if purpose == PLAN:
        return plan(view, decision, rng)
    if purpose == GATE:
        ok = needs_reply(str(decision.context["message"]))
        return Choice(option=REPLY_OPT if ok else SILENT_OPT)
    if purpose == REPLY:
        text = "Noted. I keep my word while you keep yours."
        return Structured(value={"text": text, "commitments": [], "heard": []})
    if purpose == INITIATE:
        targets: list[str] = decision.context["targets"]
        bot = view.private.bot
        assert decision.json_schema is not None
        whats = decision.json_schema["properties"]["commitments"]["items"]["properties"]["what"]
        promise = [
            {"kind": "promise", "what": o}
            for o in list(bot.floor.values() if bot else [])[:1]
            if o in whats["enum"]
        ]
        text = "Peace on our border this season? I will not move against you."
        return Structured(value={"to": targets[0], "text": text, "commitments": promise})
    if purpose == FINALISE:
        assert decision.default is not None
        return decision.default
    return None
