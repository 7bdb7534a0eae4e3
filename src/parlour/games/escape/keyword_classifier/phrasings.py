"""The designer's other ways of saying an action (``also`` in the scenario file).

A room's descriptions use the designer's words; players use their own ("stamp on the crate"
for breaking it up). A designer who has read a play-test's misses lists the players' words
under ``also``. They are read only where the description alone finds nothing: a message
the descriptions already pick or ask about is classified as before, so phrasings can add
picks but never change one. A message is read once per phrasing, with that phrasing in
place of its action's description; if the phrasings of exactly one action make it the
pick, that action is picked; if those of two or more do, the message says nothing telling
them apart, so the classifier asks (or answers ``none`` where it may not ask).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.escape.keyword_classifier.decide import classify
from parlour.games.escape.scenario import ASK_ID, NONE_ID


def classify_with_phrasings(
    message: str,
    options: Sequence[tuple[str, str]],
    *,
    unoffered: Sequence[tuple[str, str]] = (),
    room: Sequence[str] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> str:
    """``classify``, then, when it finds nothing, the offered actions' ``phrasings``
    ((id, text) pairs; an unoffered action's phrasings join ``unoffered``, as more things
    the classifier may not pick)."""
    offered = {o for o, _ in options}
    locked = {o for o, _ in unoffered}
    unoffered = [*unoffered, *((o, t) for o, t in phrasings if o in locked)]
    base = classify(message, options, unoffered=unoffered, room=room)
    if base != NONE_ID:
        return base
    found: list[str] = []
    for oid, text in phrasings:
        if oid not in offered or oid in found:
            continue
        swapped = [(o, text if o == oid else d) for o, d in options]
        if classify(message, swapped, unoffered=unoffered, room=room) == oid:
            found.append(oid)
    if len(found) == 1:
        return found[0]
    if found and ASK_ID in offered:
        return ASK_ID
    return NONE_ID
