"""A turn's answer as text messages: people send several short texts, not one long one.

``split_texts`` cuts an answer into texts of at most ``limit`` characters: at its line
breaks, then between sentences where it can (short sentences share a text), else
between words; a word is never cut unless it alone is longer than a text (a pasted link).

``reply_target`` is the engine's rule for which message a speaker answers: the latest
message since the speaker last spoke that names them (a question put to them, or an
accusation, but not a plain answer to the speaker's own text), else the latest news
another player texted (a find, a story card's answer),
else the latest question nobody in particular was asked. Public messages only, so a reply
never quotes what its reader may not see.
"""

from __future__ import annotations

import re

from parlour.core.events import Event
from parlour.core.wording import opening_words

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_WORD = re.compile(r"[a-z']+")
#: A reply's quote of the message it answers is cut (at a word) to about this many characters.
QUOTE_CHARS = 40


def split_texts(text: str, limit: int) -> list[str]:
    """``text`` as texts of at most ``limit`` characters: a line break always starts a
    new text; a longer line is cut at sentences, then words."""
    if "\n" in text.strip():
        return [t for line in text.splitlines() for t in split_texts(line, limit)]
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return [flat] if flat else []
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(flat):
        pieces.extend(_words_within(sentence, limit))
    out: list[str] = []
    for piece in pieces:
        if out and len(out[-1]) + 1 + len(piece) <= limit:
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def _words_within(sentence: str, limit: int) -> list[str]:
    out: list[str] = []
    line = ""
    for word in sentence.split():
        while len(word) > limit:  # a single "word" longer than a text: no boundary to use
            if line:
                out.append(line)
                line = ""
            out.append(word[:limit])
            word = word[limit:]
        if line and len(line) + 1 + len(word) > limit:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        out.append(line)
    return out


def quote(text: str, chars: int = QUOTE_CHARS) -> str:
    """The start of a message, cut at a word, for a reply to show what it answers."""
    return opening_words(text, chars)


def names_in(text: str, names: dict[str, str]) -> set[str]:
    """The seats (of ``names``: seat → first name) a text names."""
    words = set(_WORD.findall(text.casefold()))
    return {seat for seat, name in names.items() if name.casefold() in words}


def wants_answer(event: Event, seat: str, names: dict[str, str]) -> bool:
    """A message puts something to ``seat``: it names the seat and asks it something, or
    names it without answering it (an accusation). A plain answer to the seat's own text
    ("Bram, I was at home.") ends the thread instead of bouncing it back."""
    if event.speaker == seat or seat not in names_in(event.text, names):
        return False
    return "?" in event.text or event.data.get("reply_to_seat") != seat


def reply_target(messages: list[Event], seat: str, names: dict[str, str]) -> Event | None:
    """The message ``seat`` answers now (see the module's note), or None.

    ``messages``: the chat's public messages in order; only those after ``seat``'s own
    latest message, by others, count."""
    since: list[Event] = []
    for event in reversed(messages):
        if event.speaker == seat:
            break
        since.append(event)  # newest first
    if not since:
        return None
    for event in since:
        if wants_answer(event, seat, names):
            return event
    for event in since:
        if event.data.get("news"):
            return event
    latest = since[0]
    if "?" in latest.text and not names_in(latest.text, names):
        return latest
    return None
