"""The scripted player: answers story cards, searches places it has not seen (and goes back
to one that had nothing yet), shares what it finds (by its title, never the private
text), answers what it is asked, reacts to news, accuses and asks (``talk.py``), keeps
its secret, and takes a fair share of the talk. It reads only its own view, like any seat."""

from __future__ import annotations

from parlour.core.actions import Action, Choice, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.events import Event
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.missing import asks, talk
from parlour.games.missing.texts import wants_answer
from parlour.games.missing.views import MissingPrivate, MissingPublic


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def missing_policy(view: AnyView, decision: Decision, rng: Rng) -> Action:
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    purpose = decision.purpose
    limit = decision.max_length
    if asks.MissingAsk.of(decision).lines:
        return Choice(option=decision.options[0].id)  # an act seat's: the fittest act
    if purpose == "pick":
        return Choice(option=decision.options[0].id)  # the card the deal gave
    if purpose in ("background", "secret"):
        return Text(text=_fit(_second(pub, me, purpose, rng), limit))
    if purpose in ("introduction", "relationship", "suspicion"):
        lines = setup_lines(view, decision, rng)
        return Text(text=_fit(lines[0], limit))
    if purpose == "turn":
        return Choice(option=turn_choice(view, decision, rng))
    if purpose == "message":
        ask = asks.MissingAsk.of(decision)
        if ask.standing:
            return Text(text="")
        return Text(text=_fit(talk.message(view, ask.answering, rng), limit))
    if purpose == "epilogue":
        return Text(text=_fit(setup_lines(view, decision, rng)[0], limit))
    return (
        random_answer(decision, rng)
        if decision.kind is not DecisionKind.FREE_TEXT
        else Text(text="ok")
    )


# Short second-person answers built from the card (its traits and drive), so
# a scripted character's background and secret read as answers, not as the question again.
BACKGROUND = (
    "You were the one {friend} trusted with it; {trait} as you are, you never asked why.",
    "You saw it first, the way you always do, being {trait}; {friend} laughed it off.",
    "You still have a photo of it; {friend} made you promise to keep it, and you did.",
)
SECRET = (
    "You did it to {drive}, and you would do it again.",
    "You told yourself it was nothing; being {trait}, you never said sorry to {friend}.",
    "You kept quiet because {friend} would have stopped trusting you, and you knew it.",
)
RELATION = (
    "{other}, I haven't forgotten. It's not the night for it, but {friend} knew too.",
    "{other} knows. I was {trait} about it then and I'm not proud of it.",
    "Ask {other}. We both know why, and {friend} made us swear not to say.",
    "{other} and I have history. {friend} was in the middle of it.",
    "Me and {other}? Complicated. I was {trait}, {other} was worse.",
    "{other} won't look at me tonight, and {friend} would know why.",
    "Not now, {other}. Later, when {friend} is home.",
    "{other} and I don't talk about it. {friend} was the one who kept the peace.",
    "I'll say this once: {other} knows what happened, and so did {friend}.",
    "{other}, you know what I mean. Let's leave it there for {friend}'s sake.",
    "There's a thing between me and {other}. I was {trait}; {friend} patched it up.",
    "Long story, {other}. {friend} would tell it better.",
)


#: Setup answers worded from the card. Introductions, relationships and suspicions are
#: said one seat at a time, so a seat takes the wording that repeats least of what the
#: others said; epilogues are written at once, so each seat starts at its own wording.
INTRODUCTION = (
    "Hi, it's {first} ({pronouns}), {relation}. People say I'm {persona}.",
    "{first} here, {pronouns}. I'm {relation}; {trait}, if you ask anyone.",
    "It's {first}. {relation}. I'm the {trait} one, and I'm worried.",
    "{first} ({pronouns}). {relation}. {persona}, for those who don't know me.",
    "Hey all. {first}, {pronouns}: {relation}. Usually {trait}. Not tonight.",
    "I'm {first}, {pronouns}: {relation}, and {persona}.",
    "{first} ({pronouns}) here: {relation}. {persona}.",
    "Evening. I'm {first}, {pronouns}. {relation}, and {trait} most days.",
    "This is {first}, {pronouns}. {relation}. Friends would say {trait}.",
    "{first}, {pronouns}. {relation}. Let's find {friend}.",
)
SUSPICION = (
    "{suspect} keeps turning up where {friend} goes, and nobody checks {place} after dark.",
    "I don't trust {suspect}. And {place}: {friend} went there more than anyone knew.",
    "Two things bother me: {suspect}, and what happens at {place} at night.",
    "{suspect}, {about}. And {place}, {place_about}. Put those together.",
    "Ask yourselves why {friend} kept going to {place}. Then ask {suspect}.",
    "My worry is {suspect}, and I'd look at {place} first.",
    "If I had to name someone, {suspect}. And somebody should check {place}.",
    "{place} and {suspect}. That's where I'd start.",
    "Gut feeling: {suspect}. {friend} never said why {place} mattered so much.",
    "Honestly? {suspect}. Then {place}, {place_about}.",
    "Everyone's thinking it: {suspect}. I'd also look at {place}.",
)
EPILOGUE = (
    "{first} goes home, still thinking: {drive}.",
    "{first} sits up all night, texting {friend} a long message.",
    "{first} walks back past {place} one last time before going home.",
    "{first} makes tea nobody drinks and waits for the morning.",
    "{first} deletes a draft to {friend}, then writes it again.",
    "{first} can't sleep and goes for a walk by the water.",
    "{first} sets an alarm for six and lies awake anyway.",
)
_SETUP = {
    "background": BACKGROUND,
    "secret": SECRET,
    "introduction": INTRODUCTION,
    "relationship": RELATION,
    "suspicion": SUSPICION,
    "epilogue": EPILOGUE,
}


