"""Commands a player can always use: ``/help``, ``/hint``, ``/look``, ``/done``.

They are part of the game, not of a front end: the engine reads them from the player's
ordinary answer (so a terminal, a web page or a model all get them), answers from the
scenario's own text, and spends no turn on them. Plain "help", "hint", "look around the
room" work too: a person should not need to know the slash.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from parlour.games.escape.text import plain

Command = Literal["help", "hint", "look", "done"]

#: A turn allows this many commands; after that a message is played as an action, so a
#: seat that only ever asks for help still reaches the end of the game.
MAX_PER_TURN = 5

_ALIASES: dict[str, Command] = {
    "help": "help",
    "?": "help",
    "commands": "help",
    "hint": "hint",
    "clue": "hint",
    "look": "look",
    "l": "look",
    "done": "done",
    "inventory": "done",
    "inv": "done",
    "i": "done",
}

#: "look around", "look around the room", "I look about", "where am I"…: looking, with no
#: object named, is asking for the scene again, never an action of the story.
_LOOKING = re.compile(
    r"^(i\s+)?(look|glance|peer|gaze)\s+(around|about|round)"
    r"(\s+(the|this|my)\s+(room|place|area|surroundings|study|lift|cell))?"
    r"(\s+(again|carefully|slowly))?$"
    r"|^(where am i|what do i see|describe the (room|place|surroundings))$"
)


def is_looking(message: str) -> bool:
    """True for a look around with no object named (the keyword classifier's none)."""
    return bool(_LOOKING.match(plain(message)))


def parse(message: str) -> Command | None:
    """The command a whole message asks for, or None when it is an ordinary action."""
    text = plain(message)
    if message.strip() in ("?", "/?"):
        return "help"
    word = text.removeprefix("/")
    if word in _ALIASES:
        return _ALIASES[word]
    if is_looking(word):
        return "look"
    return None


def help_text(turn: int, max_turns: int, hints_left: bool) -> str:
    hint = "a nudge towards a next step" if hints_left else "no hint is left right now"
    return (
        "Type what you do in plain words, e.g. 'open the drawer' or 'read the note'. "
        "Commands (they cost no turn): /look repeats the scene and what you know about it; "
        f"/hint gives {hint} (hints are counted in your result); /done lists what you "
        f"have achieved so far; /help shows this. Turn {turn} of {max_turns}."
    )


def look_text(intro: str, world: Sequence[str]) -> str:
    facts = " ".join(world)
    return f"{intro} {facts}".strip()


def done_text(consequences: Sequence[str]) -> str:
    if not consequences:
        return "Nothing has changed yet: none of your actions has had an effect so far."
    lines = "\n".join(f"- {c}" for c in consequences)
    return f"So far:\n{lines}"


def hint_text(hint: str | None, number: int, *, repeat: bool = False) -> str:
    """``number``: which hint this is; ``repeat``: given before (then it is not counted)."""
    if hint is None:
        return "No hint is available right now: try /look, or look closely at what is here."
    if repeat:
        return f"Hint {number} still stands (not counted again): {hint}"
    return f"Hint {number}: {hint}"


#: What the narrator is told when a message only looks around (instead of "no effect").
LOOK_BRIEF = (
    "The player looks around; nothing changes. Describe the place again, briefly, from the "
    "opening and the standing facts."
)
_LOOKS_AROUND = re.compile(r"\b(look|looks|looking|glance|peer|gaze)\s+(around|about|round)\b")


def looks_around(message: str | None) -> bool:
    """A message that looks around, perhaps among other words ("I look around slowly")."""
    return bool(message) and bool(_LOOKS_AROUND.search(plain(message or "")))
