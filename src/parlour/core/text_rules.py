"""Content rules a game attaches to a free-text decision: what the text must carry and what
it must not say, checked by the engine (the game decides, not the model).

A ``TextRules`` is plain data on the ``Decision`` so that any seat can check its answer
before giving it (the LLM seat retries with the reason as feedback) and the game can check
it again when the answer is applied. It is deliberately *not* part of ``Decision.check``:
a game stored before a rule existed must still replay its actions.

Matching is word-based and case-insensitive:

* ``require``: every term must appear as a whole token (numbers and codes: "417" is not
  carried by "4170").
* ``words`` / ``min_words``: at least ``min_words`` of ``words`` must appear; a word
  counts when some token of the text starts with its stem, the word's first
  ``STEM_LETTERS`` letters ("shutter" is carried by "shutters", "rises" by "rises").
* ``deny``: no phrase may appear (whole words, so "opens" does not fire on "reopens");
  ``deny_why`` says why, for the feedback.
* ``bans``: further groups of forbidden phrases, each with its own reason (a ``Ban``);
  a ban's ``openings`` count only at the start of a sentence (after ``.!?;:``, a line
  break or a dash), where a bare verb is an imperative ("Use just the brief.") while the
  same word inside a sentence is not ("you use the key").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: A content word counts as carried when a token of the text starts with this many of its
#: letters (or the whole word, when shorter): crude stemming, easy to predict.
STEM_LETTERS = 5

_TOKEN = re.compile(r"[a-z0-9]+")


def text_tokens(text: str) -> list[str]:
    """Lower-case alphanumeric tokens, in order."""
    return _TOKEN.findall(text.casefold())


_TALK_TOKEN = re.compile(r"[a-z0-9']+")


def talk_tokens(text: str) -> list[str]:
    """The talk measure's tokens (``evals/talk_quality.py``): the text lower-cased, split
    into runs of ``[a-z0-9']``, so an apostrophe stays inside its word ("don't")."""
    return _TALK_TOKEN.findall(text.lower())


def ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """Every run of ``n`` consecutive tokens, in order, repeats kept."""
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def stale_runs(tokens: Sequence[str], said: set[tuple[str, ...]], n: int) -> int:
    """How many of the ``n``-token runs of ``tokens`` were said before (are in ``said``)
    or come twice in ``tokens`` itself: what a wording would repeat. The games pick the
    wording that scores least, so a table does not say the same thing twice."""
    grams = ngrams(tokens, n)
    return sum(g in said for g in grams) + len(grams) - len(set(grams))


def first_repeat(tokens: Sequence[str], n: int) -> tuple[str, ...] | None:
    """The first ``n``-gram that occurs a second time (overlaps count), or None."""
    seen: set[tuple[str, ...]] = set()
    for gram in ngrams(tokens, n):
        if gram in seen:
            return gram
        seen.add(gram)
    return None


def _stem(word: str) -> str:
    return word.casefold()[:STEM_LETTERS]


#: Where a sentence (or a clause read as one) begins: an imperative's place.
_SENTENCE_BREAK = re.compile(r"[.!?;:\n\u2013\u2014]+|\s-\s")


def sentence_openings(text: str) -> list[list[str]]:
    """The tokens of each sentence of ``text``, for matching at a sentence's start."""
    return [t for t in (text_tokens(part) for part in _SENTENCE_BREAK.split(text)) if t]


def _has_phrase(tokens: list[str], phrase: str) -> bool:
    want = text_tokens(phrase)
    if not want:
        return False
    n = len(want)
    return any(tokens[i : i + n] == want for i in range(len(tokens) - n + 1))


class Ban(BaseModel):
    """Phrases a text must not use, with the reason sent back when it does."""

    model_config = ConfigDict(frozen=True)

    #: Forbidden anywhere (whole words).
    phrases: tuple[str, ...] = ()
    #: Forbidden at the start of a sentence only.
    openings: tuple[str, ...] = ()
    why: str = Field(min_length=1)

    def found(self, text: str) -> list[str]:
        """The phrases and openings of this ban that ``text`` uses, in the ban's order."""
        tokens = text_tokens(text)
        out = [p for p in self.phrases if _has_phrase(tokens, p)]
        if self.openings:
            starts = sentence_openings(text)
            for opening in self.openings:
                want = text_tokens(opening)
                if want and any(s[: len(want)] == want for s in starts) and opening not in out:
                    out.append(opening)
        return out


class TextRules(BaseModel):
    """What a free-text answer must carry and must not say (see the module docstring)."""

    model_config = ConfigDict(frozen=True)

    #: What the required text is about, for the feedback ("what happened").
    subject: str = Field(default="the brief", min_length=1)
    require: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    min_words: int = Field(default=0, ge=0)
    deny: tuple[str, ...] = ()
    deny_why: str = "it must not say that"
    bans: tuple[Ban, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> TextRules:
        if self.min_words > len(self.words):
            raise ValueError("min_words exceeds the number of words")
        return self

    def problems(self, text: str) -> list[str]:
        """Every rule the text breaks, each as a sentence fit to send back as feedback."""
        tokens = text_tokens(text)
        found: list[str] = []
        denied = [p for p in self.deny if _has_phrase(tokens, p)]
        if denied:
            said = ", ".join(f"'{p}'" for p in denied)
            found.append(f"it says {said}, but {self.deny_why}")
        missing = [t for t in self.require if not _has_phrase(tokens, t)]
        if missing:
            found.append(f"it leaves out {', '.join(missing)} from {self.subject}; include it")
        if self.min_words:
            carried = [w for w in self.words if any(t.startswith(_stem(w)) for t in tokens)]
            if len(carried) < self.min_words:
                found.append(
                    f"it carries too little of {self.subject}: {len(carried)} of the words "
                    f"{', '.join(self.words)} (at least {self.min_words}); use them"
                )
        for ban in self.bans:
            used = ban.found(text)
            if used:
                said = ", ".join(f"'{p}'" for p in used)
                found.append(f"it says {said}, but {ban.why}")
        return found

    def problem(self, text: str) -> str | None:
        """All broken rules joined into one reason, or None when the text keeps them."""
        found = self.problems(text)
        return "; ".join(found) if found else None
