"""Secret gates: screen what an engine role writes against what its audience may not know.

An engine role (a director, a narrator, a game master) sees secrets so that it can tell a
story; what it writes goes on to seats entitled to less. A game that lets such text flow
declares a gate on it (``Game.screen``, see ``Gated``): before the answer is applied the
gate looks for each secret the audience may not know, and a hit refuses the answer with
feedback the author can act on (the LLM seat retries with it), then the fallback answers.

Production games carry no markers, so the gate screens against the secret *texts*. A
secret counts as told when the output carries

* a planted marker of it (``[[mk:...]]``, in audited runs), or
* one of its **names**: a capitalised word of the secret that the audience's own view
  never shows (a person, a place, an object named only in the secret), together with one
  more of its distinctive words, or
* enough of its **distinctive words**: content words (stemmed to their first five letters,
  stopwords dropped) that the audience's view does not already hold. Two shared stems, or
  a third of the secret's distinctive stems when it has more than six, tell the secret.

Words the audience already sees (its view, ``known``) never count: an NPC's lines may use
the NPC's name, the place and the public sheet freely. A paraphrase that swaps every
distinctive word for a synonym slips past; ``docs/audit.md`` gives the measured rates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.markers import MARKER_SHAPE

#: A stem is the first letters of a lower-cased word (crude, predictable stemming).
STEM = 5
#: Distinctive stems an output must share with a secret to tell it.
MIN_SHARED = 2
#: ... or this share of the secret's distinctive stems, for long secrets.
MIN_SHARE = 1 / 3
#: One sentence holding this many of a secret's content stems, known or not ...
MIN_RELATED = 3
#: ... and this share of them states the secret's relation between things the audience
#: knows apart ("Ada" and "the fire at the mint" are known; that she started it is not).
RELATED_SHARE = 2 / 3

#: Endings dropped before stemming, longest first.
_ENDINGS = ("ings", "ing", "edly", "ers", "ed", "es", "er", "ly", "s")
_SENTENCE = re.compile(r"[.!?;:\n]+")

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d+")
#: Words that carry no secret on their own.
_STOPWORDS = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours out over own same she should so some such than that the their theirs them
    then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours yourself one two also
    ever never still yet much many every anyone someone something nothing know knows knew
    tell told says said really only even well like just back make made time way
    dr mr mrs ms miss sir madam lady lord professor prof
"""
_STOP = frozenset(_STOPWORDS.split())

Screen = Callable[[Decision, Action], "str | None"]


@runtime_checkable
class Gated(Protocol):
    """A game that screens answers before they are applied (see the module docstring)."""

    def screen(self, decision_id: str, action: Action) -> str | None:
        """Why ``action`` may not be applied as it stands (feedback for its author), or
        None. Only engine roles' answers are screened; the answer is not applied yet."""
        ...


@dataclass(frozen=True)
class Secret:
    """A secret the audience may not know; ``key`` names it to the author in feedback."""

    key: str
    text: str


@dataclass(frozen=True)
class Hit:
    key: str
    #: the words of the output that told it
    evidence: tuple[str, ...]


def _words(text: str) -> list[str]:
    return _WORD.findall(MARKER_SHAPE.sub(" ", text))


def stem(word: str) -> str:
    """A word's stem: lower case, a common English ending dropped when at least three
    letters stay ("burned", "burns", "burning" → "burn"), then the first ``STEM`` letters."""
    low = word.casefold().strip("'’-").replace("’", "'").removesuffix("'s")
    for ending in _ENDINGS:
        if low.endswith(ending) and len(low) - len(ending) >= 3:
            low = low[: -len(ending)]
            break
    return low[:STEM]


def _content(word: str) -> bool:
    low = word.casefold().strip("'’-")
    return len(low) > 1 and low not in _STOP


def stems(text: str) -> set[str]:
    """Content stems of ``text`` (stopwords and one-letter words dropped)."""
    return {stem(w) for w in _words(text) if _content(w)}


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(MARKER_SHAPE.sub(" ", text)) if s.strip()]


def _name_groups(text: str) -> list[frozenset[str]]:
    """Names of ``text``: runs of adjacent capitalised content words not opening a
    sentence ("Dr. Halloway" is one name, "Tomas" another), as sets of stems."""
    groups: list[frozenset[str]] = []
    for sentence in _sentences(text):
        run: list[str] = []
        for n, word in enumerate(_WORD.findall(sentence)):
            if n > 0 and word[:1].isupper() and _content(word):
                run.append(stem(word))
                continue
            if run:
                groups.append(frozenset(run))
            run = []
        if run:
            groups.append(frozenset(run))
    return groups


@dataclass(frozen=True)
class _Screened:
    """A secret as the gate holds it."""

    secret: Secret
    #: its content stems the audience's view does not hold
    distinctive: frozenset[str]
    #: its names (as stem groups) among the distinctive stems
    names: tuple[frozenset[str], ...]
    #: every content stem of it, known or not (for telling a relation between known things)
    content: frozenset[str]
    planted: tuple[str, ...]

    def count(self, shared: set[str]) -> int:
        """Shared distinctive stems, a multi-word name counting once."""
        merged = set(shared)
        for group in self.names:
            if len(group & merged) > 1:
                merged -= group
                merged.add(min(group))
        return len(merged)


class SecretGate:
    """Screens outputs for ``secrets``, ignoring every word of ``known`` (see module doc)."""

    def __init__(self, secrets: Iterable[Secret], known: Iterable[str] = ()) -> None:
        known_stems: set[str] = set()
        for text in known:
            known_stems |= stems(text)
        self._secrets: list[_Screened] = []
        for secret in secrets:
            content = frozenset(stems(secret.text))
            distinctive = content - known_stems
            names = tuple(g for g in _name_groups(secret.text) if g & distinctive)
            planted = tuple(MARKER_SHAPE.findall(secret.text))
            self._secrets.append(_Screened(secret, distinctive, names, content, planted))

    def hits(self, text: str) -> list[Hit]:
        """Each secret ``text`` tells, with the evidence."""
        said = stems(text)
        per_sentence = [stems(s) for s in _sentences(text)]
        found: list[Hit] = []
        for held in self._secrets:
            marks = tuple(m for m in held.planted if m in text)
            shared = set(held.distinctive & said)
            count = held.count(shared)
            enough = count >= MIN_SHARED and (
                len(held.distinctive) <= 6 or count >= MIN_SHARE * len(held.distinctive)
            )
            named = any(g & shared for g in held.names) and count >= 2
            related: set[str] = set()
            for sentence in per_sentence:
                cover = held.content & sentence
                if len(cover) >= MIN_RELATED and len(cover) >= RELATED_SHARE * len(held.content):
                    related = set(cover)
                    break
            if marks or enough or named or related:
                told = shared | related
                words = {w for w in _words(text) if _content(w) and stem(w) in told}
                found.append(Hit(held.secret.key, marks or tuple(sorted(words))))
        return found

    def feedback(self, hits: list[Hit], audience: str) -> str | None:
        """The refusal sent back to the author, or None when nothing was told."""
        if not hits:
            return None
        told = "; ".join(f"{h.key} (you wrote: {', '.join(h.evidence)})" for h in hits)
        return (
            f"this would tell {audience} what they may not know: {told}. "
            "Rewrite it without those facts; say only what they could know."
        )

    def screen(self, text: str, audience: str) -> str | None:
        return self.feedback(self.hits(text), audience)
