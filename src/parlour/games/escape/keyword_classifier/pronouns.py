"""What "it", "them", "her" and "the green one" stand for, when the message and the
options say: the one thing or person they can be.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.games.escape.function_words import PEOPLE
from parlour.games.escape.keyword_classifier.acting import SENTENCE, is_question
from parlour.games.escape.keyword_classifier.matching import (
    action_roles,
    all_objects,
    raw_tokens,
    word_fits,
)
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import near, stem, words

#: Speaking or turning to someone by a pronoun: "ask her", "turn to her", "talk to him".
_TO_PERSON = re.compile(
    r"\b(?P<verb>ask|tell|talk\s+to|talk\s+with|speak\s+to|speak\s+with|turn\s+to|"
    r"whisper\s+to|say\s+to|greet|comfort|console|approach)\s+(?:\w+ly\s+)?(?P<who>her|him)\b",
    re.IGNORECASE,
)


def person_resolved(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "turn to her and ask what happened", "talk to him": a pronoun spoken to stands for
    the one person the offered options speak to (a word of ``PEOPLE`` in their
    descriptions: "the ghost"); with none, or two, it is left alone."""
    people = {w for oid, label in options if oid not in (NONE_ID, ASK_ID) for w in words(label)}
    people &= PEOPLE
    if len(people) != 1:
        return text
    (person,) = people
    return _TO_PERSON.sub(lambda m: f"{m.group('verb')} the {person}", text)


_PRONOUN = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)


def it_after_questions(message: str, options: Sequence[tuple[str, str]]) -> str:
    """The pronouns of the sentences after a question, resolved with the question's words
    (``it_resolved``) before the acting part drops it: "is the code in the newspaper?
    let me read it" reads the newspaper."""
    sentences = SENTENCE.findall(message)
    out: list[str] = []
    asked = False
    for sentence in sentences:
        if asked and not is_question(sentence):
            before = "".join(out)
            sentence = it_resolved(before + sentence, options, len(before))[len(before) :]
        asked = asked or is_question(sentence)
        out.append(sentence)
    return "".join(out) if asked else message


_PUT_IN = re.compile(r"\s+(?:in|into|inside|on|onto|against)\b", re.IGNORECASE)


def it_resolved(text: str, options: Sequence[tuple[str, str]], start: int = 0) -> str:
    """ "she pointed at the trapdoor so let's open it": a pronoun whose only possible
    antecedent before it in the message is one of the room's things (an object of some
    option) stands for that thing. Of two things named before it, the one the verb before
    the pronoun can be done to ("is the code in the newspaper? let me read it": the
    newspaper is read, the code is typed); otherwise, or with none, it is left alone."""
    objects = all_objects(options)
    parts = [p for _, p in action_roles(options)]

    def noun(match: re.Match[str]) -> str:
        if match.start() < start:
            return match.group(0)  # only the pronouns from ``start`` on
        before = raw_tokens(text[: match.start()])
        things = {o for _, s in before for o in objects if word_fits(s, o)}
        named = [w for w, s in before if any(word_fits(s, o) for o in things)]
        if len({stem(w, fold=False) for w in named}) == 1:
            return named[-1]
        if _PUT_IN.match(text, match.end()):
            # "try it in the cabinet": what is put in or on a thing is a tool, an option's
            # object other than the one its deed is done to (the key of "unlock the cabinet
            # with the key"); of the things named before, the one tool stands for "it".
            tools = {o for p in parts for o in p.objects - p.direct} & things
            held = [w for w, s in before if any(near(s, o) for o in tools)]  # the word itself
            if len({stem(w, fold=False) for w in held}) == 1:
                return held[-1]
        verb = raw_tokens(text[: match.start()])[-1:]
        if not verb or any(word_fits(verb[0][1], o) for o in objects):
            return match.group(0)
        doers = [p for p in parts if any(word_fits(verb[0][1], d) for d in p.deeds)]
        done_to = {o for p in doers for o in p.objects}
        tries = [done_to]
        touched = [p for p in doers if p.objects & things]
        if len(touched) == 1:
            # One deed's things named: the thing it is done to before its tool ("light it"
            # with the lantern and the matches named: the lantern).
            tries.insert(0, set(touched[0].direct))
        for done in tries:
            fits = [w for w, s in before if any(word_fits(s, o) for o in done & things)]
            if len({stem(w, fold=False) for w in fits}) == 1:
                return fits[-1]
        return match.group(0)

    return _PRONOUN.sub(noun, text)


_ONE = re.compile(r"\b([a-z]+)\s+one\b", re.IGNORECASE)


def one_named(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "try the green one": "one" with a modifier that tells exactly one option's thing
    from the others stands for that thing ("the green button")."""

    def noun(match: re.Match[str]) -> str:
        word = stem(match.group(1).lower(), fold=False)
        owners = [
            parts for _, parts in action_roles(options) if word in parts.modifiers and parts.heads
        ]
        if len(owners) != 1:
            return match.group(0)
        return f"{match.group(1)} {sorted(owners[0].heads)[0]}"

    return _ONE.sub(noun, text)
