"""Several deeds in one message: "open the drawer and take the key", "X, then Y".

The engine splits a message into its deeds before the classifier sees it, and plays them as
steps in order: the first deed is classified on this turn; when it makes something
happen, the next deed is classified on the next turn (the player is not asked again),
and so on. When a deed makes nothing happen, the deeds after it are dropped and the
player is told so: the second deed never happens without the first. A split is made only
between two parts that each start with a verb (after "I", "then", "and", "let me"...): a
verb a player uses on things (``VERBS``), the first word of one of the room's own action
descriptions or phrasings, or a word an English lexicon knows as a verb
(``lexical_verb``: LemmInflect's lemma tables, inside the installed package), for the
part before the join only, when an article or pronoun follows it ("swap the fuse", not
"key ring" nor "lean over the rail"), so "change the fuse and plug in the red cable" is
two deeds and the second never happens alone. The part after the join may also start
with a verb's base form by that lexicon, no adjective (and, if it is a noun too,
followed by a particle or a function word: "punch in 7204", not "key ring"), when the
part before it starts with a verb too, a known one or a base form ("unlatch the cage and
check the white dove's ring"; not "holding the lantern up, I go down", the way a deed is
done). At "then", a part that starts with a word of its own (no article, pronoun,
preposition or filler) counts as a deed whatever its verb ("stoke the furnace and then
turn the red wheel": two deeds, so the second never happens alone). It is never made
inside a phrase the room itself uses ("bang on the door and shout for help" is one
action), nor after a part that only moves ("go to the desk and open the drawer" is one
deed), nor at "or" (alternatives are the classifier's to ask about). After "then", a
part that names a thing with no verb takes the earlier deed's verb ("open the left
cabinet and then the right one": "open the right one").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from parlour.games.escape.roles import roles
from parlour.games.escape.text import STOPWORDS, tokens, words

#: Verbs a player does things with, besides the room's own (the first words of its
#: descriptions and phrasings).
_VERBS_TEXT = """
open close shut take grab pick get read use unlock lock light climb push pull press turn
put insert type enter dial say call tell ask speak talk examine inspect look search
break force smash lift lower move plug unplug ring shout knock bang flip switch ease try
hold drop throw kick hit cut pry prise wind set fill pour burn blow step jump crawl
write draw wipe shake rub tap touch give show feed wake drink eat sit stand lie wait
listen smell taste
"""
VERBS = frozenset(_VERBS_TEXT.split())
#: Verbs of going somewhere: a part made only of one is where the deed is done, not a deed.
_MOVES_TEXT = """
go walk head approach come run wander cross return
"""
MOVES = frozenset(_MOVES_TEXT.split())

_LEAD = re.compile(
    r"^(?:(?:i|we|then|and|also|next|after that|afterwards|let me|let's|now|so)\b[\s,]*)*"
)
#: Where a message may split: sentence ends, semicolons, "then", "and", a comma.
_JOINS = re.compile(
    r"(?:[.!;]+\s+|,\s*(?:and\s+)?then\s+|\s+and\s+then\s+|\s+then\s+|\s+and\s+|,\s+)"
)


def _lead_verb(part: str) -> str:
    rest = _LEAD.sub("", part.strip().lower())
    found = re.match(r"[a-z']+", rest)
    return found.group(0) if found else ""


def room_verbs(texts: Iterable[str]) -> frozenset[str]:
    """The first word of each of the room's action texts (descriptions, phrasings)."""
    return frozenset(w for t in texts if (w := _lead_verb(t)))


def _moves(part: str) -> bool:
    """A part that only goes somewhere: "go to the desk", "turn to the ghost", "walk over
    to the window"."""
    rest = _LEAD.sub("", part.strip().lower()).split()
    if not rest:
        return False
    if rest[0] in MOVES:
        return True
    after = [w for w in rest[1:3] if w not in ("over", "up", "back", "round", "around")]
    return bool(after) and after[0] in ("to", "towards", "toward")


def _is_verb(word: str, verbs: frozenset[str]) -> bool:
    if not word:
        return False
    return any(f in verbs for f in (word, word.removesuffix("s"), word.removesuffix("es")))


def _lexical_deed(part: str, adjective: bool = True) -> bool:
    """A part led by a word an English lexicon knows as a verb (``lexical_verb``) done to a
    thing: an article or pronoun follows it ("swap the fuse"; not "key ring", nor "lean
    over the rail" or "kneel by the pond", the way the next deed is done)."""
    rest = re.findall(r"[a-z']+", _LEAD.sub("", part.strip().lower()))
    if not rest or not lexical_verb(rest[0], adjective):
        return False
    return len(rest) > 1 and rest[1] in _THINGS | _OBJECTS


