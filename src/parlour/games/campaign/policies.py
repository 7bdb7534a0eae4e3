"""Scripted seats: a player who talks, explores and tries things, and three directors that
follow plain rules. Each reads only its own view, like a model would."""

from __future__ import annotations

import re
from typing import Any

from parlour.core.actions import Action, Choice, Structured, Text
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.policy import by_purpose
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.campaign.ask import CampaignAsk
from parlour.games.campaign.remembering import asks_to_recall, terms
from parlour.games.campaign.view_types import Recalled

#: what the scripted player tries; {npc} is someone present, {place} a place to go to
PLAYER_LINES = (
    "I ask {npc} what they are working on tonight.",
    "I tell {npc} that I have to leave before sunrise.",
    "I try to sneak past {npc} without being noticed.",
    "I go to {place} to look around.",
    "I ask {npc} whether they saw anything strange last week.",
    "I persuade {npc} to keep this between us.",
    "I try to pick the lock of the cabinet.",
    "I ask {npc} if they remember what I said before.",
    "/ooc how do checks work?",
    "/ooc what should I do next?",
)


#: where the scripted player says it goes (the player's view lists no places)
PLACES = ("the corridor", "the car park", "the lab", "the gate", "the inn")


def unasked_lines(view: AnyView) -> list[str]:
    """``PLAYER_LINES`` without the out-of-character questions already asked."""
    asked = {e.text for e in view.events if e.kind == "command"}
    return [line for line in PLAYER_LINES if line not in asked]


