"""What an option's description is about: its deed (the verb) and its objects (head nouns).

Escape descriptions are short imperative phrases ("open the little emergency phone door",
"call the night desk on the emergency phone"). The keyword classifier scores word overlap,
which cannot tell "pry open the doors" (the lift doors) from the phone's *door*, or "use
the emergency phone" from the phone's *torch*. Knowing which word is the deed and which
nouns the phrase is about lets it act only when the player names both, and ask otherwise.

The parse is deliberately small and predictable, not linguistics: the first word is the
deed; the rest is cut at prepositions and conjunctions; each piece's last content word is
a head noun. Pieces introduced by a preposition of place or instrument ("on the emergency
phone", "with the matches", "into the crawlspace") are objects too, since a player may name
either ("use the matches", "search the fireplace"); an "of" piece is not ("the torch of your
mobile phone" is about the torch, not the phone). The option id's words after the first are
objects too ("open_phone_door"), its first word a deed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from parlour.games.escape.text import STOPWORDS, stem, words

#: Words that start a new piece of the phrase; the value says whether its head is an object.
_BREAKS: dict[str, bool] = {
    "and": True,
    "then": True,
    "on": True,
    "in": True,
    "into": True,
    "onto": True,
    "to": True,
    "with": True,
    "using": True,
    "at": True,
    "of": False,
    "for": False,
    "by": False,
    "beside": False,
    "above": False,
    "below": False,
    "under": False,
    "behind": False,
    "from": False,
    "through": False,
}
#: Adverbs and particles that end a verb phrase but are never a head noun.
_PARTICLES = frozenset(
    {"up", "down", "out", "off", "over", "back", "open", "apart", "away", "around", "round"}
)
#: What parts an option id's words ("open_phone_door").
ID_SPLIT = re.compile(r"[_\-]+")
#: Ways a deed may go that a player says instead of its object ("go down").
DIRECTIONS = frozenset({"up", "down"})
#: Verbs that say "do the option's deed with this": "use the key", "try the phone".
LIGHT_DEEDS = frozenset({"use", "try", "operate", "work"})


#: Deeds that go one way of themselves: "climb the staircase" goes up, so "go up" names it
#: (plain English; a description that says its way, "climb down the ladder", keeps it).
_GOES = {"climb": "up", "ascend": "up", "mount": "up", "descend": "down"}


def _ways(said: list[str], deeds: set[str]) -> frozenset[str]:
    """The ways the deed goes: those the description says, else the one its verb implies."""
    said_ways = frozenset(w for w in said if w in DIRECTIONS)
    if said_ways:
        return said_ways
    return frozenset(_GOES[d] for d in deeds if d in _GOES)


@dataclass(frozen=True)
class Roles:
    """Stemmed (unfolded) deed words and object heads; ``singular`` holds the raw heads that
    the description writes in the singular, so "doors" does not name "the door"."""

    deeds: frozenset[str]
    objects: frozenset[str]
    singular: frozenset[str]
    #: The description's content words that are neither its deed nor a head noun: the
    #: modifiers that tell one thing from others of its kind ("floor" of "floor buttons").
    modifiers: frozenset[str] = frozenset()
    #: The description's own head nouns (stemmed), without the id's words: what a light
    #: verb ("use the phone") must name, since it says nothing of the deed.
    heads: frozenset[str] = frozenset()
    #: The head of the description's direct object (stemmed): "note" of "read the folded
    #: note on the writing desk", the thing the deed is done to rather than where it is.
    direct: frozenset[str] = frozenset()
    #: The raw heads the description writes in the plural ("buttons" of "press the floor
    #: buttons"): a player naming one of them in the singular has not said which.
    plural: frozenset[str] = frozenset()
    #: The way the deed goes ("down" of "climb down the ladder"): a player who says only the
    #: verb and the way ("go down", "descend") names it.
    directions: frozenset[str] = frozenset()
    #: The modifiers of the option's objects ("ceiling" of "push open the ceiling hatch",
    #: "inspection" of "on the inspection certificate"), not of what an "of" or "for" piece
    #: names ("dial lock" of "the wheels of the trapdoor's dial lock", "help" of "shout for
    #: help").
    object_modifiers: frozenset[str] = frozenset()
    #: Deed words only the option's id has ("say" of ``say_name`` / "call the ghost by her
    #: name"), and the id's objects ("name"): the id's verb goes with the id's thing.
    id_deeds: frozenset[str] = frozenset()
    id_objects: frozenset[str] = frozenset()
    #: The content words said after a second deed ("help" of "bang on the door and shout
    #: for help"): that deed's own words, whatever the preposition.
    second_words: frozenset[str] = frozenset()


@cache
def roles(option_id: str, description: str) -> Roles:
    deeds, heads, pieces = _parse(words(description))
    id_deeds, _, id_objects = _parse([w for w in ID_SPLIT.split(option_id.lower()) if w])
    objects = {stem(h, fold=False) for h in [*heads, *id_objects]}
    singular = frozenset(h for h in heads if not h.endswith("s") or h.endswith("ss"))
    head_stems = {stem(h, fold=False) for h in heads}
    content = {stem(w, fold=False) for w in words(description) if w not in STOPWORDS}
    return Roles(
        deeds=frozenset(deeds | id_deeds),
        objects=frozenset(objects),
        singular=singular,
        modifiers=frozenset(content - deeds - head_stems - {stem(p) for p in _PARTICLES}),
        heads=frozenset(head_stems),
        direct=frozenset({stem(heads[0], fold=False)} if heads else set()),
        plural=frozenset(heads) - singular,
        directions=_ways(words(description), deeds),
        id_deeds=frozenset(id_deeds - deeds),
        second_words=_second_deed_words(words(description)) - deeds - head_stems,
        id_objects=frozenset(stem(o, fold=False) for o in id_objects),
        object_modifiers=frozenset(stem(w, fold=False) for w in pieces if w not in heads)
        - deeds
        - head_stems,
    )


def _parse(said: list[str]) -> tuple[set[str], list[str], list[str]]:
    """(deed stems, head nouns, every content word of the object pieces) of a phrase; a
    word after "and" or "then" is a deed again ("bang on the door and shout for help")."""
    deeds: set[str] = set()
    heads: list[str] = []
    content_words: list[str] = []
    piece: list[str] = []
    counts = True  # the first piece (the direct object) always counts
    verb_next = True
    opened = False
    for word in [*said, "and"]:  # a last break closes the last piece
        if verb_next:
            if word not in _BREAKS:
                deeds.add(stem(word, fold=False))
                verb_next = False
                opened = True
            continue
        if opened and word == "open":  # "force open the grate": forcing is opening
            deeds.add(word)
            continue
        opened = False
        if word in _BREAKS:
            content = [w for w in piece if w not in STOPWORDS and w not in _PARTICLES]
            content = [w for w in content if not w.isdigit()]
            if content and counts:
                heads.append(content[-1])
                content_words.extend(content)
            piece, counts = [], _BREAKS[word]
            verb_next = word in ("and", "then")
        else:
            piece.append(word)
    return deeds, heads, content_words


def _second_deed_words(said: list[str]) -> frozenset[str]:
    """The content words after "and <verb>" / "then <verb>" in a description."""
    for i, word in enumerate(said[:-1]):
        if word in ("and", "then") and i > 0:
            rest = said[i + 2 :]
            return frozenset(
                stem(w, fold=False) for w in rest if w not in STOPWORDS and w not in _BREAKS
            )
    return frozenset()


def plural_of(said: str, head: str) -> bool:
    """The player wrote ``head`` in the plural ("doors" for "door"): another object."""
    return said in (head + "s", head + "es")


#: Nouns a player uses as verbs at the start of a sentence ("phone for help").
_VERB_USES = {"phone": "call", "telephone": "call", "radio": "call"}


def verb_senses(token: str) -> tuple[str, ...]:
    """The token, and the verb it stands for when it is a noun used as a verb."""
    return (token, _VERB_USES[token]) if token in _VERB_USES else (token,)
