"""Speech acts put into words: a sentence per act in the character's voice.

Each act has several sentence templates; each playstyle adds its own openers (how that
character starts talking). Which variant is used comes from an ``Rng`` the caller seeds
from the game seed and the decision id (so a replay renders the same words), among the
variants that do not repeat a line said earlier in the game, share eight tokens with one,
or copy the seat's option label (``core.wording.distinct_line``): two seats making the
same move say it differently while an unused wording is left. Templates name a dead player only in a
sentence that says they were dead or what they were ("who was a villager"), and never
repeat four words in a row, so rendered talk passes the talk-quality checks by
construction. The model's optional phrase is appended as its own sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from parlour.core.rng import Rng
from parlour.core.text_rules import text_tokens
from parlour.core.wording import distinct_line
from parlour.games.werewolf.playstyles import Playstyle
from parlour.games.werewolf.roles import Role, with_article
from parlour.games.werewolf.speech_acts import (
    ACCUSE,
    AGREE,
    CLAIM,
    DEFEND,
    QUESTION,
    QUIET,
    REVEAL,
    Move,
)

TEMPLATES: dict[str, tuple[str, ...]] = {
    # The reason clause follows different words in each template ("who", "that player",
    # "because", the name), so two lines citing one reason rarely share eight tokens.
    ACCUSE: (
        "I suspect {t}, who {why}.",
        "My eyes are on {t}: {why_t}.",
        "{t} is my suspect. That player {why}.",
        "Look at {t}. {T_why}, so {t} gets my vote.",
        "I name {t}, because this is someone who {why}.",
        "Something is off about {t}; remember that {t} {why}.",
        "If we vote today, vote {t}. Reason: {why_it}.",
    ),
    DEFEND: (
        "I trust {t}, who {why}.",
        "Leave {t} alone. {T_why}.",
        "{t} {why}; I do not think {t} is a wolf.",
        "Do not vote {t}. That player {why}.",
        "I stand by {t}, because this is someone who {why}.",
    ),
    QUESTION: (
        "{t}, you {why_you}. Whom do you suspect?",
        "{t}, tell us what you think. You {why_you}.",
        "I want to hear from {t}, who {why}. What is your read?",
        "A question for {t}: you {why_you}, so who is your suspect?",
        "What about {t}? That player {why}. Speak up.",
    ),
    CLAIM: (
        "I will say it plainly: I am {role}.",
        "For the record, I am {role}.",
        "You should know that I am {role}.",
        "Time to tell you: I am {role}.",
        "My role? I am {role}.",
    ),
    REVEAL: (
        "I am the seer. I checked {t}: {reading}.",
        "I am the seer, and my vision of {t} says {reading}.",
        "Seer here. {t} is {reading}; I checked.",
        "As the seer I looked at {t} in the night: {reading}.",
    ),
    AGREE: (
        "I agree with {s} about {t}.",
        "{s} is right about {t}.",
        "I am with {s} on {t}.",
        "Same as {s}: {t}.",
        "{s} has a point about {t}.",
        "Count me in with {s} on {t}.",
    ),
}

#: How each character starts talking (empty: no opener). Several per style for variety.
OPENERS: dict[Playstyle, tuple[str, ...]] = {
    Playstyle.PROVOKER: ("Enough games.", "Listen to me.", "Let us be blunt."),
    Playstyle.GUARDIAN: ("Friends, stay calm.", "Let us be careful.", "For all our sakes,"),
    Playstyle.TRICKSTER: ("Here is a thought.", "Funny thing.", "Now, now."),
    Playstyle.MAVERICK: ("Forget the crowd.", "Nobody wants to say it, so I will.", "Well,"),
    Playstyle.MOUSE: ("Um,", "Sorry, just one thing.", "If I may,"),
    Playstyle.STEADY: ("Honestly,", "Fair enough.", "Okay."),
    Playstyle.ANALYST: ("Let me be precise.", "Consider the facts.", "For the record,"),
}


def _you(because: str) -> str:
    """A third-person reason addressed to its subject: "has said" → "have said"."""
    pairs = (
        ("has ", "have "),
        ("gives me", "give me"),
        ("was ", "were "),
        ("seems ", "seem "),
        ("makes ", "make "),
    )
    for third, second in pairs:
        if because.startswith(third):
            return second + because[len(third) :]
    return because


def _join(opener: str, sentence: str, names: set[str]) -> str:
    """Opener and sentence; after a comma the sentence goes on in lower case, except "I"
    and names."""
    first = sentence.split(" ", 1)[0].rstrip(",.:;")
    if opener.endswith(",") and first != "I" and first not in names:
        return f"{opener} {sentence[0].lower()}{sentence[1:]}"
    return f"{opener} {sentence}"


def _phrase(line: str, phrase: str) -> str:
    """Append the model's phrase as its own sentence, unless it would make the line repeat
    four words (the phrase is flavour; the act is the message)."""
    phrase = phrase.strip().strip('"').strip()
    if not phrase:
        return line
    if phrase[-1] not in ".!?":
        phrase += "."
    joined = f"{line} {phrase[0].upper()}{phrase[1:]}"
    tokens = text_tokens(joined)
    grams = [tuple(tokens[i : i + 4]) for i in range(len(tokens) - 3)]
    return line if len(set(grams)) < len(grams) else joined


#: Other wordings of a reason clause (``Move.because``), so that seats citing one fact
#: do not all say it in the same eight words. Each keeps the clause's death word ("was")
#: next to a dead player's name.
HUNCHES = (
    "gives me a bad feeling",
    "seems wrong to me, though I lack proof",
    "makes me uneasy",
    "has me worried, with no proof yet",
)
_VOTED_FOR = re.compile(r"^voted for (?P<x>.+), who was (?P<role>.+)$")


def reasons(move: Move) -> list[str]:
    """The wordings of ``move``'s reason: its own clause first, then variants."""
    if move.reason == "hunch":
        return list(HUNCHES)
    found = _VOTED_FOR.match(move.because)
    if found is None:
        return [move.because]
    x, role = found["x"], found["role"]
    return [
        move.because,
        f"helped vote out {x}, who was {role}",
        f"cast a ballot against {x}, who was {role}",
        f"put a vote on {x}, and {x} was {role}",
    ]


