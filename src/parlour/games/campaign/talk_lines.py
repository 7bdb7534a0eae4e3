"""Campaign's talk for the talk-quality measure (``core.metrics.TalkLine``): what the
directors and the player wrote that the player (or the table) reads. An NPC's line is
written by the scene director in the NPC's voice; a check's reason by the game director
(unless the engine's rule called the check)."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.events import Event
from parlour.core.metrics import TalkLine
from parlour.games.campaign.state import GAME, SCENE


def _check_reason(text: str) -> str:
    """The reason of a check event's text: "skill check (…) — REASON: roll → band."."""
    _, _, rest = text.partition(" — ")
    reason, _, _ = rest.rpartition(": ")
    return reason


def talk_lines(events: Sequence[Event]) -> list[TalkLine]:
    lines: list[TalkLine] = []
    for e in events:
        # words an act chose (``acts.py``): the game's, rendered from that decision's choice
        act = str(e.data.get("act", ""))
        if e.kind in ("narration", "message", "ooc") and e.speaker:
            lines.append(TalkLine(e.seq, e.speaker, e.speaker, e.text, act))
        elif e.kind == "line":
            said = str(e.data.get("said", ""))
            lines.append(TalkLine(e.seq, SCENE, str(e.data.get("npc", "")), said, act))
        elif e.kind == "check" and e.speaker == GAME and not e.data.get("rule"):
            # a check the rule called (``risks.py``) says the rule's words: nobody's talk
            reason = _check_reason(e.text)
            lines.append(TalkLine(e.seq, GAME, GAME, reason, act, phrase=True))
    return lines
