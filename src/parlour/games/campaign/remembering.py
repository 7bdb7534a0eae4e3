"""What an NPC recalls now: the words said in earlier scenes it witnessed, ranked against
the moment (the player's message), lexically, deterministically, with no model.

The pool is the memory records of the scene director's view while it plays that NPC
(``scenes.scene_events``), and of those only the NPC's own: an NPC recalls only what it
witnessed, because a record is written only for the NPCs present in a scene, and the view
holds only the records of the NPC it plays. The ranking is a small BM25-like sum: each
content word the moment shares with a remembered line scores its rarity among everything
the NPC remembers; ties go to the more recent line. Semantic recall over the whole view
is the seat's option (``context(recall,embed=local):...``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from parlour.core.events import Event
from parlour.games.campaign.view_types import Recalled

#: memories recalled for an NPC's line
RECALL_K = 3

_WORD = re.compile(r"[a-z0-9']+")
_STOPWORDS = (
    "a an and are as at be been but by can did do does for from had has have he her hers him "
    "his how i i'm if in into is it it's its me my of on or our she so than that the their "
    "them then there they this to too us was we were what when where which who why will "
    "with would you your yours about just not no yes ok okay hm oh"
)
_STOP = frozenset(_STOPWORDS.split(" "))


def _stem(word: str) -> str:
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)]
    return word


def terms(text: str) -> set[str]:
    """The content words of ``text``, lower-cased and crudely stemmed."""
    words = _WORD.findall(text.lower().replace("’", "'"))
    return {_stem(w) for w in words if w not in _STOP and len(w) > 2}


def remembered(events: Iterable[Event], npc: str) -> list[Recalled]:
    """Every line said in a scene ``npc`` witnessed, from its memory records, in order."""
    out: list[Recalled] = []
    for e in events:
        if e.kind != "memory" or e.data.get("npc") != npc:
            continue
        place = str(e.data.get("place", e.data.get("location", "")))
        for who, name, text in e.data.get("lines", ()):
            out.append(
                Recalled(
                    scene=int(e.data["scene"]),
                    session=int(e.data["session"]),
                    place=place,
                    who=str(who),
                    name=str(name),
                    text=str(text),
                )
            )
    return out


#: words that ask to remember rather than say what about
_ASKING = ("remember", "last time", "earlier", "recall", "did i tell", "did i say", "what i")
_VAGUE = terms("remember recall said say told tell before earlier last time ask again once")


def asks_to_recall(text: str) -> bool:
    """Does ``text`` ask someone to remember something?"""
    low = text.lower()
    return any(w in low for w in _ASKING)


def recall(
    pool: list[Recalled], moment: str, k: int = RECALL_K, ignore: str = ""
) -> list[Recalled]:
    """The ``k`` remembered lines that best match ``moment``, best first; only lines that
    share a content word with it, not counting the words of ``ignore`` (names) and words
    that only ask to remember. A moment that asks to remember and says nothing more gets
    the latest things the player said."""
    if not pool or k <= 0:
        return []
    asked = terms(moment) - terms(ignore) - _VAGUE
    if not asked:
        if not asks_to_recall(moment):
            return []
        said = [r for r in pool if r.who == "player" and not asks_to_recall(r.text)]
        return said[::-1][:k]
    docs = [terms(r.text) for r in pool]
    n = len(docs)
    rarity = {t: math.log(1 + n / (1 + sum(t in d for d in docs))) for t in asked}
    scored = []
    for i, (r, d) in enumerate(zip(pool, docs, strict=True)):
        shared = asked & d
        if shared and not asks_to_recall(r.text):
            score = round(sum(rarity[t] for t in shared), 6)
            scored.append((score, i, r.model_copy(update={"score": score})))
    scored.sort(key=lambda x: (-x[0], -x[1]))
    return [r for _, _, r in scored[:k]]
