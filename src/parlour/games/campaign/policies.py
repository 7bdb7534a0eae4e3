"""Scripted seats: a player who talks, explores and tries things, and three directors that
follow plain rules. Each reads only its own view, like a model would."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from parlour.core.actions import Action, Choice, Structured, Text
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.policy import by_purpose
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.core.wording import capitalised
from parlour.games.campaign.ask import CampaignAsk, WordingAsk
from parlour.games.campaign.remembering import asks_to_recall, terms
from parlour.games.campaign.view_types import NpcSheet, Recalled
from parlour.games.campaign.wording import (
    ARRIVALS,
    PLAYER_ACTS,
    REASONS_AGAIN,
    RETURN_ARRIVALS,
    RETURN_OPENINGS,
    event_texts,
    first_name,
    freshest,
    freshest_first,
    goes_somewhere,
    reported,
    said_phrases,
    stale,
    tokens,
)

#: what the scripted player tries, in its plain wording (``wording.PLAYER_ACTS`` has more)
PLAYER_LINES = tuple(act[0] for act in PLAYER_ACTS)


#: where the scripted player says it goes when its view names no other place (the
#: player's view lists no places: it knows those its scenes were at)
ELSEWHERE = "another spot nearby"


def known_places(view: AnyView) -> list[str]:
    """The places of the scenes in the player's view other than the one it is at, first
    seen first; ``ELSEWHERE`` when there are none (a player names no place it has not
    been told of)."""
    here = view.public.location
    seen = [str(e.data["place"]) for e in view.events if e.kind == "scene"]
    places = [p for p in dict.fromkeys(seen) if p != here]
    return places or [ELSEWHERE]


def unasked_acts(view: AnyView) -> list[tuple[str, ...]]:
    """``PLAYER_ACTS`` without the out-of-character questions already asked."""
    asked = {e.text for e in view.events if e.kind == "command"}
    return [act for act in PLAYER_ACTS if act[0] not in asked]


def unasked_lines(view: AnyView) -> list[str]:
    """``PLAYER_LINES`` without the out-of-character questions already asked."""
    return [act[0] for act in unasked_acts(view)]


def player_wording(
    act: Sequence[str], npc: str, place: str, said: set[tuple[str, ...]] | None, rng: Rng
) -> str:
    """The act's wording that repeats the fewest phrases in ``said``; its plain wording
    when ``said`` is None (a game stored before ``fresh_wording``)."""
    slots = {"npc": npc, "first": first_name(npc), "place": place}
    if said is None:
        return act[0].format_map(slots)
    return freshest([w.format_map(slots) for w in act], said, rng)


def fresh_said(view: AnyView, decision: Decision) -> set[tuple[str, ...]] | None:
    """The phrases said in the seat's view when the decision words lines afresh, else None."""
    return said_phrases(view.events) if WordingAsk.is_fresh(decision) else None


def fresh_rng(decision: Decision, rng: Rng) -> Rng | None:
    """The ``Rng`` to word lines afresh with when the decision asks for it, else None (a
    game stored before ``fresh_wording`` is worded as it was)."""
    return rng if WordingAsk.is_fresh(decision) else None


def moves(message: str, decision: Decision) -> bool:
    """Does the player's message move the story? (Before ``fresh_wording``: "I go …" only.)"""
    if WordingAsk.is_fresh(decision):
        return goes_somewhere(message)
    return message.lower().startswith("i go")