def scripted_player(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """A line of ``PLAYER_LINES``; an out-of-character question is asked once a game."""
    table = view.public
    npc = rng.choice(table.present) if table.present else "anyone nearby"
    place = rng.choice(PLACES)
    line = rng.choice(unasked_lines(view)).format(npc=npc, place=place)
    return Text(text=line[: decision.max_length])


def scripted_route(view: AnyView, decision: Decision) -> str:
    """The route the scripted game director takes: the story moves when the player goes
    somewhere, else the scene goes on."""
    message = str(view.public.message or CampaignAsk.of(decision).message)
    return "needs_story_director" if message.lower().startswith("i go") else "continue_scene"


def route_answer(decision: Decision, route: str) -> dict[str, Any]:
    """The game director's answer taking ``route``, with the check the engine's rule
    (``risks.py``) holds the action to and a cost if it goes wrong."""
    ask = CampaignAsk.of(decision)
    schema = decision.json_schema or {}
    value: dict[str, Any] = {"route": route}
    if ask.risk_skill:
        value["check"] = {
            "skill": ask.risk_skill,
            "difficulty": ask.risk_difficulty,
            "reason": ask.risk_reason,
        }
        cost = schema.get("properties", {}).get("cost", {}).get("properties", {})
        value["cost"] = {"hp": 1}
        if "tick" in cost:
            value["cost"]["tick"] = cost["tick"]["enum"][0]
    return value


def scripted_game_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """Moves the story when the player goes somewhere; asks for the check the engine's rule
    (``risks.py``) holds the action to, with a cost if it goes wrong."""
    return Structured(value=route_answer(decision, scripted_route(view, decision)))


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
    value = move_answer(view, place, npcs)
    secrets: list[str] = schema["reveal"]["items"]["enum"]
    if secrets and rng.random() < 0.3:
        value["reveal"] = [rng.choice(secrets)]
        value["notes_for_self"] = "A secret came out; watch who heard it."
    return Structured(value=value)


def move_answer(view: AnyView, place: str, npcs: list[str]) -> dict[str, Any]:
    """A synopsis that opens a new scene at ``place`` with ``npcs`` there."""
    names = {n.id: n.name for n in view.public.npcs}
    waiting = " and ".join(names.get(n, n) for n in npcs)
    return {
        # the narration names the place; a place's name can be a word of a secret too
        "text": f"You arrive. {waiting} {'is' if len(npcs) == 1 else 'are'} here.",
        "npc_list": npcs,
        "location": place,
        "new_scene": True,
    }


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


#: how a check's outcome reads in the narration, by band (one not told yet in the scene)
OUTCOMES: dict[str, tuple[str, ...]] = {
    "complication": ("It goes wrong, and not quietly.", "It goes badly wrong.", "No luck."),
    "mixed": ("It works, but not cleanly.", "It half works.", "You manage, just."),
    "success": ("It works.", "You pull it off.", "It goes as planned."),
    "success with style": ("It works better than you hoped.", "Flawless."),
}
#: the narrator's last resort when a place has no details left to tell
QUIET = ("For a moment nobody moves.", "Somewhere a door closes.", "The quiet stretches.")


def _turn_check(now: list[Event]) -> str | None:
    """The band of the check rolled since the player's last message in this scene."""
    band = None
    for e in now:
        if e.kind == "message":
            band = None
        elif e.kind == "check":
            band = str(e.data.get("band", ""))
    return band or None


def narrations(view: AnyView) -> list[str]:
    """The beats the scripted narrator can tell now, its own first: the scene set on its
    first beat; on later ones how a check came out and a detail of the place not told yet
    in this scene (one option per such detail)."""
    facts = view.public
    now = _said_now(view)
    told = " ".join(e.text for e in now if e.kind == "narration")
    if not told:
        return [f"{facts.location}. {facts.location_description} {facts.synopsis}"]
    band = _turn_check(now)
    outcome = []
    if band in OUTCOMES:
        outcomes = OUTCOMES[band]
        outcome.append(next((o for o in outcomes if o not in told), outcomes[0]))
    fresh = [d for d in (*facts.location_details, *QUIET) if d not in told]
    details = fresh or [f"The moment hangs in {facts.location}."]
    return [" ".join([*outcome, d]) for d in details]


def narration_limit(decision: Decision) -> int:
    return int((decision.json_schema or {})["properties"]["narration"]["maxLength"])


def scripted_scene_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """Sets the scene on its first beat; later beats tell how a check came out and one
    detail of the place not told yet in this scene."""
    return Structured(value={"narration": narrations(view)[0][: narration_limit(decision)]})


#: words that say what a player's message is about (``content.TOPICS``), in this order
TOPIC_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("threat", ("threaten", "or else", "hurt", "warn you", "scare")),
    ("farewell", ("leave", "goodbye", "bye", "have to go", "must go", "see you")),
    ("help", ("help", "please", "need", "keep this", "between us")),
    ("ask", ("ask", "?", "what", "why", "where", "who", "how", "whether")),
    ("tell", ("tell", "say", "explain", "admit", "confess", "show")),
)
#: an NPC's lines when its campaign gives none for the topic (nor a ``default``)
GENERIC = {
    "greet": ("Oh. {pc}. Hello.",),
    "recall": ("{then}, wasn't it? {memory}.",),
    "forgot": ("I don't remember anything like that.", "You must be thinking of someone else."),
    "just_now": ("Just now? {memory}.", "A minute ago {memory}."),
    "default": ("Hm.", "Go on.", "I'm listening."),
}


def topic_of(message: str) -> str:
    if asks_to_recall(message):
        return "recall"
    text = message.lower()
    for topic, words in TOPIC_WORDS:
        if any(w in text for w in words):
            return topic
    return "default"


def _memory_words(r: Recalled, npc: str) -> str:
    quote = r.text.strip().rstrip(".!?")
    quote = quote if len(quote) <= 140 else quote[:139].rstrip() + "…"
    if r.who == "player":
        return f"you said '{quote}'"
    if r.who == npc:
        return f"I told you '{quote}'"
    return f"{r.name} said '{quote}'"


def _pick(options: list[str], used: str, rng: Rng) -> str:
    """A line not said yet in this scene, when there is one."""
    fresh = [o for o in options if o not in used]
    return rng.choice(fresh or options)


