"""The scripted player: answers story cards, searches places it has not seen, shares some of
what it finds (by its title, never the private text), keeps its secret, and takes a fair
share of the talk. It reads only its own view, like any seat."""

from __future__ import annotations

from parlour.core.actions import Action, Choice, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.games.missing import asks
from parlour.games.missing.views import MissingPrivate, MissingPublic

_CHATTER = (
    "Has anyone tried calling {friend} again? Still straight to voicemail for me.",
    "I keep thinking about {suspect}. Something about them is off tonight.",
    "Who's near {place}? Someone should look there before the tide.",
    "{other}, what do you make of all this? You knew {friend} well.",
    "Ok. Let's not panic. What do we actually know so far?",
    "If {friend} was scared of someone, it was {suspect}. I'd bet on it.",
)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def missing_policy(view: AnyView, decision: Decision, rng: Rng) -> Action:
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    purpose = decision.purpose
    limit = decision.max_length
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
        line = rng.choice(_RELATION).format(
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
        return Choice(option=_turn(view, decision, rng))
    if purpose == "message":
        if asks.MissingAsk.of(decision).standing:
            return Text(text="")
        return Text(text=_fit(_message(view, rng), limit))
    if purpose == "epilogue":
        return Text(
            text=_fit(f"{me.name.split()[0]} goes home at dawn, still thinking: {me.drive}.", limit)
        )
    return (
        random_answer(decision, rng)
        if decision.kind is not DecisionKind.FREE_TEXT
        else Text(text="ok")
    )


# Short second-person answers built from the card (its traits and drive), so
# a scripted character's background and secret read as answers, not as the question again.
_BACKGROUND = (
    "You were the one {friend} trusted with it; {trait} as you are, you never asked why.",
    "You saw it first, the way you always do, being {trait}; {friend} laughed it off.",
    "You still have a photo of it; {friend} made you promise to keep it, and you did.",
)
_SECRET = (
    "You did it to {drive}, and you would do it again.",
    "You told yourself it was nothing; being {trait}, you never said sorry to {friend}.",
    "You kept quiet because {friend} would have stopped trusting you, and you knew it.",
)
_RELATION = (
    "{other}, I haven't forgotten. It's not the night for it, but {friend} knew too.",
    "{other} knows. I was {trait} about it then and I'm not proud of it.",
    "Ask {other}. We both know why, and {friend} made us swear not to say.",
)


def _second(pub: MissingPublic, me: MissingPrivate, purpose: str, rng: Rng) -> str:
    """A short answer in the second person, chosen by seed from the card's facts."""
    templates = _BACKGROUND if purpose == "background" else _SECRET
    return rng.choice(templates).format(
        friend=pub.friend.split()[0],
        trait=rng.choice(me.traits),
        drive=me.drive,
    )


def _name_of(pub: MissingPublic, seat: str) -> str:
    return next((p.name for p in pub.players if p.seat == seat), seat)


def _turn(view: AnyView, decision: Decision, rng: Rng) -> str:
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    if me.card is not None:
        return "speak3"
    if any(not c.shared for c in me.clues):
        return "speak2"
    last = pub.recent_speakers[-1] if pub.recent_speakers else ""
    mine = next(p.messages for p in pub.players if p.seat == view.seat)
    mean = sum(p.messages for p in pub.players) / len(pub.players)
    free = asks.MissingAsk.of(decision).places
    searches = [f"{asks.SEARCH_PREFIX}{pid}" for pid in free if pid not in me.visited]
    if searches and rng.random() < 0.1:
        return rng.choice(searches)
    if last and last != view.seat and mine <= mean and rng.random() < 0.6:
        return "speak2" if mine < mean else "speak1"
    if rng.random() < 0.25:
        return "speak1"
    return asks.SILENT


def _message(view: AnyView, rng: Rng) -> str:
    pub: MissingPublic = view.public
    me: MissingPrivate = view.private
    friend = pub.friend.split()[0]
    if me.card is not None:
        if me.card.final:
            return f"It's {friend}. {friend} just texted me. Reading it to you now."
        word = me.card.about[0] if me.card.about else "it"
        return (
            f"Something just came back to me, about the {word}. {friend} mentioned the "
            f"{word} twice last week and looked scared."
        )
    unshared = [c for c in me.clues if not c.shared]
    if unshared and rng.random() < 0.8:
        clue = unshared[0]
        return f"At {clue.place_name}: {clue.title}. Not sure what it means yet."
    others = [p.name for p in pub.players if p.seat != view.seat]
    line = rng.choice(_CHATTER)
    suspect = rng.choice([name for name, _ in pub.suspects])
    place = rng.choice([p.name for p in pub.places])
    return line.format(friend=friend, suspect=suspect, place=place, other=rng.choice(others))
