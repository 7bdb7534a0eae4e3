"""Missing's talk for the talk-quality measure (``core.metrics.TalkLine``): what the
players wrote that the others read. A message sent as several texts (``part`` of
``parts``) is one line: the game cut it, the writer did not."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.events import Event
from parlour.core.metrics import TalkLine

#: Events whose text a player's answer wrote (the setup's answers and the chat).
TALK_KINDS = frozenset({"introduction", "relationship", "suspicion", "message", "epilogue"})


def talk_lines(events: Sequence[Event]) -> list[TalkLine]:
    lines: list[TalkLine] = []
    open_parts: dict[str, tuple[int, list[str]]] = {}  # speaker -> (first seq, texts so far)
    for event in events:
        if event.kind not in TALK_KINDS or not event.speaker:
            continue
        parts = int(event.data.get("parts", 1) or 1)
        part = int(event.data.get("part", 1) or 1)
        act = str(event.data.get("act", ""))  # a line the game worded for an act seat
        if parts <= 1:
            lines.append(TalkLine(event.seq, event.speaker, event.speaker, event.text, act))
            continue
        first, texts = open_parts.get(event.speaker, (event.seq, []))
        if part == 1:
            first, texts = event.seq, []
        texts.append(event.text)
        open_parts[event.speaker] = (first, texts)
        if part == parts:
            lines.append(TalkLine(first, event.speaker, event.speaker, " ".join(texts), act))
            del open_parts[event.speaker]
    for speaker, (first, texts) in open_parts.items():  # the game ended mid-message
        lines.append(TalkLine(first, speaker, speaker, " ".join(texts)))
    return sorted(lines, key=lambda line: line.seq)
