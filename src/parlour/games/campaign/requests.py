"""The decisions each seat is asked, with JSON schemas that spell out every legal answer:
unknown NPC ids, locations, skills and items are schema errors naming the legal ones, which
an LLM seat gets back as feedback for its retry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.actions import Action, Structured
from parlour.core.decisions import Decision, DecisionKind, TextCheck
from parlour.games.campaign.ask import CampaignAsk
from parlour.games.campaign.content import Campaign
from parlour.games.campaign.risks import risk_of

ROUTES = ("continue_scene", "needs_story_director")
ACT_PROMPT = "What do you do or say? (/sheet, /inventory, /recap, /ooc QUESTION, /help)"
GD_PROMPT = (
    "Route the player's turn: continue_scene when the current scene can answer it (talk with "
    "someone present, a small action), needs_story_director when the story must move (going "
    "elsewhere, calling someone new, a big decision). Ask for a skill check only when the "
    "outcome is uncertain and matters."
)
STORY_PROMPT = (
    "Write the synopsis of what happens next for the scene director: the situation in a few "
    "sentences (never a secret the present NPCs do not know), who is present, where."
)
SCENE_PROMPT = (
    "Narrate the scene's next beat in the second person; the NPCs present speak after you, "
    "each in its own turn, so write no dialogue for them."
)
LINE_PROMPT = (
    "{name} speaks now: write only {name}'s line, in character, from what {name} knows; "
    "leave it empty if {name} says nothing."
)
REVIEW_PROMPT = (
    "Check this scene draft against the secrets: does it give away anything the present NPCs "
    "cannot know? Approve it, or ask for one rewrite with a reason."
)
OOC_PROMPT = (
    "The player asks you out of character. Answer in one to three plain sentences: the "
    "rules, their character, where the story stands. Never tell a secret their character "
    "does not know."
)
SHEET_PROMPT = "The session is over. Update this NPC's sheet: attitude to the player and a note."

#: The shared guards (seats/text_guard.py) on the directors' text a person reads: no copied
#: instructions and no loops anywhere; scene text also may not echo the last line of someone
#: else (the player's message said back as narration, another line of the same beat).
PROSE_CHECKS: tuple[TextCheck, ...] = ("prompt_copy", "repetition")
SCENE_CHECKS: tuple[TextCheck, ...] = ("prompt_copy", "repetition", "echo")


def answer(action: Action) -> dict[str, Any]:
    """A structured decision's answer (its schema was checked before it got here)."""
    assert isinstance(action, Structured)
    return action.value


def _enum(values: Sequence[str]) -> dict[str, Any]:
    return {"enum": list(values)}


def _object(properties: dict[str, Any], required: Sequence[str] = ()) -> dict[str, Any]:
    """A JSON object with exactly these properties (no others), ``required`` among them."""
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    schema["properties"] = properties
    return schema


def act_decision(decision_id: str, max_length: int) -> Decision:
    return Decision(
        id=decision_id,
        seat="player",
        kind=DecisionKind.FREE_TEXT,
        purpose="act",
        prompt=ACT_PROMPT,
        max_length=max_length,
        max_tokens=80,
    )


def gd_schema(c: Campaign) -> dict[str, Any]:
    gain: dict[str, Any] = {"hp": {"type": "integer", "minimum": 0, "maximum": 5}}
    cost: dict[str, Any] = {"hp": {"type": "integer", "minimum": 0, "maximum": 5}}
    items = [i.id for i in c.items]
    if items:
        gain["gain_item"] = _enum(items)
        gain["lose_item"] = _enum(items)
    if c.conditions:
        gain["remove_condition"] = _enum(c.conditions)
        cost["add_condition"] = _enum(c.conditions)
    if c.clocks:
        cost["tick"] = _enum([k.id for k in c.clocks])
    check = {
        "skill": _enum(c.skills),
        "difficulty": _enum(list(c.difficulties)),
        "reason": {"type": "string", "minLength": 1, "maxLength": 160},
    }
    return _object(
        {
            "route": _enum(ROUTES),
            "check": _object(check, ["skill", "difficulty", "reason"]),
            "effects": _object(gain),
            "cost": _object(cost),
        },
        ["route"],
    )


