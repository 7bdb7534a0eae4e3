"""Whether a message *names* an option: says its deed (or a light verb, a code, a way,
the deed's sound) and one of its things; and the marks of one option only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.games.escape.keyword_classifier.clauses import MOVED
from parlour.games.escape.keyword_classifier.matching import action_roles, looks_to_read, word_fits
from parlour.games.escape.lexicon import WRITTEN, senses
from parlour.games.escape.roles import LIGHT_DEEDS, Roles, plural_of, roles, verb_senses
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import near, stem

CODE_WORDS = frozenset({"code", "keypad", "dial", "combination", "password", "pin"})


#: A word said again in a row: "bang bang bang", "knock knock", "knock, knock".
_REPEATED = re.compile(r"\b([a-z]+)(?:[\s,!.]+\1\b){1,}", re.IGNORECASE)


def sounded_deed(text: str, about: dict[str, Roles]) -> str:
    """The option whose deed is a word said twice or more in a row ("bang bang bang let me
    out", "knock knock!!"): the sound of the deed being done, which names it when it is the deed of
    exactly one option (the thing is the one the deed is done to: the door)."""
    found = _REPEATED.search(text)
    if not found:
        return ""
    word = stem(found.group(1).lower(), fold=False)
    doers = [oid for oid, parts in about.items() if any(word_fits(word, d) for d in parts.deeds)]
    return doers[0] if len(doers) == 1 else ""


def code_option(said: list[tuple[str, str]], described: dict[str, frozenset[str]]) -> str:
    """The one option that takes a code, when the message holds a number of 3+ digits."""
    code_options = [oid for oid, toks in described.items() if toks & CODE_WORDS]
    number = any(s.isdigit() and len(s) >= 3 for _, s in said)
    return code_options[0] if number and len(code_options) == 1 else ""


def contradicts(said: list[tuple[str, str]], parts: Roles) -> bool:
    """The player names one of the option's objects in the plural where the description
    has one ("pry open the doors" is not about "the little emergency phone door")."""
    return any(plural_of(w, h) for w, _ in said for h in parts.singular)


def exact_deeds(
    said: list[tuple[str, str]], options: Sequence[tuple[str, str]]
) -> dict[str, frozenset[str]]:
    """Per option, the deed words the message must say word for word: the id's own verb
    ("say" of ``say_name`` / "call the ghost by her name") when the message names none of
    the id's things ("name"). The id's verb goes with the id's thing: "speak her name",
    "lift the trapdoor" say it by a word of the same sense, but "talk to the ghost again"
    or "ask the ghost what she wants" (talking shares a sense with saying) is no saying of
    her name."""
    exact: dict[str, frozenset[str]] = {}
    for oid, label in options:
        if oid in (NONE_ID, ASK_ID):
            continue
        parts = roles(oid, label)
        loose = any(word_fits(s, o) for _, s in said for o in parts.id_objects)
        exact[oid] = frozenset() if loose else parts.id_deeds
    return exact


def own_modifiers(options: Sequence[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Per option, the modifiers of its objects, and the words of a second deed ("help" of
    "bang on the door and shout for help"), that no other option's description or id has
    at all ("ceiling" of "push open the ceiling hatch"): a mark of that one option."""
    parts = dict(action_roles(options))
    every = {oid: p.modifiers | p.objects | p.deeds for oid, p in parts.items()}
    return {
        oid: frozenset(
            m
            for m in p.object_modifiers | p.second_words
            if not any(word_fits(m, w) for other, ws in every.items() if other != oid for w in ws)
        )
        for oid, p in parts.items()
    }


def _enters_a_code(word: str, said: str) -> bool:
    """A verb a code is given by: dialled, typed, set, or a light verb ("try", "put")."""
    return said in LIGHT_DEEDS or word in _PUT or bool(senses(said) & {"#code", "#set", "#type"})


#: Verbs that put a number somewhere: "put 1850 into the lock", "punch in 1848".
_PUT = frozenset({"put", "input", "punch", "key"})


def names_option(
    verbs: list[tuple[str, str]],
    said: list[tuple[str, str]],
    parts: Roles,
    coded: bool,
    ways: frozenset[str] = frozenset(),
    marks: frozenset[str] | None = None,
    exact: frozenset[str] = frozenset(),
) -> bool:
    """The message names the option's deed with the first word of a clause (its verb, or a
    light verb: "use", "try"; "phone" there is a verb) and, when the option has objects,
    one of them with another word, not in the plural when the description has it in the
    singular ("pry open the doors" does not name "the little emergency phone door"). A
    deed verb with a modifier only this option has names it too: the player called the
    thing by another name but said which ("shove the ceiling panel up": the ceiling's
    hatch)."""
    deed = {
        w
        for w, s in verbs
        if s in LIGHT_DEEDS
        or any(
            (near if d in exact else word_fits)(v, d)
            for v in (s, *verb_senses(w))
            for d in parts.deeds
        )
    }
    looked = {w for w, s in verbs if any(looks_to_read(s, d) for d in parts.deeds)}
    if not deed and looked:
        # Looking at a thing that is read is reading it, when it is that thing that is
        # looked at ("x note", "x certificate": the direct object, or a thing that bears
        # writing), not the place it lies ("x desk" is not reading the note).
        return any(
            word_fits(s, o) and (o in parts.direct or o in WRITTEN)
            for w, s in said
            if w not in looked
            for o in parts.objects
        )
    if coded and (deed or any(s.isdigit() or _enters_a_code(w, s) for w, s in verbs)):
        # "enter 1962", "1962": the code names the code's object; so does a verb a code is
        # given by ("dial 1848 into the wheels", "put 1850 into the lock", "try 1848")
        return True
    if not deed or not parts.objects:
        return bool(deed)
    # The deed's own word may not also be the object ("switch" is a deed and a thing),
    # unless it is a noun used as a verb ("phone for help" names the phone).
    objects = [s for w, s in said if w not in deed or verb_senses(w) != (w,)]
    # A light verb alone says nothing of the deed: it names an option only through the
    # description's head nouns ("use the phone" is not opening the phone's *door*).
    light_only = all(s in LIGHT_DEEDS for w, s in verbs if w in deed)
    wanted = parts.heads if light_only and parts.heads else parts.objects
    if not light_only and parts.directions & ways:
        return True  # the verb and the way the deed goes ("go down", "I go down into the dark")
    moved = {f"{MOVED}{d}" for d in parts.directions}
    if not light_only and moved & ways and not any("#climb" in senses(d) for d in parts.deeds):
        return True  # "lower the lift by hand": the deed that moves a thing down
    if not light_only and marks and any(s in marks for s in objects):
        return True
    return any(word_fits(s, o) for s in objects for o in wanted)
