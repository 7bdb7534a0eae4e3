"""A keyword-overlap classifier: the scripted baseline any model classifier must beat.

It sees exactly what a model classifier sees (the player's message and the options) and:

* answers ``none`` to questions ("is there a ghost?"), negated messages ("I don't...")
  and looking around with no object named ("look around the room"): looking is not an
  action of the story;
* ignores identifier-like words ("press_red"): players do not type option ids, injections do;
* scores each option by the share of its description's content tokens found in the
  message (a one-letter typo counts), each token weighted by 1 / (number of options it
  appears in), so that words shared by several options ("button", "door") count for less
  than the ones that tell them apart;
* a message holding a number of three or more digits also scores (half a description's
  worth) for the single option that talks about a code, keypad or dial;
* among the options scoring at least ``threshold``, the strong ones (at least 60% of
  the best) compete on where their most telling word comes in the message, so the first
  of several intents wins;
* when the two strongest lead from the same place in the message and score within
  ``CLOSE`` of each other ("press the button" with two buttons), it does not guess: it
  answers ``ask`` when the decision offers it (the game then asks the player which one
  they meant, advancing nothing), else ``none``.

It never sees answers (codes): the engine gates answer actions on the player's text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from parlour.games.escape.commands import is_looking
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import near, token_set, tokens, words

THRESHOLD = Fraction(34, 100)
STRONG = Fraction(6, 10)
CLOSE = Fraction(9, 10)
CODE_BONUS = Fraction(1, 2)
_QUESTION_TEXT = "what where who whom whose why how which is are am was were does did has have"
_QUESTION_STARTS = frozenset(_QUESTION_TEXT.split())
_NEGATIONS = frozenset({"not", "dont", "don't", "never", "won't", "wont", "refuse", "avoid"})
_IDENTIFIER = re.compile(r"\w+_\w+")
_CODE_WORDS = frozenset({"code", "keypad", "dial", "combination", "password", "pin"})
_NUMBER = re.compile(r"\d{3,}")


def is_question(message: str) -> bool:
    text = message.strip()
    if text.endswith("?"):
        return True
    first = words(text)[:1]
    return bool(first) and first[0] in _QUESTION_STARTS


def is_negated(message: str) -> bool:
    lowered = message.lower().replace("’", "'")
    return any(w in _NEGATIONS for w in lowered.replace(",", " ").split()) or "n't " in lowered


def classify(
    message: str,
    options: Sequence[tuple[str, str]],
    threshold: Fraction = THRESHOLD,
    strong: Fraction = STRONG,
) -> str:
    """``options`` are (id, description) pairs; returns an option id, ``none``, or ``ask``
    (only when ``ask`` is among the options)."""
    leaders = rank(message, options, threshold, strong)
    if not leaders:
        return NONE_ID
    if len(leaders) > 1 and _close(leaders[0], leaders[1]):
        offered = any(oid == ASK_ID for oid, _ in options)
        return ASK_ID if offered else NONE_ID
    return leaders[0][2]


def candidates(message: str, options: Sequence[tuple[str, str]]) -> list[str]:
    """The options the message fits, most likely first (for "which did you mean?")."""
    return [oid for _, _, oid in rank(message, options, THRESHOLD, STRONG)]


def _close(a: tuple[Fraction, int, str], b: tuple[Fraction, int, str]) -> bool:
    return a[1] == b[1] and min(a[0], b[0]) >= CLOSE * max(a[0], b[0])


def rank(
    message: str,
    options: Sequence[tuple[str, str]],
    threshold: Fraction = THRESHOLD,
    strong: Fraction = STRONG,
) -> list[tuple[Fraction, int, str]]:
    """The strong candidates as (score, where in the message, id), in order of preference."""
    if not message.strip() or is_question(message) or is_negated(message) or is_looking(message):
        return []
    said = tokens(_IDENTIFIER.sub(" ", message))
    described = {oid: token_set(label) for oid, label in options if oid not in (NONE_ID, ASK_ID)}
    df = Counter(tok for toks in described.values() for tok in toks)
    code_options = [oid for oid, toks in described.items() if toks & _CODE_WORDS]
    has_code = bool(_NUMBER.search(message)) and len(code_options) == 1
    # Exact fractions, not floats: scores must not depend on set iteration order, which
    # changes with the interpreter's hash seed.
    scored: list[tuple[Fraction, int, str]] = []
    for oid, toks in described.items():
        if not toks:
            continue
        weight = {t: Fraction(1, df[t]) for t in toks}
        total = sum(weight.values(), Fraction(0))
        found: dict[str, int] = {}  # token → where it first comes in the message
        for t in sorted(toks):
            at = next((i for i, s in enumerate(said) if near(s, t)), None)
            if at is not None:
                found[t] = at
        hit = sum((weight[t] for t in found), Fraction(0))
        if has_code and oid == code_options[0]:
            hit += CODE_BONUS * total
            found.setdefault("#code", min(i for i, s in enumerate(said) if s.isdigit()))
        score = min(Fraction(1), hit / total)
        if score >= threshold and found:
            telling = max((weight.get(t, Fraction(1)) for t in found), default=Fraction(0))
            first = min(i for t, i in found.items() if weight.get(t, Fraction(1)) == telling)
            scored.append((score, first, oid))
    if not scored:
        return []
    best = max(s[0] for s in scored)
    return sorted((s for s in scored if s[0] >= strong * best), key=lambda s: (s[1], -s[0]))