def gd_decision(decision_id: str, c: Campaign, message: str) -> Decision:
    risk = risk_of(message, c)
    ask = CampaignAsk(message=message)
    if risk is not None:
        ask = CampaignAsk(
            message=message,
            risk_skill=risk.skill,
            risk_difficulty=risk.difficulty,
            risk_reason=risk.reason,
        )
    return Decision(
        id=decision_id,
        seat="game-director",
        kind=DecisionKind.STRUCTURED,
        purpose="route",
        prompt=GD_PROMPT,
        json_schema=gd_schema(c),
        context=ask.context(),
        max_tokens=160,
        # the check's reason is printed with the roll
        checks=PROSE_CHECKS,
        checked_fields=("check.reason",),
    )


def synopsis_schema(c: Campaign, *, max_npcs: int = 3) -> dict[str, Any]:
    props: dict[str, Any] = {
        "text": {"type": "string", "minLength": 1, "maxLength": 600},
        "npc_list": {"type": "array", "items": _enum(c.npc_ids), "maxItems": max_npcs},
        "location": _enum(c.location_ids),
        "new_scene": {"type": "boolean"},
        "notes_for_self": {"type": "string", "maxLength": 300},
        "ooc_reply": {"type": "string", "maxLength": 300},
        "reveal": {"type": "array", "items": _enum(list(c.secrets())), "maxItems": 1},
    }
    return _object(props, ["text", "npc_list", "location", "new_scene"])


def story_decision(decision_id: str, c: Campaign, purpose: str = "synopsis") -> Decision:
    return Decision(
        id=decision_id,
        seat="story-director",
        kind=DecisionKind.STRUCTURED,
        purpose=purpose,
        prompt=STORY_PROMPT,
        json_schema=synopsis_schema(c),
        max_tokens=300,
        # the synopsis becomes the scene director's brief; the OOC reply goes to the player
        checks=PROSE_CHECKS,
        checked_fields=("text", "ooc_reply"),
    )


def scene_schema(narrate_max: int) -> dict[str, Any]:
    narration = {"type": "string", "minLength": 1, "maxLength": narrate_max}
    return _object({"narration": narration}, ["narration"])


def scene_decision(decision_id: str, narrate_max: int, rewrite: str = "") -> Decision:
    prompt = SCENE_PROMPT + (f" Rewrite your draft: {rewrite}" if rewrite else "")
    return Decision(
        id=decision_id,
        seat="scene-director",
        kind=DecisionKind.STRUCTURED,
        purpose="scene",
        prompt=prompt,
        json_schema=scene_schema(narrate_max),
        max_tokens=300,
        checks=SCENE_CHECKS,
        checked_fields=("narration",),
    )


def line_decision(
    decision_id: str, npc: str, name: str, line_max: int, rewrite: str = ""
) -> Decision:
    prompt = LINE_PROMPT.format(name=name) + (f" Rewrite the beat: {rewrite}" if rewrite else "")
    return Decision(
        id=decision_id,
        seat="scene-director",
        kind=DecisionKind.FREE_TEXT,
        purpose="line",
        prompt=prompt,
        max_length=line_max,
        allow_empty=True,
        context=CampaignAsk(npc=npc).context(),
        max_tokens=120,
        checks=SCENE_CHECKS,
    )


def ooc_decision(decision_id: str, question: str, max_length: int = 300) -> Decision:
    return Decision(
        id=decision_id,
        seat="story-director",
        kind=DecisionKind.FREE_TEXT,
        purpose="ooc",
        prompt=OOC_PROMPT,
        max_length=max_length,
        context=CampaignAsk(message=question).context(),
        max_tokens=120,
        checks=PROSE_CHECKS,
    )


def review_decision(decision_id: str) -> Decision:
    return Decision(
        id=decision_id,
        seat="story-director",
        kind=DecisionKind.STRUCTURED,
        purpose="review",
        prompt=REVIEW_PROMPT,
        json_schema=_object(
            {"approve": {"type": "boolean"}, "reason": {"type": "string", "maxLength": 200}},
            ["approve"],
        ),
        max_tokens=80,
    )


def sheet_decision(decision_id: str, npc: str) -> Decision:
    return Decision(
        id=decision_id,
        seat="story-director",
        kind=DecisionKind.STRUCTURED,
        purpose="sheet",
        prompt=f"{SHEET_PROMPT} NPC: {npc}.",
        json_schema=_object(
            {
                "npc": {"const": npc},
                "attitude": {"type": "string", "minLength": 1, "maxLength": 120},
                "note": {"type": "string", "minLength": 1, "maxLength": 240},
            },
            ["npc", "attitude", "note"],
        ),
        context=CampaignAsk(npc=npc).context(),
        max_tokens=120,
    )
