"""A name said to someone ("I call her Rosalind", "Marguerite?"): the message gains
"say the name", so it scores like the option that says a name (the engine checks the name).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.games.escape.function_words import FILLERS, GREETINGS, PEOPLE, QUESTION_STARTS
from parlour.games.escape.keyword_classifier.acting import SENTENCE, is_shouted
from parlour.games.escape.keyword_classifier.clauses import CLAUSE
from parlour.games.escape.keyword_classifier.matching import option_words
from parlour.games.escape.text import STOPWORDS, stem, words
from parlour.games.escape.typos import vocabulary

#: A proper name: a capitalised word (or one in quotes) of three letters or more.
_NAME = re.compile(
    r"(?<![\w'’])(?:[A-Z][a-zA-Z]{2,})(?![\w'’])|(?<=['\"‘“])[A-Za-z]{3,}(?=['\"’”!?.,])"
)


#: Calling someone by name in lower case, before a comma at a sentence's start
#: ("marguerite vell, you can rest now"); the first word is the name.
_CALLED = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*([a-z]{3,})(?=(?:\s+[a-z]{3,})?\s*,[^.!?]*\byou(?:r|rself)?\b)"
)


#: What follows a name called: a comma, and the sentence speaks to that person ("...,
#: you can rest now", "..., I know your name"); "Quick, read the note" is no name.
_TO_YOU = re.compile(r"(?:\s+[A-Za-z]{3,})?\s*,[^.!?]*\byou(?:r|rself)?\b")


#: Naming someone in lower case: "call her margaret", "her name is margaret".
_NAMING = re.compile(
    r"\b(?:call|name)\s+(?:her|him|you|it|them)\s+([a-z]{3,})\b|\bname\s+is\s+([a-z]{3,})\b",
    re.IGNORECASE,
)


#: A sentence's first word, past fillers set off by a comma ("Right, Instead I'll ..."):
#: its capital is the sentence's, not a name's.
_FIRST_WORD = re.compile(
    r"\W*(?:(?:%s)\b\s*,\s*)*(\w+)" % "|".join(sorted(FILLERS, key=len, reverse=True)),  # noqa: UP031
    re.IGNORECASE,
)


def said_a_name(text: str, options: Sequence[tuple[str, str]]) -> str:
    """ "I call her Marguerite", "rest now, Marguerite Vell": a word nobody in the room's
    vocabulary knows, written as a name, is the player saying a name. The message gains a
    clause "say the name" so that naming someone scores like the option that says a name
    (the engine, not the classifier, then checks whether it is the right one). A capitalised
    first word of a longer sentence is only a capital ("Jiggle the handle")."""
    own = option_words(options)
    known = vocabulary(own) | STOPWORDS | FILLERS | GREETINGS
    start = 0
    for sentence in SENTENCE.findall(text):
        first = _FIRST_WORD.match(sentence)
        shouted = is_shouted(sentence)  # in capitals every word looks like a name
        names = [
            *([] if shouted else _NAME.finditer(sentence)),
            *_NAMING.finditer(sentence),
            *_CALLED.finditer(sentence),
        ]
        for m in sorted(names, key=lambda m: m.start()):
            word = m.group(m.lastindex or 0).lower()
            if word in known or stem(word, fold=False) in known:
                continue
            called = bool(_TO_YOU.match(sentence[m.end() :]))  # "Marguerite, you can rest"
            if (
                m.re is _NAME
                and first
                and m.start() == first.start(1)
                and len(words(sentence)) > 2
                and not called
            ):
                continue
            # The naming is a deed where it is said, so that of two deeds in one message
            # ("tell her her name is Marguerite and then open the trapdoor") it comes first.
            boundary = CLAUSE.search(text, start + m.end())
            end = boundary.start() if boundary else len(text.rstrip())
            return f"{text[:end]}, say the name{text[end:]}"
        start += len(sentence)
    return text


#: A question that is only a name ("Marguerite?") or asks whether someone is called it
#: ("are you eleanor?", "is your name Eleanor?", "is it Marguerite Vell?"); asking about
#: her ("is her name Marguerite?") is a question to the narrator, not saying it to her.
_NAME_ASKED = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*(?:(?:are\s+you|is\s+your\s+name|is\s+it|you\s+are|"
    r"your\s+name\s+is)\s+)?(?P<name>[A-Za-z]{3,})(?:\s+(?P<last>[A-Za-z]{3,}))?\s*\?+",
    re.IGNORECASE,
)


#: Calling someone by a name and asking if it is them: "Margaret, is that you?".
_NAME_CALLED = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*(?P<name>[A-Za-z]{3,})(?:\s+(?P<last>[A-Za-z]{3,}))?\s*,\s*"
    r"(?:is\s+(?:that|it)\s+you|are\s+you\s+(?:there|here))\s*\?+",
    re.IGNORECASE,
)


#: What "are you X?" asks when X is a state, not a name: plain English, no scenario's words.
_STATE_TEXT = """okay alright real alive dead here there sad lost lonely trapped stuck angry
afraid scared hurt happy awake asleep sure serious kidding joking friendly evil human ghost
dangerous safe free gone mad cold well sick ill"""


_STATES = frozenset(_STATE_TEXT.split())


_NOT_NAME_ENDINGS = ("ed", "ing", "ly", "ful", "less", "ous", "ive", "able")


def names_asked(message: str, options: Sequence[tuple[str, str]]) -> str:
    """Asking someone whether they bear a name is saying it to them: "Marguerite?", "are you
    eleanor?" become "your name is Marguerite." (the engine, not the classifier, checks it is
    the right one). Only a word nobody in the room's vocabulary knows, that is no state
    ("are you real?") and has no ending of an adjective or adverb, is taken for a name."""
    own = option_words(options)
    known = vocabulary(own) | STOPWORDS | FILLERS | GREETINGS | _STATES | PEOPLE
    known |= QUESTION_STARTS

    def said(match: re.Match[str]) -> str:
        name = match.group("name")
        words_ = [name.lower(), *([match.group("last").lower()] if match.group("last") else [])]
        if any(w in known or stem(w, fold=False) in known for w in words_):
            return match.group(0)
        if any(w.endswith(_NOT_NAME_ENDINGS) for w in words_):
            return match.group(0)
        full = " ".join(filter(None, (name, match.group("last"))))
        return f"your name is {full}."

    return _NAME_ASKED.sub(said, _NAME_CALLED.sub(said, message))
