"""A session recap from the events a seat saw: scenes, checks, and the words spoken."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.core.events import Event

SHOWN = ("scene", "message", "line", "check", "reveal", "state")


def recap(events: Iterable[Event], *, session: int | None = None, player: str = "You") -> str:
    lines: list[str] = []
    current = 0
    for e in events:
        s = int(e.data.get("session", 0))
        if session is not None and s != session:
            continue
        if s != current:
            current = s
            lines.append(f"Session {s}")
        if e.kind not in SHOWN:
            continue
        if e.kind == "scene":
            lines.append(f"  {e.text}")
        elif e.kind == "message":
            lines.append(f'    {player}: "{e.text}"')
        else:
            lines.append(f"    {e.text}")
    return "\n".join(lines) or "Nothing has happened yet."