def _sentences(move: Move, names: dict[str, str]) -> list[str]:
    t = names.get(move.target, move.target)
    reading = "a werewolf, or at least evil" if move.reading == "evil" else "not evil"
    role = with_article(Role(move.role)) if move.role else ""
    return [
        template.format(
            t=t,
            why=why,
            why_t=f"{t} {why}",
            T_why=f"{t} {why}",
            why_you=_you(why),
            why_it=f"{t} {why}",
            s=names.get(move.with_seat, move.with_seat),
            role=role,
            reading=reading,
        )
        for why in reasons(move)
        for template in TEMPLATES[move.act]
    ]


def candidates(move: Move, names: dict[str, str], style: Playstyle) -> list[str]:
    """Every wording of ``move`` in the voice of ``style``: each template alone and after
    each of the style's openers."""
    players = set(names.values())
    out: list[str] = []
    for sentence in _sentences(move, names):
        out.append(sentence)
        out.extend(_join(opener, sentence, players) for opener in OPENERS[style])
    return out


def render(
    move: Move,
    names: dict[str, str],
    style: Playstyle,
    rng: Rng,
    phrase: str = "",
    avoid: Iterable[str] = (),
    echo: Iterable[str] = (),
) -> str:
    """The move as one or two sentences in the voice of ``style``; "" for quiet.

    ``avoid``: lines already said (a wording that repeats one, or shares eight tokens
    with one, is passed over while another exists); ``echo``: what the seat's prompt
    shows (its option labels), likewise not copied (``core.wording.distinct_line``)."""
    if move.act == QUIET:
        return ""
    line = distinct_line(candidates(move, names, style), avoid, rng, echo)
    return _phrase(line, phrase)
