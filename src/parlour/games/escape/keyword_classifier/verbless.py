"""A message with no deed: a thing named alone ("the newspaper", "phone cable") or a
sentence saying what there is ("there's a phone") never acts.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.escape.function_words import DETERMINERS, FILLERS, PEOPLE, SUBJECTS
from parlour.games.escape.keyword_classifier.clauses import CLAUSE
from parlour.games.escape.keyword_classifier.matching import action_roles
from parlour.games.escape.keyword_classifier.prepared import prepared
from parlour.games.escape.lexicon import senses
from parlour.games.escape.roles import verb_senses
from parlour.games.escape.text import near, stem, words

#: Words that join the names of things in a noun phrase ("the key of the cabinet", "the
#: hatch in the ceiling"); not "on", which also ends a phrasal verb ("torch on").
_JOINER_TEXT = "of and with in inside over under behind beside by near"


_JOINERS = frozenset(_JOINER_TEXT.split())


#: Words said beside a thing that make no deed of it ("phone please", "the note, then").
_ASIDES = frozenset(["please", "pls", "plz", "then", "now", "again", "too", "first", "next"])


def is_verbless(message: str, options: Sequence[tuple[str, str]]) -> bool:
    """Every clause names a thing and no deed ("the newspaper", "the key, the small one"):
    the player has not said what to do with it, so nothing is done (the narrator answers;
    a guess could end the game)."""
    text = prepared(message, options)
    leads = [[w for w in words(c) if w not in FILLERS][:1] for c in CLAUSE.split(text) if c.strip()]
    if bool(leads) and all(lead and lead[0] in DETERMINERS for lead in leads):
        return True
    clauses = [c for c in CLAUSE.split(text) if c.strip()]
    if clauses and all(_states(c) for c in clauses):
        return True  # "there's a phone", "hatch is up there": said of a thing, not done to it
    return _only_things(text, options)


#: What a thing is or seems: the verb of a sentence about it, not an order.
_COPULAS = frozenset(["is", "are", "was", "were", "looks", "look", "seems", "seem", "feels"])


def _states(clause: str) -> bool:
    """The clause says what there is or what a thing is ("there's a phone", "hatch is up
    there", "the lever seems stuck"), opening with "there"/"here" or a noun and a copula."""
    lead = [w for w in words(clause) if w not in FILLERS and w not in DETERMINERS][:2]
    if lead[:1] in (["there"], ["here"]):
        return True
    return len(lead) == 2 and lead[1] in _COPULAS and lead[0] not in SUBJECTS | PEOPLE


def _only_things(text: str, options: Sequence[tuple[str, str]]) -> bool:
    """A message (past fillers, determiners and joiners) every word of which names one of
    the room's things or their modifiers, at least one a thing, and whose first word is no
    option's deed word for word ("newspaper", "desk", "phone", "emergency phone", "phone
    cable", "red switch"): an object word or noun phrase alone says nothing of what to do,
    so it is ``none`` (``labels.py``), like "the newspaper", whatever options the thing
    has, even when only one option names it. A noun that can be a verb ("phone") is one
    when a determiner or a word that is no thing follows ("phone the desk", "phone for
    help"); alone it is the thing. "torch on" and "let the brake off" say more; a code
    ("1962") is no thing."""
    lead = [w for w in words(text) if w not in FILLERS]
    said = [w for w in lead if w not in DETERMINERS and w not in _JOINERS | _ASIDES]
    if not said or len(said) > 3 or any(w.isdigit() for w in said):
        return False
    parts = [p for _, p in action_roles(options)]
    objects = {o for p in parts for o in p.objects}
    modifiers = {m for p in parts for m in p.modifiers}
    deeds = {d for p in parts for d in p.deeds}

    def kinds(token: str) -> set[str]:
        # The lexicon's senses, not the validator's one-form folds ("telephone" / "call").
        return {x for x in senses(token) if x.startswith("#") and not x.startswith("#=")}

    deed_senses = {x for d in deeds for x in kinds(d)}
    object_senses = {x for o in objects for x in kinds(o)}

    def thing(token: str) -> bool:
        # Word for word (or a typo of it), or another name of a thing ("handset", "woman",
        # "paper") with no sense of a deed: "pull" and "scream" share a sense with a
        # lever's release and with help, but they are verbs.
        if any(near(token, o) for o in objects):
            return True
        return bool(kinds(token) & object_senses) and not kinds(token) & deed_senses

    tokens = [stem(w, fold=False) for w in said]
    if not any(thing(t) for t in tokens):
        return False  # "HELP!" alone (a modifier of shouting for help) is a shout
    if not all(thing(t) or any(near(t, m) for m in modifiers) for t in tokens):
        return False
    if any(near(tokens[0], d) for d in deeds):
        return False  # "switch", "light": the word is a deed too, and it comes first
    if len(verb_senses(said[0])) > 1 and len(lead) > 1 and lead[0] == said[0]:
        # "phone the night desk": a noun used as a verb, its object after a determiner
        return lead[1] not in DETERMINERS
    return True