def _sentence_case(text: str) -> str:
    return re.sub(r"([.!?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


def _addressed(message: str, view: AnyView) -> bool:
    """Is the NPC who speaks now the one the message is for (or is it for nobody)?"""
    text = message.lower()
    named = [n.name for n in view.private.npcs if n.name.split()[0].lower() in text]
    return not named or view.private.speaker.name in named


def npc_line(view: AnyView, rng: Rng) -> str:
    """The line the NPC who speaks now says, from the campaign's lines and reactions and
    from what it recalls of earlier scenes it witnessed. An NPC the player's message is
    not for says nothing, unless it reacts to a check."""
    private = view.private
    sheet = private.speaker
    now = _said_now(view)
    messages = [e.text for e in now if e.kind == "message"]
    said = " ".join(e.data.get("said", "") for e in now if e.kind == "line")
    first = view.public.pc.name.split()[0]
    slots = {"pc": first, "place": view.public.location, "then": "", "memory": ""}
    band = _turn_check(now)
    topic = topic_of(messages[-1]) if messages else "greet"
    lines: dict[str, list[str]] = private.lines
    if band is not None and private.reactions.get(band):
        return _pick(private.reactions[band], said, rng).format_map(slots)
    if messages and not _addressed(messages[-1], view):
        return ""
    fresh = [r for r in private.recalled if r.text not in said]
    best = fresh[0] if fresh else None
    if messages and best is not None:
        shared = terms(messages[-1]) & terms(best.text)
        if topic == "recall" or len(shared) >= 2:
            slots.update(then=best.place, memory=_memory_words(best, sheet.id))
            text = _pick(lines.get("recall") or list(GENERIC["recall"]), said, rng)
            return _sentence_case(text.format_map(slots))
    if topic == "recall":
        # nothing from an earlier scene: what the player said earlier in this one
        earlier = [m for m in messages[:-1] if not asks_to_recall(m) and m not in said]
        if earlier:
            quote = earlier[-1].strip().rstrip(".!?")
            slots.update(memory=f"you said '{quote}'")
            return _sentence_case(_pick(list(GENERIC["just_now"]), said, rng).format_map(slots))
        return _pick(list(GENERIC["forgot"]), said, rng).format_map(slots)
    options = (
        lines.get(topic) or lines.get("default") or list(GENERIC.get(topic, GENERIC["default"]))
    )
    return _pick(options, said, rng).format_map(slots)


def npc_line_options(view: AnyView, rng: Rng) -> list[str]:
    """The lines the NPC who speaks now may say, ``npc_line``'s first, then silence ("")
    and the campaign's other lines for the moment: its reactions to a check rolled this
    turn; a murmur (its default lines) when the message is for someone else; else what
    it recalls of earlier scenes it witnessed, its lines for the message's topic, and its
    default lines when those are few. Only the NPC's own view is read, so no option holds
    what it did not witness."""
    first = npc_line(view, rng)
    private = view.private
    now = _said_now(view)
    messages = [e.text for e in now if e.kind == "message"]
    said = " ".join(e.data.get("said", "") for e in now if e.kind == "line")
    slots = {"pc": view.public.pc.name.split()[0], "place": view.public.location}
    slots |= {"then": "", "memory": ""}
    band = _turn_check(now)
    topic = topic_of(messages[-1]) if messages else "greet"
    lines: dict[str, list[str]] = private.lines
    defaults = [t.format_map(slots) for t in lines.get("default") or GENERIC["default"]]
    reactions = private.reactions.get(band, []) if band is not None else []
    pool: list[str] = []
    if reactions:
        pool += [t.format_map(slots) for t in reactions]
    elif messages and not _addressed(messages[-1], view):
        pool += defaults
    else:
        fresh = [r for r in private.recalled if r.text not in said]
        if messages and fresh:
            then = {"then": fresh[0].place, "memory": _memory_words(fresh[0], private.speaker.id)}
            recall = lines.get("recall") or list(GENERIC["recall"])
            pool += [_sentence_case(t.format_map(slots | then)) for t in recall]
        elif topic == "recall":
            pool += GENERIC["forgot"]
        if topic != "recall":
            pool += [t.format_map(slots) for t in lines.get(topic) or GENERIC.get(topic, ())]
        if len(pool) < 3:
            pool += defaults
    unsaid = [t for t in pool if t and t not in said and t != first]
    return list(dict.fromkeys([first, *unsaid, ""]))


def scripted_line(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """The NPC whose line it is speaks from the campaign's own content (``npc_line``)."""
    return Text(text=npc_line(view, rng)[: decision.max_length])


#: what the scripted story director answers out of character, by what the question is about
OOC_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rules", ("check", "roll", "dice", "d20", "skill", "difficult")),
    ("state", ("hp", "health", "hurt", "inventory", "carry", "hit point")),
    ("where", ("where", "who", "here", "scene", "session", "turn")),
    ("goals", ("goal", "should", "next", "stuck", "what now", "do now", "how do i")),
)


def ooc_answers(view: AnyView) -> dict[str, str]:
    """The story director's out-of-character answers by what a question is about
    (``OOC_WORDS``; "" for anything else): rules, the character's state, where the story
    stands, the player's own goals; never a secret (and the gate screens them)."""
    facts = view.public
    names = {n.id: n.name for n in facts.npcs}
    conditions = ", ".join(facts.pc.conditions) or "none"
    present = ", ".join(names.get(n, n) for n in facts.present) or "nobody"
    place = facts.locations.get(facts.location, facts.location)
    goals = "; ".join(g.strip().rstrip(".") for g in facts.pc_sheet.goals) or "yours"
    return {
        "rules": (
            "A check rolls 1d20 plus your skill's modifier (/sheet lists them) against the "
            "difficulty's number. Falling a little short works at a cost; a natural 1 goes "
            "wrong, a natural 20 goes very well."
        ),
        "state": (
            f"You have {facts.pc.hp} HP; conditions: {conditions}. /inventory lists what you carry."
        ),
        "where": f"You are at {place} with {present}; session {facts.session}, turn {facts.turn}.",
        "goals": (
            f"Your goals: {goals}. Talk to someone present, try something that can fail, or "
            "go somewhere new: going somewhere moves the story."
        ),
        "": "That is for your character to find out in play: ask someone, or go and look.",
    }


def ooc_about(question: str) -> str:
    """What an out-of-character question is about (``OOC_WORDS``), or ""."""
    text = question.lower()
    return next((k for k, words in OOC_WORDS if any(w in text for w in words)), "")


def scripted_ooc(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """The story director out of character: the answer for what the question is about."""
    text = ooc_answers(view)[ooc_about(CampaignAsk.of(decision).message)]
    return Text(text=text[: decision.max_length])


def scripted_review(view: AnyView, decision: Decision, rng: Rng) -> Action:
    return Structured(value={"approve": True})


def scripted_sheet(view: AnyView, decision: Decision, rng: Rng) -> Action:
    npc = CampaignAsk.of(decision).npc
    return Structured(
        value={"npc": npc, "attitude": "wary but curious", "note": "Met the player this session."}
    )


_by_purpose = by_purpose(
    {
        "act": scripted_player,
        "route": scripted_game_director,
        "synopsis": scripted_story_director,
        "open": scripted_story_director,
        "scene": scripted_scene_director,
        "line": scripted_line,
        "review": scripted_review,
        "ooc": scripted_ooc,
    },
    scripted_sheet,
)


def campaign_policy(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """Every seat's script; for an act (``acts.py``) its first option, the script's own
    answer worded by the game."""
    if CampaignAsk.is_act(decision):
        return Choice(option=decision.options[0].id)
    return _by_purpose(view, decision, rng)


def campaign_fallback(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """A failed story director continues the current scene; other seats play their script
    (an act's: its first option)."""
    if decision.purpose == "synopsis" and not CampaignAsk.is_act(decision):
        return continue_scene(view, decision)
    return campaign_policy(view, decision, rng)
