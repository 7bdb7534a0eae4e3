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
    if purpose == "introduction":
        first = me.name.split()[0]
        return Text(
            text=_fit(
                f"Hi, it's {first} ({me.pronouns}), {me.relation}. People say "
                f"I'm {me.persona}. {', '.join(me.traits).capitalize()}.",
                limit,
            )
        )
    if purpose == "relationship":
        other = _name_of(pub, asks.MissingAsk.of(decision).about)
        line = rng.choice(RELATION).format(
            other=other, friend=pub.friend.split()[0], trait=rng.choice(me.traits)
        )
        return Text(text=_fit(line, limit))
    if purpose == "suspicion":
        return Text(
            text=_fit(
                f"{me.suspect} keeps turning up where {pub.friend.split()[0]} "
                f"goes, and nobody checks {me.place} after dark.",
                limit,
            )
        )
    if purpose == "turn":
        return Choice(option=turn_choice(view, decision, rng))
    if purpose == "message":
        ask = asks.MissingAsk.of(decision)
        if ask.standing:
            return Text(text="")
        return Text(text=_fit(talk.message(view, ask.answering, rng), limit))
    if purpose == "epilogue":
        first = me.name.split()[0]
        return Text(text=_fit(f"{first} goes home, still thinking: {me.drive}.", limit))
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
)


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