def setup_lines(view: AnyView, decision: Decision, rng: Rng) -> list[str]:
    """Every wording of a setup answer from the seat's own card (sentence-cased, so a fact
    that opens a sentence is capitalised), each once, the one to say first: the freshest
    (fewest phrases others said already) in an order drawn by seed; an epilogue's from the
    seat's own place at the table, since nobody has read the others'."""
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    purpose = decision.purpose
    traits = rng.shuffled(me.traits) or ["quiet"]
    ask = asks.MissingAsk.of(decision)
    suspect = next((s for s in pub.suspects if s[0] == me.suspect), (me.suspect, ""))
    place = next((p for p in pub.places if p.name == me.place), None)
    facts = {
        "first": me.name.split()[0],
        "friend": pub.friend.split()[0],
        "pronouns": me.pronouns,
        "relation": me.relation,
        "persona": me.persona,
        "drive": me.drive,
        "suspect": me.suspect,
        "about": suspect[1] or "of all people",
        "place": me.place,
        "place_about": place.about if place is not None else "of all places",
        "other": _name_of(pub, ask.about) if ask.about else "",
    }
    templates = _SETUP.get(purpose, ())
    limit = decision.max_length or None
    lines = [
        talk.sentence_case(t.format(**facts, trait=traits[n % len(traits)]))
        for n, t in enumerate(templates)
    ]
    fitting = list(dict.fromkeys(x for x in lines if limit is None or len(x) <= limit))
    if purpose == "epilogue" and fitting:
        at = [p.seat for p in pub.players].index(view.seat) if pub.players else 0
        at %= len(fitting)
        return fitting[at:] + fitting[:at]
    ordered = rng.shuffled(fitting)
    best = set(talk.freshest(ordered, talk.said_phrases(view.events)))
    return [x for x in ordered if x in best] + [x for x in ordered if x not in best]


def _second(pub: MissingPublic, me: MissingPrivate, purpose: str, rng: Rng) -> str:
    """A short answer in the second person, chosen by seed from the card's facts."""
    templates = BACKGROUND if purpose == "background" else SECRET
    return rng.choice(templates).format(
        friend=pub.friend.split()[0],
        trait=rng.choice(me.traits),
        drive=me.drive,
    )


def _name_of(pub: MissingPublic, seat: str) -> str:
    return next((p.name for p in pub.players if p.seat == seat), seat)


#: A seat with fewer messages than this share of the table's mean asks to speak more often.
QUIET_SHARE = 0.8


def turn_choice(view: AnyView, decision: Decision, rng: Rng) -> str:
    """The scripted round choice: speak (how urgently), search a place or stay silent,
    from the seat's own view (also the engine's pick for ``engine_turns`` seats)."""
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    if me.card is not None:
        return "speak3"
    since = _since_mine(view)
    names = {p.seat: p.name for p in pub.players}
    mine = next(p.messages for p in pub.players if p.seat == view.seat)
    mean = sum(p.messages for p in pub.players) / len(pub.players)
    if any(wants_answer(e, view.seat, names) for e in since):
        # a question put to me, or my name in an accusation: urgent, unless I have talked
        # more than my share (the referee still prefers the seat a message named)
        return "speak3" if mine <= mean else "speak2"
    if any(not c.shared for c in me.clues):
        return "speak2"
    if mine < QUIET_SHARE * mean and rng.random() < 0.5:
        return "speak2"  # I have said less than my share: get a word in
    free = asks.MissingAsk.of(decision).places
    searches = [f"{asks.SEARCH_PREFIX}{pid}" for pid in free if pid not in me.visited]
    later = [f"{asks.SEARCH_PREFIX}{pid}" for pid in free if pid in _come_back(view)]
    if later and rng.random() < 0.1:
        return rng.choice(later)
    if searches and rng.random() < 0.08:
        return rng.choice(searches)
    if any(e.data.get("news") for e in since) and mine <= mean and rng.random() < 0.5:
        return "speak2"
    last = pub.recent_speakers[-1] if pub.recent_speakers else ""
    if last and last != view.seat and mine <= mean and rng.random() < 0.5:
        return "speak2" if mine < mean else "speak1"
    if rng.random() < 0.2:
        return "speak1"
    return asks.SILENT


def _since_mine(view: AnyView) -> list[Event]:
    """The chat's messages since this seat last texted."""
    out: list[Event] = []
    for event in reversed(view.events):
        if event.kind != "message":
            continue
        if event.speaker == view.seat:
            break
        out.append(event)
    return out


def _come_back(view: AnyView) -> set[str]:
    """Places where this seat was told there was nothing to find yet, and has not found
    anything since."""
    out: set[str] = set()
    for event in view.events:
        place = event.data.get("place")
        if event.kind != "found" or not isinstance(place, str):
            continue
        if event.data.get("later"):
            out.add(place)
        else:
            out.discard(place)
    return out
