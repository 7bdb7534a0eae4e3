"""When a word the player said fits an option's word (the same, a likely typo, a
shared sense), and the words each option is read by: its description's and its id's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from parlour.games.escape.lexicon import senses
from parlour.games.escape.roles import ID_SPLIT, Roles, roles
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import STOPWORDS, near, stem, token_set, words


@lru_cache(maxsize=512)
def described_words(oid: str, label: str) -> frozenset[str]:
    """An option's words as the scores read them: its description's content stems and its
    id's words."""
    return token_set(label, fold=False) | token_set(ID_SPLIT.sub(" ", oid), fold=False)


def is_deed(said: str, parts: Roles) -> bool:
    return any(word_fits(said, d) for d in parts.deeds)


LOOKING = frozenset({"#examine", "#read", "#search"})


def raw_tokens(text: str) -> list[tuple[str, str]]:
    """(word as typed, its unfolded stem) for the content words of ``text``."""
    kept = [w for w in words(text) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    return [(w, stem(w, fold=False)) for w in kept]


def looks_to_read(said: str, deed: str) -> bool:
    """Looking at ("x", "examine", "check") where the option's deed is reading."""
    return "#examine" in senses(said) and "#read" in senses(deed)


def word_fits(said: str, described: str) -> bool:
    """Same word, a likely typo of it ("opn" for "open" too), or a shared sense ("kick" /
    "bang")."""
    return (
        near(said, described)
        or _dropped_letter(said, described)
        or bool(senses(said) & senses(described))
    )


def _dropped_letter(said: str, described: str) -> bool:
    """A three-letter word typed for a four-letter one by dropping a letter after the
    first ("opn" / "open", "cal" / "call"); ``near`` leaves words this short alone."""
    if len(said) != 3 or len(described) != 4 or said[0] != described[0]:
        return False
    return any(described[:i] + described[i + 1 :] == said for i in range(1, 4))


def action_roles(options: Sequence[tuple[str, str]]) -> list[tuple[str, Roles]]:
    """Each action's id and ``roles``, in order: ``none`` and ``ask`` are no deed on a
    thing, so they have none."""
    return [(oid, roles(oid, label)) for oid, label in options if oid not in (NONE_ID, ASK_ID)]


def all_objects(options: Sequence[tuple[str, str]]) -> frozenset[str]:
    return frozenset(o for _, parts in action_roles(options) for o in parts.objects)


def option_words(options: Sequence[tuple[str, str]]) -> frozenset[str]:
    """The words of the options' descriptions and ids, as typed: the room's own vocabulary
    (what a typo is corrected towards, and what is never taken for a name)."""
    return frozenset(
        w for oid, label in options for w in words(f"{label} {ID_SPLIT.sub(' ', oid)}")
    )