def scripted_player(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """An act of ``PLAYER_ACTS`` in its freshest wording; an out-of-character question is
    asked once a game."""
    table = view.public
    npc = rng.choice(table.present) if table.present else "anyone nearby"
    place = rng.choice(known_places(view))
    act = rng.choice(unasked_acts(view))
    line = player_wording(act, npc, place, fresh_said(view, decision), rng)
    return Text(text=line[: decision.max_length])


def scripted_route(view: AnyView, decision: Decision) -> str:
    """The route the scripted game director takes: the story moves when the player goes
    somewhere, else the scene goes on."""
    message = str(view.public.message or CampaignAsk.of(decision).message)
    return "needs_story_director" if moves(message, decision) else "continue_scene"


def check_reason(view: AnyView, reason: str, rng: Rng) -> str:
    """The rule's reason for a check; once it was given in what the seat saw, the freshest
    of ``REASONS_AGAIN`` instead (the same lock does not need describing twice)."""
    checks = [e.text for e in view.events if e.kind == "check"]
    if not any(f" — {reason}: " in text for text in checks):
        return reason
    return freshest(REASONS_AGAIN, said_phrases(view.events), rng)


def route_answer(
    decision: Decision, route: str, view: AnyView | None = None, rng: Rng | None = None
) -> dict[str, Any]:
    """The game director's answer taking ``route``, with the check the engine's rule
    (``risks.py``) holds the action to and a cost if it goes wrong; the reason worded
    afresh (``check_reason``) when the decision asks for it and ``view`` and ``rng`` are
    given."""
    ask = CampaignAsk.of(decision)
    schema = decision.json_schema or {}
    value: dict[str, Any] = {"route": route}
    if ask.risk_skill:
        reason = ask.risk_reason
        if view is not None and rng is not None and WordingAsk.is_fresh(decision):
            reason = check_reason(view, reason, rng)
        value["check"] = {
            "skill": ask.risk_skill,
            "difficulty": ask.risk_difficulty,
            "reason": reason,
        }
        cost = schema.get("properties", {}).get("cost", {}).get("properties", {})
        value["cost"] = {"hp": 1}
        if "tick" in cost:
            value["cost"]["tick"] = cost["tick"]["enum"][0]
    return value


def scripted_game_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """Moves the story when the player goes somewhere; asks for the check the engine's rule
    (``risks.py``) holds the action to, with a cost if it goes wrong."""
    return Structured(value=route_answer(decision, scripted_route(view, decision), view, rng))


def scripted_story_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    facts = view.public
    schema = (decision.json_schema or {})["properties"]
    npc_ids: list[str] = schema["npc_list"]["items"]["enum"]
    places: list[str] = schema["location"]["enum"]
    message = (facts.message or "").lower()
    move = decision.purpose == "open" or moves(message, decision)
    if not move:
        return continue_scene(view, decision)
    # a player who leaves without naming a place goes somewhere other than where it is
    away = [p for p in places if p != facts.location] if decision.purpose != "open" else []
    named = next((p for p in places if p.replace("_", " ") in message), None)
    place = named or rng.choice(away or places)
    npcs = rng.sample(npc_ids, rng.randint(1, min(2, len(npc_ids))))
    value = move_answer(view, place, npcs, fresh_rng(decision, rng))
    secrets: list[str] = schema["reveal"]["items"]["enum"]
    if secrets and rng.random() < 0.3:
        value["reveal"] = [rng.choice(secrets)]
        value["notes_for_self"] = "A secret came out; watch who heard it."
    return Structured(value=value)


def move_answer(
    view: AnyView, place: str, npcs: list[str], rng: Rng | None = None
) -> dict[str, Any]:
    """A synopsis that opens a new scene at ``place`` with ``npcs`` there: the freshest
    of ``ARRIVALS`` when ``rng`` is given (of ``RETURN_ARRIVALS`` when an earlier scene
    was at that place), else the first."""
    facts = view.public
    names = {n.id: n.name for n in facts.npcs}
    slots = {
        "who": " and ".join(names.get(n, n) for n in npcs),
        "verb": "is" if len(npcs) == 1 else "are",
    }
    name = facts.locations.get(place, place)
    back = any(e.kind == "scene" and e.data["place"] == name for e in view.events)
    arrivals = [capitalised(a.format_map(slots)) for a in (RETURN_ARRIVALS if back else ARRIVALS)]
    text = arrivals[0] if rng is None else freshest(arrivals, said_phrases(view.events), rng)
    return {
        # the narration names the place; a place's name can be a word of a secret too
        "text": text,
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
#: and, worded afresh (``fresh_wording``), these too: beats that fit any place
MORE_QUIET = (
    "Nobody speaks.",
    "Footsteps pass outside and fade.",
    "A clock ticks somewhere.",
    "The silence holds a little longer.",
    "A draught stirs, then dies.",
    "You wait. Nothing happens.",
)


def _turn_check(now: list[Event]) -> str | None:
    """The band of the check rolled since the player's last message in this scene."""
    band = None
    for e in now:
        if e.kind == "message":
            band = None
        elif e.kind == "check":
            band = str(e.data.get("band", ""))
    return band or None


def narrations(view: AnyView, rng: Rng | None = None) -> list[str]:
    """The beats the scripted narrator can tell now, its own first: the scene set on its
    first beat (place, description, synopsis; with ``rng``, a place the story director's
    synopsis says the player is back at, ``RETURN_OPENINGS``, is not described again);
    on later ones how a check came out and a detail of the place not told yet in this
    scene (one option per such detail, the freshest first when ``rng`` is given)."""
    facts = view.public
    now = _said_now(view)
    told = " ".join(e.text for e in now if e.kind == "narration")
    said = said_phrases(view.events)
    if not told:
        if rng is not None and facts.synopsis.startswith(RETURN_OPENINGS):
            return [f"{facts.location}. {facts.synopsis}"]
        return [f"{facts.location}. {facts.location_description} {facts.synopsis}"]
    band = _turn_check(now)
    outcome = []
    if band in OUTCOMES:
        outcomes = OUTCOMES[band]
        unsaid = [o for o in outcomes if o not in told] or list(outcomes)
        outcome.append(unsaid[0] if rng is None else freshest(unsaid, said, rng))
    quiet = QUIET if rng is None else (*QUIET, *MORE_QUIET)
    fresh = [d for d in (*facts.location_details, *quiet) if d not in told]
    if rng is not None:
        # a model may pick any option: of the details, those not said before, if any
        narrated = {e.text for e in view.events if e.kind == "narration"}
        unsaid = [d for d in fresh if stale(d, said) == 0 and not _in(d, narrated)]
        if unsaid:  # the place's own details first, then the quiet beats
            place = [d for d in unsaid if d in facts.location_details]
            rest = [d for d in unsaid if d not in place]
            fresh = freshest_first(place, said, rng) + freshest_first(rest, said, rng)
        else:
            fresh = freshest_first(fresh, said, rng)
    details = fresh or [f"The moment hangs in {facts.location}."]
    return [" ".join([*outcome, d]) for d in details]


def _in(line: str, texts: set[str]) -> bool:
    return any(line in t for t in texts)


def narration_limit(decision: Decision) -> int:
    return int((decision.json_schema or {})["properties"]["narration"]["maxLength"])


def scripted_scene_director(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """Sets the scene on its first beat; later beats tell how a check came out and one
    detail of the place not told yet in this scene."""
    told = narrations(view, fresh_rng(decision, rng))
    return Structured(value={"narration": told[0][: narration_limit(decision)]})


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


def _says(text: str, word: str) -> bool:
    """Is ``word`` (or phrase) in ``text`` whole, or with a plain ending ("asking",
    "threatened")? Never inside another word: "Sayer" is not "say", "show" not "how"."""
    if not word[0].isalnum():
        return word in text
    return re.search(rf"\b{re.escape(word)}(?:s|es|ed|d|ing)?\b", text) is not None


def topic_of(message: str) -> str:
    if asks_to_recall(message):
        return "recall"
    text = message.lower()
    for topic, words in TOPIC_WORDS:
        if any(_says(text, w) for w in words):
            return topic
    return "default"


def _memory_words(
    r: Recalled, npc: str, npc_name: str = "", fresh: bool = False, others: Sequence[str] = ()
) -> str:
    """What the NPC recalls, in its words: a line of its own or of someone else quoted;
    what the player said reported back to them when ``fresh`` (``wording.reported``: "you
    told me you …", not a quote of their whole line), else quoted too."""
    if r.who == "player" and fresh:
        return reported(r.text, npc_name, others)
    quote = r.text.strip().rstrip(".!?")
    quote = quote if len(quote) <= 140 else quote[:139].rstrip() + "…"
    if r.who == "player":
        return f"you said '{quote}'"
    if r.who == npc:
        return f"I told you '{quote}'"
    return f"{r.name} said '{quote}'"


def _names(view: AnyView) -> list[str]:
    """The names of the people the view shows: those present, those of its scenes'
    headers ("… (present: A, B)") and of the lines it recalls."""
    names = [n.name for n in view.private.npcs] + [r.name for r in view.private.recalled]
    for e in view.events:
        if e.kind == "scene" and "(present: " in e.text:
            names += e.text.split("(present: ", 1)[1].split(")", 1)[0].split(", ")
    return list(dict.fromkeys(names))


class _Said:
    """What the NPC's view holds as said: this scene's lines (never said twice in a
    scene) and, when lines are worded afresh (``fresh``), every line it saw or remembers
    and their phrases."""

    def __init__(self, view: AnyView, now: list[Event], fresh: bool) -> None:
        self.fresh = fresh
        self.scene = " ".join(str(e.data.get("said", "")) for e in now if e.kind == "line")
        self.lines: set[str] = set()
        self.names: list[str] = []
        self.phrases: set[tuple[str, ...]] = set()
        if fresh:
            kinds = ("line", "memory")
            self.lines = {t for e in view.events if e.kind in kinds for t in event_texts(e)}
            self.phrases = said_phrases(view.events)
            self.names = _names(view)

    def pick(self, templates: Sequence[str], slots: dict[str, str], rng: Rng) -> str:
        """A line not said yet in this scene, when there is one; afresh, of those one not
        said in what the view holds, then the one repeating the fewest phrases."""
        if not self.fresh:
            unsaid = [t for t in templates if t not in self.scene]
            return rng.choice(unsaid or list(templates)).format_map(slots)
        # a report cut with an ellipsis ends its sentence there ("…", not "….")
        lines = [t.format_map(slots).replace("….", "…") for t in templates]
        unsaid = [t for t in lines if t not in self.scene] or lines
        return freshest([t for t in unsaid if t not in self.lines] or unsaid, self.phrases, rng)

    def unrecalled(self, recalled: Sequence[Recalled], sheet: NpcSheet) -> list[Recalled]:
        """The recalled lines not said already: afresh, whose words the NPC has not said."""
        if not self.fresh:
            return [r for r in recalled if r.text not in self.scene]
        said = " ".join([self.scene, *self.lines])
        return [r for r in recalled if self.memory(r, sheet) not in said]

    def memory(self, r: Recalled, sheet: NpcSheet) -> str:
        return _memory_words(r, sheet.id, sheet.name, self.fresh, self.names)

    def just_now(self, messages: Sequence[str], sheet: NpcSheet) -> str | None:
        """What the player said earlier in this scene, as the NPC recalls it, or None."""
        earlier = [m for m in messages[:-1] if not asks_to_recall(m)]
        if not self.fresh:
            quotes = [m for m in earlier if m not in self.scene]
            return f"you said '{quotes[-1].strip().rstrip('.!?')}'" if quotes else None
        reports = [reported(m, sheet.name, self.names) for m in earlier]
        reports = [r for r in reports if r not in self.scene]
        return reports[-1] if reports else None

    def addressed(self, message: str, view: AnyView) -> bool:
        """Is the NPC who speaks now the one the message is for (or is it for nobody)?
        Afresh, a person is named by what they are called ("Wren"), a word of the message."""
        if not self.fresh:
            text = message.lower()
            named = [n.name for n in view.private.npcs if n.name.split()[0].lower() in text]
        else:
            words = set(tokens(message))
            named = [n.name for n in view.private.npcs if first_name(n.name).lower() in words]
        return not named or view.private.speaker.name in named


def _sentence_case(text: str) -> str:
    return re.sub(r"([.!?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


def npc_line(view: AnyView, rng: Rng, fresh: bool = False) -> str:
    """The line the NPC who speaks now says, from the campaign's lines and reactions and
    from what it recalls of earlier scenes it witnessed. An NPC the player's message is
    not for says nothing, unless it reacts to a check. Of the lines that fit, one not
    said yet in the scene; ``fresh``: the freshest (``_Said.pick``)."""
    private = view.private
    sheet = private.speaker
    now = _said_now(view)
    messages = [e.text for e in now if e.kind == "message"]
    said = _Said(view, now, fresh)
    first = view.public.pc.name.split()[0]
    slots = {"pc": first, "place": view.public.location, "then": "", "memory": ""}
    band = _turn_check(now)
    topic = topic_of(messages[-1]) if messages else "greet"
    lines: dict[str, list[str]] = private.lines
    if band is not None and private.reactions.get(band):
        return said.pick(private.reactions[band], slots, rng)
    if messages and not said.addressed(messages[-1], view):
        return ""
    unrecalled = said.unrecalled(private.recalled, sheet)
    best = unrecalled[0] if unrecalled else None
    if messages and best is not None:
        shared = terms(messages[-1]) & terms(best.text)
        if topic == "recall" or len(shared) >= 2:
            slots.update(then=best.place, memory=said.memory(best, sheet))
            return _sentence_case(said.pick(lines.get("recall") or GENERIC["recall"], slots, rng))
    if topic == "recall":
        # nothing from an earlier scene: what the player said earlier in this one
        memory = said.just_now(messages, sheet)
        if memory is not None:
            slots.update(memory=memory)
            return _sentence_case(said.pick(GENERIC["just_now"], slots, rng))
        return said.pick(GENERIC["forgot"], slots, rng)
    options = lines.get(topic) or lines.get("default") or GENERIC.get(topic, GENERIC["default"])
    if fresh and all(t.format_map(slots) in said.scene for t in options):
        # every line for the topic said in this scene: a murmur rather than one again
        options = [*options, *(lines.get("default") or GENERIC["default"])]
    return said.pick(options, slots, rng)


def npc_line_options(view: AnyView, rng: Rng, fresh: bool = False) -> list[str]:
    """The lines the NPC who speaks now may say, ``npc_line``'s first, then silence ("")
    and the campaign's other lines for the moment: its reactions to a check rolled this
    turn; a murmur (its default lines) when the message is for someone else; else what
    it recalls of earlier scenes it witnessed, its lines for the message's topic, and its
    default lines when those are few. Only the NPC's own view is read, so no option holds
    what it did not witness. ``fresh``: the lines not said yet first, the freshest first."""
    first = npc_line(view, rng, fresh)
    private = view.private
    now = _said_now(view)
    messages = [e.text for e in now if e.kind == "message"]
    said = _Said(view, now, fresh)
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
    elif messages and not said.addressed(messages[-1], view):
        pool += defaults
    else:
        unrecalled = said.unrecalled(private.recalled, private.speaker)
        if messages and unrecalled:
            memory = said.memory(unrecalled[0], private.speaker)
            then = {"then": unrecalled[0].place, "memory": memory}
            recall = lines.get("recall") or list(GENERIC["recall"])
            pool += [_sentence_case(t.format_map(slots | then)) for t in recall]
        elif topic == "recall":
            pool += GENERIC["forgot"]
        if topic != "recall":
            pool += [t.format_map(slots) for t in lines.get(topic) or GENERIC.get(topic, ())]
        if len([t for t in pool if not fresh or t not in said.scene]) < 3:
            pool += defaults
    unsaid = [t for t in pool if t and t not in said.scene and t != first]
    if fresh:
        # a model may pick any option: the lines not said before, if any
        new = [t for t in unsaid if t not in said.lines and stale(t, said.phrases) == 0]
        unsaid = new or sorted(unsaid, key=lambda t: (t in said.lines, stale(t, said.phrases)))
    return list(dict.fromkeys([first, *unsaid, ""]))


def scripted_line(view: AnyView, decision: Decision, rng: Rng) -> Action:
    """The NPC whose line it is speaks from the campaign's own content (``npc_line``)."""
    return Text(text=npc_line(view, rng, WordingAsk.is_fresh(decision))[: decision.max_length])


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
