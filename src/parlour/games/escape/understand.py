"""The scripted classifier: the keyword rules first, then a learned similarity stage, and a
question to the player whenever the two do not make one action sure.

1. **Rules** (``keyword_classifier``, frozen): exact matches of an action's words, codes,
   refusals, questions, negations, ``/commands``, messages with no verb. Its pick is the
   first stage's answer.
2. **Similarity** (``similarity.py``): the message against each offered action's texts
   (description, ``also`` phrasings) by a small sentence-embedding model.
3. **Deciding**:

   * the rules picked an action: it is kept when the similarity stage does not put another
     action clearly ahead of it (``KEEP``); otherwise the player is asked which of the two
     they meant;
   * the rules asked: the player is asked;
   * the rules found nothing in a message that acts (not a question, negation or command):
     when the closest action is close (``ASK``) and the next is about as close (``CLOSE``:
     look-alikes, "turn the valve" by two valve wheels), the player is asked which of the
     two they meant; else nothing happens. The similarity stage never makes an action
     happen on its own: on the calibration sets every threshold that let it act added
     wrong advances.

   The engine never advances on a guess: every uncertain case asks or does nothing.

The constants were chosen on the shipped rooms' label sets and the example rooms' sets
(``benchmarks/escape_similarity.py``), never on the unseen rooms' sets.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.escape import commands
from parlour.games.escape.keyword_classifier import (
    acting_part,
    candidates,
    classify_with_phrasings,
)
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.similarity import rank_actions

#: The rules' action is kept unless another action is closer by more than this.
KEEP = 0.3
#: The rules found nothing: ask between the closest from this closeness...
ASK = 0.6
#: ... when the next is as close, within this much (look-alikes: two valves, two cases).
CLOSE = 0.05


def action_texts(
    options: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, list[str]]]:
    """Each offered action's texts: its description and its ``also`` phrasings."""
    texts: dict[str, list[str]] = {oid: [label] for oid, label in options}
    for oid, text in phrasings:
        if oid in texts:
            texts[oid].append(text)
    return [(oid, these) for oid, these in texts.items() if oid not in (NONE_ID, ASK_ID)]


def acts(message: str) -> bool:
    """Whether the message tries to do something: not a command, and something is left
    once its questions and negated parts are taken out (``acting_part``)."""
    return commands.parse(message) is None and bool(acting_part(message).strip())


def understand(
    message: str,
    options: Sequence[tuple[str, str]],
    *,
    unoffered: Sequence[tuple[str, str]] = (),
    room: Sequence[str] = (),
    phrasings: Sequence[tuple[str, str]] = (),
) -> str:
    """An offered action's id, ``none``, or ``ask`` (only when ``ask`` is offered)."""
    may_ask = any(oid == ASK_ID for oid, _ in options)
    ruled = classify_with_phrasings(
        message, options, unoffered=unoffered, room=room, phrasings=phrasings
    )
    if ruled == ASK_ID:
        return ASK_ID
    said = acting_part(message)
    ranked = rank_actions(said or message, action_texts(options, phrasings))
    if not ranked:
        return ruled
    best, top = ranked[0]
    if ruled != NONE_ID:
        mine = next((s for s, oid in ranked if oid == ruled), best)
        if top == ruled or best - mine <= KEEP or not may_ask:
            return ruled
        return ASK_ID
    if not acts(message):
        return NONE_ID
    lead = best - (ranked[1][0] if len(ranked) > 1 else 0.0)
    if best >= ASK and lead <= CLOSE and may_ask:
        return ASK_ID
    return NONE_ID


def closest_two(
    message: str, options: Sequence[tuple[str, str]], phrasings: Sequence[tuple[str, str]] = ()
) -> list[str]:
    """The two actions an ask offers: the rules' candidates first, then the closest by
    similarity (the game's question offers two)."""
    picked = [c for c in candidates(message, options) if c not in (NONE_ID, ASK_ID)][:2]
    said = acting_part(message) or message
    for _, oid in rank_actions(said, action_texts(options, phrasings)):
        if len(picked) == 2:
            break
        if oid not in picked:
            picked.append(oid)
    return picked
