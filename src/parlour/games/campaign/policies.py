"""Scripted seats: a player who talks, explores and tries things, and three directors that
follow plain rules. Each reads only its own view, like a model would."""

from __future__ import annotations

from typing import Any

from parlour.core.actions import Action, Structured, Text
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.policy import by_purpose
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.campaign.ask import CampaignAsk

#: what the scripted player tries; {npc} is someone present, {place} a place to go to
PLAYER_LINES = (
    "I ask {npc} what they are working on tonight.",
    "I tell {npc} that I have to leave before sunrise.",
    "I try to sneak past {npc} without being noticed.",
    "I go to {place} to look around.",
    "I ask {npc} whether they saw anything strange last week.",
    "I persuade {npc} to keep this between us.",
)


def scripted_player(view: AnyView, decision: Decision, rng: Rng) -> Action:
    table = view.public
    npc = rng.choice(table.present) if table.present else "anyone nearby"
    place = rng.choice(["the corridor", "the car park", "the lab", "the gate", "the inn"])
    line = rng.choice(PLAYER_LINES).format(npc=npc, place=place)
    return Text(text=line[: decision.max_length])


def _skill_for(message: str, skills: list[str]) -> str | None:
    words = message.lower()
    hints = {"sneak": ("sneak", "hide", "quiet"), "persuade": ("persuade", "convince")}
    for skill in skills:
        if skill in words or any(h in words for h in hints.get(skill, ())):
            return skill
    return None


def scripted_game_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    table = view.public
    message = str(table.message or CampaignAsk.of(decision).message)
    schema = decision.json_schema or {}
    route = "needs_story_director" if message.lower().startswith("i go") else "continue_scene"
    value: dict[str, Any] = {"route": route}
    skill = _skill_for(message, list(table.skills))
    if skill is not None:
        levels = sorted(table.difficulties, key=lambda k: table.difficulties[k])
        value["check"] = {
            "skill": skill,
            "difficulty": levels[len(levels) // 2],
            "reason": "the outcome is uncertain",
        }
        cost = schema.get("properties", {}).get("cost", {}).get("properties", {})
        value["cost"] = {"hp": 1}
        if "tick" in cost:
            value["cost"]["tick"] = cost["tick"]["enum"][0]
    return Structured(value=value)


def scripted_story_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    facts = view.public
    schema = (decision.json_schema or {})["properties"]
    npc_ids: list[str] = schema["npc_list"]["items"]["enum"]
    places: list[str] = schema["location"]["enum"]
    message = (facts.message or "").lower()
    move = decision.purpose == "open" or message.startswith("i go")
    if not move:
        return continue_scene(view, decision)
    place = next((p for p in places if p.replace("_", " ") in message), rng.choice(places))
    npcs = rng.sample(npc_ids, rng.randint(1, min(2, len(npc_ids))))
    value: dict[str, Any] = {
        "text": f"You arrive at {facts.locations.get(place, place)}. Someone is waiting.",
        "npc_list": npcs,
        "location": place,
        "new_scene": True,
    }
    secrets: list[str] = schema["reveal"]["items"]["enum"]
    if secrets and rng.random() < 0.3:
        value["reveal"] = [rng.choice(secrets)]
        value["notes_for_self"] = "A secret came out; watch who heard it."
    return Structured(value=value)


def continue_scene(view: AnyView, decision: Decision) -> Action:
    """The story director's fallback: the current scene goes on as it is."""
    facts = view.public
    return Structured(
        value={
            "text": facts.synopsis,
            "npc_list": list(facts.present),
            "location": facts.location,
            "new_scene": False,
        }
    )


def _said_now(view: AnyView) -> list[Event]:
    facts = view.public
    return [e for e in view.events if e.phase == view.phase and e.data.get("scene") == facts.scene]


def scripted_scene_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """Sets the scene on its first beat, then lets the moment hang."""
    facts = view.public
    if any(e.kind == "narration" for e in _said_now(view)):
        narration = f"The moment hangs in {facts.location}."
    else:
        narration = f"{facts.location}. {facts.synopsis}"
    limit = int((decision.json_schema or {})["properties"]["narration"]["maxLength"])
    return Structured(value={"narration": narration[:limit]})


def scripted_line(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """The NPC whose line it is answers the player, quoting what they just said."""
    sheet = view.private.speaker
    said = [e.text for e in _said_now(view) if e.kind == "message"]
    text = f'You said "{said[-1]}". Hm.' if said else f"{sheet.name} looks up at you."
    return Text(text=text[: min(200, decision.max_length)])


def scripted_review(view: AnyView, decision: Decision, rng: Rng) -> Action:
    return Structured(value={"approve": True})


def scripted_sheet(view: AnyView, decision: Decision, rng: Rng) -> Action:
    npc = CampaignAsk.of(decision).npc
    return Structured(
        value={"npc": npc, "attitude": "wary but curious", "note": "Met the player this session."}
    )


campaign_policy = by_purpose(
    {
        "act": scripted_player,
        "route": scripted_game_director,
        "synopsis": scripted_story_director,
        "open": scripted_story_director,
        "scene": scripted_scene_director,
        "line": scripted_line,
        "review": scripted_review,
    },
    scripted_sheet,
)


def campaign_fallback(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """A failed story director continues the current scene; other seats play their script."""
    if decision.purpose == "synopsis":
        return continue_scene(view, decision)
    return campaign_policy(view, decision, rng)
