"""The acting part of a message: its sentences that are not questions (a shouted one
is a shout), without the parts a negation covers; and whether a sentence is a question.
"""

from __future__ import annotations

import re

from parlour.games.escape.commands import is_looking
from parlour.games.escape.function_words import (
    ANYONE,
    AUXILIARIES,
    DELIBERATING,
    GREETINGS,
    QUESTION_STARTS,
    SUBJECTS,
)
from parlour.games.escape.phrasing import in_order, untagged
from parlour.games.escape.text import words

_NEGATIONS = frozenset({"not", "dont", "don't", "never", "won't", "wont", "refuse", "avoid"})


#: Fillers a question may open with ("hmm", "ok so"): not "let", "think", "first", which
#: open orders ("let me think", "first read the note").
_LEAD_FILLERS = frozenset({"hmm", "hm", "um", "umm", "uh", "er", "erm", "ok", "okay", "so", "well"})


#: Who a deliberating modal asks about: the player ("should i", "shall we").
_DECIDERS = frozenset({"i", "we"})


SENTENCE = re.compile(r"[^.!?;:]+[.!?;:]*")  # a sentence with its end marks


def is_question(message: str) -> bool:
    """Ends in "?", or opens like a question: a wh-word, or an auxiliary before its subject
    ("is the door locked", "have you seen"); "have a look at the painting" is an order."""
    text = message.strip()
    if text.rstrip("!").endswith("?"):
        return True
    said = words(text)
    # "hmm, should I open the door": a question opened past its fillers is still one.
    lead = said[next((i for i, w in enumerate(said) if w not in _LEAD_FILLERS), len(said)) :][:2]
    if lead[:1] and lead[0] in DELIBERATING and lead[1:] and lead[1] in _DECIDERS:
        return True  # "should i open the door now or keep exploring": weighing, not doing
    if lead[:1] in (["can"], ["could"]) and lead[1:] and lead[1] in ANYONE:
        return True  # "CAN ANYONE HEAR ME"; "can you open the door" is a polite order
    if not lead or lead[0] not in QUESTION_STARTS:
        return False
    return lead[0] not in AUXILIARIES or len(lead) < 2 or lead[1] in SUBJECTS


def _greets(sentence: str) -> bool:
    first = words(sentence)[:1]
    return bool(first) and first[0] in GREETINGS


def is_shouted(sentence: str) -> bool:
    """A question called out rather than asked: in capitals ("IS ANYONE OUT THERE"),
    ending "?!" ("is anybody out there?!"), or with a call drawn out ("hellooo", "anyone
    therrre"). It is the player shouting."""
    letters = [c for c in sentence if c.isalpha()]
    capitals = len(words(sentence)) >= 2 and bool(letters) and all(c.isupper() for c in letters)
    drawn = any(_DRAWN.sub(r"\1", w) != w for w in words(sentence))
    return capitals or drawn or bool(re.search(r"(?:\?!|!\?)[?!]*\s*$", sentence))


#: A letter held three times or more: a word drawn out, as a call is ("HELLOOO", "heeelp").
_DRAWN = re.compile(r"([a-z])\1{2,}", re.IGNORECASE)


#: A greeting run into the question it opens, with no mark between ("HELLOOO IS ANYONE
#: THERE"): two sentences, the greeting and the question.
_RUN_ON_GREETING = re.compile(
    r"^(?P<greeting>\W*[a-z]+)(?=\s+(?:is|are|can|could|does|will|anyone|anybody|someone|"
    r"somebody)\b)",
    re.IGNORECASE,
)


def _called_out(message: str) -> str:
    """The message with its drawn-out words said plainly ("heeelp" is "help"), and a
    greeting run into its question ended ("HELLOOO IS ANYONE THERE" -> "HELLO? IS ANYONE
    THERE", which a question in capitals makes a shout)."""
    sentences = []
    for sentence in SENTENCE.findall(message) or [message]:
        plain = _DRAWN.sub(r"\1", sentence)
        if not is_question(plain) and is_shouted(sentence):
            greeting = _RUN_ON_GREETING.match(plain)
            if greeting and _greets(greeting.group("greeting")):
                rest = plain[greeting.end() :]
                plain = f"{greeting.group('greeting')}? {rest.strip().upper()}"
        sentences.append(plain)
    return " ".join(s.strip() for s in sentences)


