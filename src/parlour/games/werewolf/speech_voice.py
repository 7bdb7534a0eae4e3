"""Speech acts put into words: a sentence per act in the character's voice.

Each act has several sentence templates; each playstyle adds its own openers (how that
character starts talking). Which variant is used comes from an ``Rng`` the caller seeds
from the game seed and the decision id, so a replay renders the same words and two seats
making the same move rarely say the same line. Templates name a dead player only in a
sentence that says they were dead or what they were ("who was a villager"), and never
repeat four words in a row, so rendered talk passes the talk-quality checks by
construction. The model's optional phrase is appended as its own sentence.
"""

from __future__ import annotations

from parlour.core.rng import Rng
from parlour.core.text_rules import text_tokens
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
    ACCUSE: (
        "I suspect {t}. {t} {why}.",
        "My eyes are on {t}: {why_t}.",
        "{t} {why}, and that is why I would vote for {t}.",
        "Look at {t}. {T_why}, so {t} is my suspect.",
    ),
    DEFEND: (
        "I trust {t}: {why_t}.",
        "Leave {t} alone. {T_why}.",
        "{t} {why}; I do not think {t} is a wolf.",
    ),
    QUESTION: (
        "{t}, you {why_you}. Whom do you suspect?",
        "{t}, tell us what you think. You {why_you}.",
        "I want to hear from {t}, who {why}. What is your read?",
    ),
    CLAIM: (
        "I will say it plainly: I am {role}.",
        "For the record, I am {role}.",
        "You should know that I am {role}.",
    ),
    REVEAL: (
        "I am the seer. I checked {t}: {reading}.",
        "I am the seer, and my vision of {t} says {reading}.",
        "Seer here. {t} is {reading}; I checked.",
    ),
    AGREE: (
        "I agree with {s} about {t}.",
        "{s} is right about {t}.",
        "I am with {s} on {t}.",
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
    for third, second in (("has ", "have "), ("gives me", "give me"), ("was ", "were ")):
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


def render(move: Move, names: dict[str, str], style: Playstyle, rng: Rng, phrase: str = "") -> str:
    """The move as one or two sentences in the voice of ``style``; "" for quiet."""
    if move.act == QUIET:
        return ""
    t = names.get(move.target, move.target)
    template = rng.choice(TEMPLATES[move.act])
    reading = "a werewolf, or at least evil" if move.reading == "evil" else "not evil"
    role = with_article(Role(move.role)) if move.role else ""
    sentence = template.format(
        t=t,
        why=move.because,
        why_t=f"{t} {move.because}",
        T_why=f"{t} {move.because}",
        why_you=_you(move.because),
        s=names.get(move.with_seat, move.with_seat),
        role=role,
        reading=reading,
    )
    opener = rng.choice(OPENERS[style])
    line = _join(opener, sentence, set(names.values()))
    if move.act in (ACCUSE, DEFEND, QUESTION, AGREE, CLAIM, REVEAL):
        line = _phrase(line, phrase)
    return line
