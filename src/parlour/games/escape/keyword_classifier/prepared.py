"""The text every score reads (``prepared``): the acting part in plainer words
(``phrasing``), codes and compounds joined, pronouns and names resolved, typos corrected.
Made once per message and options (a dozen readers ask for it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from parlour.games.escape.keyword_classifier.acting import acting_part
from parlour.games.escape.keyword_classifier.matching import (
    LOOKING,
    action_roles,
    option_words,
    raw_tokens,
    word_fits,
)
from parlour.games.escape.keyword_classifier.names import names_asked, said_a_name
from parlour.games.escape.keyword_classifier.pronouns import (
    it_after_questions,
    it_resolved,
    one_named,
    person_resolved,
)
from parlour.games.escape.lexicon import senses
from parlour.games.escape.phrasing import digits_joined, rewrite
from parlour.games.escape.text import stem
from parlour.games.escape.typos import correct, shorthand, vocabulary

_IDENTIFIER = re.compile(r"\w+_\w+")


_COMPOUND = re.compile(
    r"\b(trap|news|hand|fire|crawl|key|flash|torch|sky|cup|book)[\s-]+"
    r"(door|paper|rail|place|space|pad|light|board|shelf|case)\b",
    re.IGNORECASE,
)


def prepared(message: str, options: Sequence[tuple[str, str]]) -> str:
    """The acting part of the message, rewritten (``phrasing``), codes and compounds joined,
    typos corrected: the text every score reads (a dozen readers ask for it per message,
    so it is made once)."""
    return _prepared_once(message, tuple((oid, label) for oid, label in options))


@lru_cache(maxsize=256)
def _prepared_once(message: str, options: tuple[tuple[str, str], ...]) -> str:
    # A pronoun may stand for a thing named in a question before it ("is the code in the
    # newspaper? let me read it"), which the acting part drops: resolve it first.
    message = it_after_questions(names_asked(message, options), options)
    text = _compounds_joined(digits_joined(_IDENTIFIER.sub(" ", rewrite(acting_part(message)))))
    text = _labelled(it_resolved(_light_first(text, options), options), options)
    text = person_resolved(text, options)
    return _typos_corrected(said_a_name(one_named(text, options), options), options)


#: "press G", "push 9": a deed on a label alone, the label ending its clause.
_LABEL_PRESSED = re.compile(
    r"\b(?P<verb>[a-z]+)\s+(?:(?:button|number)\s+)?(?P<label>\d{1,2}|[b-hj-zB-HJ-Z])"
    r"(?=\s*(?:[.!?,;:]|$|\s+(?:and|then)\b))",
    re.IGNORECASE,
)


def _labelled(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "press G", "press 9": a label belongs to one of several like things, so it names
    the one option whose deed is the verb and whose thing is in the plural ("press the
    floor buttons"); the label is then said of those ("press buttons G"). Two such options,
    or none, leave the text alone."""

    def named(match: re.Match[str]) -> str:
        verb = stem(match.group("verb").lower(), fold=False)
        owners = [
            parts
            for _, parts in action_roles(options)
            if parts.plural and any(word_fits(verb, d) for d in parts.deeds)
        ]
        if len(owners) != 1:
            return match.group(0)
        return f"{match.group('verb')} {sorted(owners[0].plural)[0]} {match.group('label')}"

    return _LABEL_PRESSED.sub(named, text)


#: The instrument ending a clause: "read the certificate with my phone light".
_WITH_TOOL = re.compile(
    r"(?P<goal>[^,.!?;]*?)\s+with\s+(?P<tool>(?:(?:the|my|a|an|your|this|that)\s+)?"
    r"(?:[\w'’-]+\s+){0,2}?(?P<head>[\w'’-]+))\s*(?=[,.!?;]|\s+and\b|$)",
    re.IGNORECASE,
)


def _light_first(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "read the certificate with my phone light" while the torch is still off: a light
    the player would read or look by (an instrument of a reading or looking clause) that
    is the thing an available option switches on or lights must be lit first, so the
    clause is that ("use my phone light"). Once it is on, that option is gone and the
    clause reads (the light, said or not, adds nothing: "squint at it in the torchlight")."""

    def first(match: re.Match[str]) -> str:
        goal = [s for _, s in raw_tokens(match.group("goal"))][:1]
        if not goal or not senses(goal[0]) & LOOKING:
            return match.group(0)
        head = stem(match.group("head").lower(), fold=False)
        owners = [
            oid
            for oid, parts in action_roles(options)
            if any(word_fits(head, d) for d in parts.direct)
            and any(senses(d) & {"#light", "#use"} for d in parts.deeds)
        ]
        if not owners and (head == "light" or senses(head) & {"#torch", "#lantern"}):
            return match.group("goal")  # the light is on: the looking is by it, no deed
        if len(owners) != 1:
            return match.group(0)
        lead = re.match(r"\s*", match.group("goal"))
        return f"{lead.group(0) if lead else ''}use {match.group('tool')}"

    return _WITH_TOOL.sub(first, text)


def _typos_corrected(text: str, options: Sequence[tuple[str, str]]) -> str:
    """Unknown words replaced by the one known word they are a likely typo of (``typos``)."""
    own = option_words(options)
    known = vocabulary(own)
    return re.sub(r"[A-Za-z]+", lambda m: shorthand(correct(m.group(0).lower(), known), own), text)


def _compounds_joined(text: str) -> str:
    """ "trap door", "news paper", "hand rail" are one word typed apart: join them."""
    return _COMPOUND.sub(lambda m: m.group(1) + m.group(2), text)