def _lexical_lead(part: str) -> bool:
    """A part after a join led by a verb's base form by the English lexicon, no adjective
    ("walk out", "shove batteries in the walkies"; not "holding the lamp up", the way a
    deed is done); a word that is a noun too only when a particle or a function word follows
    it ("punch in", not "key ring")."""
    rest = re.findall(r"[a-z']+", _LEAD.sub("", part.strip().lower()))
    lead = rest[0] if rest else ""
    if not lead.isalpha() or lead in STOPWORDS | _THINGS or not lexical_verb(lead, False):
        return False
    if lexical_noun(lead) and not (len(rest) > 1 and rest[1] in STOPWORDS | _PARTICLES):
        return False  # "key ring": a noun, unless a particle or a function word follows
    return any(k == "VERB" and lead in forms for k, forms in _lemma_table(lead))


_OBJECTS_TEXT = "it them him her his its their some one all both"
_OBJECTS = frozenset(_OBJECTS_TEXT.split())


@lru_cache(maxsize=8192)
def _lemma_table(word: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """LemmInflect's lemmas of ``word`` by part of speech (read from the installed
    package: no download); empty for a stop word or a word it does not know."""
    if not word.isalpha() or word in STOPWORDS:
        return ()
    import lemminflect  # type: ignore[import-untyped]

    return tuple((k, frozenset(v)) for k, v in lemminflect.getAllLemmas(word).items())


def _kinds(word: str) -> set[str]:
    return {k for k, _ in _lemma_table(word)}


def lexical_verb(word: str, adjective: bool = True) -> bool:
    """Whether an English lexicon (LemmInflect's lemma tables) knows ``word`` as a verb
    ("change", "swap", "stoke"); with ``adjective=False``, only when it is no adjective
    too ("blue", "open")."""
    kinds = _kinds(word)
    return "VERB" in kinds and (adjective or "ADJ" not in kinds)


def lemmas(word: str) -> frozenset[str]:
    """The word's base forms by the English lexicon, whatever its part of speech
    ("batteries": "battery"); empty for a word it does not know."""
    return frozenset(f for _, forms in _lemma_table(word) for f in forms)


def lexical_noun(word: str) -> bool:
    """Whether the lexicon knows ``word`` as a noun too."""
    return "NOUN" in _kinds(word)


def split_deeds(message: str, texts: Iterable[str] = ()) -> list[str]:
    """The message's deeds in order (one item when it holds one deed, or is a question)."""
    plain = " ".join(message.split())
    if not plain or plain.startswith("/") or "?" in plain or re.search(r"\bor\b", plain.lower()):
        return [plain] if plain else []
    texts = [t.lower() for t in texts]
    verbs = VERBS | room_verbs(texts)
    room = " \n ".join(" ".join(t.split()) for t in texts)
    pieces: list[str] = []
    joins: list[str] = []
    at = 0
    for found in _JOINS.finditer(plain):
        pieces.append(plain[at : found.start()])
        joins.append(found.group(0))
        at = found.end()
    pieces.append(plain[at:])
    deeds = [pieces[0]]
    for join, piece in zip(joins, pieces[1:], strict=True):
        before, after = deeds[-1], piece
        glued = f"{before}{join}{after}"
        kept = re.sub(r"[.!;,\s]+$", "", before).strip()
        split = (
            (
                _is_verb(_lead_verb(after), verbs)
                or _then_deed(join, after)
                or (
                    _lexical_lead(after)
                    and (_is_verb(_lead_verb(kept), verbs) or _lexical_lead(kept))
                )
            )
            and (
                _is_verb(_lead_verb(kept), verbs | MOVES)
                or _lexical_deed(kept)
                or _then_deed(join, kept)
            )
            and not _moves(kept)
            and len(after.split()) >= 2
            and len(kept.split()) >= 2
            and not _in_room(join, after, room)
        )
        if split:
            deeds[-1] = kept
            deeds.append(after.strip())
        elif _elided(join, after, kept, verbs):
            # "open the left cabinet and then the right one": the verb said once does both.
            deeds[-1] = kept
            deeds.append(f"{_verb_phrase(kept)} {after.strip()}")
        else:
            deeds[-1] = glued
    out = [d.strip(" ,;") for d in deeds if d.strip(" ,;.!")]
    # "pick up the note and read it": a later deed's "it" is the thing of the one before.
    for n in range(1, len(out)):
        thing = _object_of(out[n - 1])
        if thing:
            out[n] = _IT.sub(thing, out[n], count=1)
    return out


#: Words that start a second thing after "then" with the verb left out ("... then the
#: one under the berth").
_THINGS_TEXT = "the a an that this those these my your"
_THINGS = frozenset(_THINGS_TEXT.split())


def _worded(part: str) -> bool:
    """A part that starts with a word of its own (no article, pronoun, preposition or
    filler): a deed whatever its verb, when a deed follows ("stoke the furnace and then
    turn the red wheel", "change the fuse and plug in the red cable")."""
    lead = _lead_verb(part)
    return lead.isalpha() and lead not in STOPWORDS | _THINGS


def _then_deed(join: str, after: str) -> bool:
    """A part after "then" that starts with a word of its own: a next deed, whatever its
    verb, as players chain orders with "then"."""
    return "then" in join.lower() and _worded(after)


def _elided(join: str, after: str, kept: str, verbs: frozenset[str]) -> bool:
    """A part after "then" that names a thing and no verb, after a part that has one."""
    first = after.strip().lower().split()[:1]
    return (
        "then" in join.lower()
        and bool(first)
        and first[0] in _THINGS
        and len(after.split()) >= 2
        and _is_verb(_lead_verb(kept), verbs)
        and not _moves(kept)
    )


def _verb_phrase(deed: str) -> str:
    """The deed's verb and its particles ("pick up"), as the player said them."""
    rest = _LEAD.sub("", deed.strip().lower()).split()
    out = rest[:1]
    for word in rest[1:]:
        if word not in _PARTICLES:
            break
        out.append(word)
    return " ".join(out)


_IT = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)
_PARTICLES_TEXT = "up down off out on in over back open round around"
_PARTICLES = frozenset(_PARTICLES_TEXT.split())
_ENDS_TEXT = "off from on in into with to at onto for under behind inside through and then"
_ENDS = frozenset(_ENDS_TEXT.split())


