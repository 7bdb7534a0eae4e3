"""Reading the answer to "which did you mean: A, or B?" (``classify_reply``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.games.escape.function_words import DETERMINERS
from parlour.games.escape.keyword_classifier.acting import acting_part
from parlour.games.escape.keyword_classifier.clauses import CLAUSE
from parlour.games.escape.keyword_classifier.decide import classify
from parlour.games.escape.keyword_classifier.matching import all_objects, word_fits
from parlour.games.escape.keyword_classifier.prepared import prepared
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import stem, words

#: "the first", "the second one", "the latter": the nth action the question offered;
#: "1" and "2": the numbers the question puts before them.
_ORDINALS = {
    "first": 0,
    "former": 0,
    "1st": 0,
    "1": 0,
    "second": 1,
    "latter": 1,
    "2nd": 1,
    "last": 1,
    "2": 1,
}


def classify_reply(
    reply: str,
    asked: str,
    offered: Sequence[str],
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]] = (),
    room: Sequence[str] = (),
) -> str:
    """The answer to "which did you mean: A, or B?" about ``asked``.

    A reply that is an order of its own ("open the drawer") is classified as any message.
    Otherwise it is read with the asked message's verb ("press the button" + "the green
    one" → "press the green one") against only the two offered actions, so naming the thing
    that tells them apart ("the red", "green") picks it, and "the first"/"the second" picks
    by the question's order. A reply naming neither asks again (or is ``none``), unless the
    player has moved on: a reply that is only a question of its own ("what year is on the
    certificate?") or declines ("never mind", "neither") is ``none``, so the game answers
    it instead of repeating the question. ``unoffered``: as for ``classify``; an order of
    its own is read with them like any first message; ``room``: as for ``classify``."""
    alone = classify(reply, options, unoffered=unoffered, room=room)
    if alone not in (NONE_ID, ASK_ID):
        return alone
    offered_options = [(o, d) for o, d in options if o in offered]
    if len(offered_options) != len(offered) or not offered_options:
        return alone
    said = words(reply)
    picks = {_ORDINALS[w] for w in said if w in _ORDINALS}
    if len(picks) == 1 and not any(word_fits(s, o) for s in said for o in all_objects(options)):
        return list(offered)[picks.pop()]
    rest = [(o, d) for o, d in options if o in (NONE_ID, ASK_ID)]
    # "the painting?" answers in a question's tone: read with the asked verb, it is an order.
    combined = f"{_verb_phrase(asked, offered_options)} {reply.strip().rstrip('?')}"
    picked = classify(combined, [*offered_options, *rest], unoffered=unoffered, room=room)
    if picked in offered:
        return picked
    if not acting_part(reply) or _DECLINED.search(reply):
        return NONE_ID
    return ASK_ID if any(o == ASK_ID for o, _ in options) else NONE_ID


#: A reply to "which did you mean?" that takes neither.
_DECLINED = re.compile(
    r"\b(?:never\s*mind|forget\s+(?:it|that)|neither|none\s+of\s+(?:them|those|these)|"
    r"nothing|not\s+(?:either|both))\b",
    re.IGNORECASE,
)


def _verb_phrase(asked: str, offered: Sequence[tuple[str, str]]) -> str:
    """The asked message's opening up to its first determiner or named thing: the verb the
    player's answer leaves out ("press" of "press the button", "peek into" of "I'd like to
    see inside that drawer")."""
    text = prepared(asked, offered)
    clause = next((c for c in CLAUSE.split(text) if c.strip()), "")
    objects = all_objects(offered)
    lead: list[str] = []
    for word in words(clause):
        if word in DETERMINERS or any(word_fits(stem(word, fold=False), o) for o in objects):
            break
        lead.append(word)
    return " ".join(lead)