def is_negated(message: str) -> bool:
    lowered = message.lower().replace("’", "'")
    return any(w in _NEGATIONS for w in re.findall(r"[a-z']+", lowered)) or "n't" in lowered


def acting_part(message: str) -> str:
    """The message without its questions: "HELP! Is anyone there?" acts by "HELP!";
    a message that is only questions, negated or looking around acts not at all ("")."""
    if not message.strip() or is_looking(message) or message.lstrip().startswith("/"):
        return ""  # a slash word is a command (past the per-turn limit), never a deed
    kept = [
        "Shout!" if is_question(s) and is_shouted(s) and not _greets(s) else s.strip()
        for s in SENTENCE.findall(in_order(untagged(_called_out(message))))
        if s.strip() and (not is_question(s) or _greets(s) or is_shouted(s))
    ]
    text = " ".join(s if s[-1] in ".!?;:" else s + "." for s in kept)
    return _decided(_unnegated(text))


#: Where a player's reasoning ends in the deed it decides: "so" before the player's own
#: clause ("the notebook said the key is in the pond, so i'll look in the pond").
_SO_I = re.compile(
    r"(?:,\s*|\s+)so\s+(?:(?:obviously|then|now|clearly|naturally)\s+)*"
    r"(?=(?:i|i'll|ill|i’ll|i'm|im|we|we'll|let's|lets|let)\b)",
    re.IGNORECASE,
)


def _decided(text: str) -> str:
    """A message that reasons before it acts ("the plaque said 1848, so i walk back down
    and dial 1848 into the lock") acts by what it decides: the part after its last "so I"
    (and what follows). The reasons name things of other deeds (the notebook, the plaque)
    and would dilute the deed's words in a long message."""
    found = list(_SO_I.finditer(text))
    if not found or len(words(text[: found[-1].start()])) < 3:
        return text
    decided = text[found[-1].end() :]
    said = words(decided)
    if said[1:2] in (["can"], ["could"]) or _BACK_REFERENCE & set(said):
        # "stand on the rail so i can reach the hatch": a purpose, the deed comes first;
        # "she pointed at the trapdoor so let's open it": the thing is in the reasons.
        return text
    return decided


#: Words that point back at a thing named earlier: the reasons must stay to say which.
_BACK_REFERENCE = frozenset({"it", "them", "that", "this", "those", "these", "one", "there"})


#: Where a negation's reach ends: a sentence, a comma, "but" ("the note said not to, but
#: press red"), "so" before the player's own clause ("... not to touch red so I'm pressing
#: green"). "and" does not end it ("don't open the trapdoor and climb down").
_NEGATION_SCOPE = re.compile(
    r",?\s+but\s+|,?\s+so\s+(?=(?:i|i'm|im|i’m|we|let|lets|let's)\b)|(?<=[.!?;:,])\s+",
    re.IGNORECASE,
)


#: Words a player's own refusal may open with before its negation ("no, wait, don't").
_REFUSAL_LEADS = frozenset({"no", "nope", "nah", "wait", "actually", "hmm", "hold", "on", "oh"})


def _refuses(part: str) -> bool:
    """The part is the player's own refusal: its negation opens it ("don't", "no, never",
    "wait, don't"). A negation said after a subject ("the note said not to", "she told me
    never to") reports someone's warning: a reason, not the player taking the deed back."""
    lead = [w for w in re.findall(r"[a-z'’]+", part.lower()) if w not in _REFUSAL_LEADS][:1]
    return not lead or is_negated(lead[0])


def _unnegated(text: str) -> str:
    """The text without its negated parts: a negation covers the part it is said in, not
    what the player then decides to do ("I know I shouldn't, but press red"; "press red,
    the note said not to but I'm curious"). A refusal of the player's own after the deed
    takes it back ("open it, no, don't"); when every part is negated, nothing acts ("")."""
    parts = [p for p in _NEGATION_SCOPE.split(text) if p.strip()]
    kept = [p for p in parts if not is_negated(p)]
    if len(kept) == len(parts):
        return text
    if not kept:
        return ""
    first = parts.index(kept[0])
    if not any(is_negated(p) for p in parts[:first]) and any(
        _refuses(p) for p in parts[first:] if is_negated(p)
    ):
        return ""  # the refusal comes after the deed ("open it, no, don't"): nothing acts
    return " ".join(p if p.rstrip()[-1] in ".!?;:," else p + "." for p in kept)