def _object_of(deed: str) -> str:
    """The thing a deed is done to: the words after its verb (and a particle) up to a
    preposition ("pick up the note" → "the note"); empty when it is a pronoun or nothing."""
    rest = _LEAD.sub("", deed.strip().lower()).split()[1:]
    while rest and rest[0] in _PARTICLES:
        rest = rest[1:]
    thing: list[str] = []
    for word in rest:
        if word in _ENDS:
            break
        thing.append(word.strip(".,;!"))
    if not thing or thing[0] in ("it", "them", "her", "him", "up", "down"):
        return ""
    return " ".join(thing)


def _in_room(join: str, after: str, room: str) -> bool:
    """The join and the words after it are a phrase of the room's own texts."""
    words = after.lower().split()[:2]
    phrase = f"{join.strip().lower()} {' '.join(words)}".strip()
    return bool(words) and f" {phrase}" in f" {room}"


def told_things(texts: Iterable[str]) -> list[str]:
    """The words of what the player has been told (the room's intro and facts, the
    consequences so far) that may name a thing: a thing told of is in sight although the
    room lists no object for it ("inside is a screwdriver")."""
    return sorted({w for t in texts for w in words(t) if len(w) > 2 and w not in STOPWORDS})


#: Verbs of taking: the engine keeps no inventory, so taking a thing in plain sight is
#: no deed of the story (the room's own actions say when taking does something).
_TAKES_TEXT = """
take grab get collect pocket pick keep hold
"""
TAKES = frozenset(_TAKES_TEXT.split())


def room_words(actions: Iterable[tuple[str, str]]) -> tuple[frozenset[str], frozenset[str]]:
    """The deeds (verbs) and things (head nouns) the room's actions are about, as
    ``roles.py`` reads them from each (id, description)."""
    about = [roles(aid, text) for aid, text in actions]
    return (
        frozenset(d for r in about for d in r.deeds),
        frozenset(o for r in about for o in r.objects),
    )


def passes_on(
    deed: str,
    looked: bool,
    in_sight: Iterable[str],
    room: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
) -> bool:
    """Whether the deeds after ``deed`` may still happen although ``deed`` made nothing
    happen: it only looked; it took a thing in plain sight (``in_sight``: the names of the
    objects the player can see now; taking what is not there yet stops the steps); or it
    is about nothing the room's actions are about (``room``: their deeds and things), so
    it is the way the next deed is done ("get my fingers in the gap and pull the doors
    apart"), not a step of the story."""
    if looked:
        return True
    lead = _lead_verb(deed)
    said = f" {' '.join(re.findall(r'[a-z0-9]+', deed.lower()))} "
    if lead in TAKES and any(
        f" {' '.join(re.findall(r'[a-z0-9]+', n.lower()))} " in said for n in in_sight
    ):
        return True
    deeds, things = room
    if not (deeds or things):
        return False
    plain = _LEAD.sub("", deed.strip().lower())
    words = tokens(plain, fold=False)  # as ``roles.py`` reads the room's texts
    if not words or words[0] in deeds:
        return False
    return not any(w in things for w in (*words, *tokens(plain)))
