"""Looking at things: ``look``, ``look at X``, ``examine X``, ``look through X``.

A look changes nothing in the story. It is answered from the scenario's ``places`` and
``objects`` descriptions, and only from what the player can see now: a place or object
whose ``needs`` have not all happened is not there yet (a lantern inside a locked cabinet),
so looking for it finds nothing, and no description of a locked thing reaches anybody.

The classifier reaches it by its ``look`` option; the engine picks what was looked at by
the names the scenario gives each thing (the longest name the message holds wins: "the red
button" over "the button").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from parlour.games.escape.scenario import Scenario, Thing
from parlour.games.escape.several import told_things
from parlour.games.escape.text import plain

#: A message that looks: "look at the desk", "I examine the key", "take a closer look at
#: the painting", "peer through the window". The verb leads (after "I", "let me", ...).
_LOOKS = re.compile(
    r"^(?:(?:i|we|let me|let's|now|then|first|so|ok|okay)[\s,]+)*"
    r"(?:(?:carefully|closely|quickly|slowly)\s+)?"
    r"(?:look|looks|looking|examine|examines|inspect|inspects|check|checks|study|studies|"
    r"observe|observes|peer|peers|gaze|gazes|stare|stares|view|views|scan|scans|survey|"
    r"surveys|watch|glance|glances|(?:take|have|get|taking|having)\s+(?:a\s+)?"
    r"(?:good\s+|close\s+|closer\s+|quick\s+|proper\s+)?look)\b"
)


def looks(message: str) -> bool:
    """Whether the message is a look (its first deed is looking at or around something)."""
    return bool(_LOOKS.match(plain(message)))


def visible(things: Sequence[Thing], done: Collection[str]) -> list[Thing]:
    """The things whose needs have all happened, in file order."""
    return [t for t in things if all(n in done for n in t.needs)]


def in_sight(scenario: Scenario, done: Collection[str]) -> list[str]:
    """The names of the objects the player can see once ``done`` have happened, and the
    things told of so far (``several.told_things``): what a deed may name in passing."""
    told = [scenario.intro, *scenario.world, *(scenario.action(a).consequence for a in done)]
    return [n for t in visible(scenario.objects, done) for n in t.all_names] + told_things(told)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _holds(said: list[str], name: str) -> bool:
    """``said`` holds the name's words in a row (a final plural 's' or 'es' allowed)."""
    want = _words(name)
    if not want:
        return False
    for start in range(len(said) - len(want) + 1):
        part = said[start : start + len(want)]
        if part[:-1] == want[:-1] and part[-1] in (want[-1], want[-1] + "s", want[-1] + "es"):
            return True
    return False


def named(message: str, things: Sequence[Thing]) -> Thing | None:
    """The thing the message names by its longest name; ties go to the earlier thing."""
    said = _words(message)
    best: tuple[int, int] | None = None
    found: Thing | None = None
    for index, thing in enumerate(things):
        for name in thing.all_names:
            if _holds(said, name):
                key = (len(_words(name)), -index)
                if best is None or key > best:
                    best, found = key, thing
    return found


def here(scenario: Scenario, done: Collection[str]) -> Thing | None:
    """Where the player is: the last place whose needs have all happened."""
    places = visible(scenario.places, done)
    return places[-1] if places else None


def look_brief(scenario: Scenario, done: Collection[str], message: str) -> str | None:
    """What a look shows: the described thing the message names, else the place the player
    is in; None when the scenario describes neither (the caller shows the intro)."""
    seen = [t for t in (*visible(scenario.objects, done), *visible(scenario.places, done))]
    thing = named(message, seen)
    if thing is None or not (thing.description or "").strip():
        thing = here(scenario, done)
    if thing is None or not (thing.description or "").strip():
        return None
    return (thing.description or "").strip()
