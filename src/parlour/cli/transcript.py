"""Readable transcripts of stored games: public, as one seat saw it, or fully revealed."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Literal

from parlour.core.events import Event

Format = Literal["text", "markdown", "html"]


def render_transcript(
    title: str,
    events: Sequence[Event],
    names: dict[str, str],
    seat_labels: dict[str, str],
    fmt: Format,
) -> str:
    """``seat_labels`` maps seat id → who played it (model id, human, scripted)."""
    if fmt == "html":
        return _html(title, events, names, seat_labels)
    md = fmt == "markdown"
    lines: list[str] = [f"# {title}" if md else title, ""]
    lines.append("## Seats" if md else "Seats:")
    for seat, label in seat_labels.items():
        lines.append(f"- {names.get(seat, seat)} ({seat}): {label}")
    lines.append("")
    phase = None
    for event in events:
        if event.phase != phase:
            phase = event.phase
            lines += ["", f"## {phase}" if md else f"--- {phase} ---", ""]
        who = names.get(event.speaker, event.speaker)
        scope = "" if event.audience.kind == "all" else f"[{event.audience.describe()}] "
        if md:
            body = f"**{who}:** {event.text}" if who else f"*{event.text}*"
            lines.append(f"- {scope}{body}")
        else:
            lines.append(f"{scope}{who + ': ' if who else ''}{event.text}")
    return "\n".join(lines).strip() + "\n"


def _html(
    title: str, events: Sequence[Event], names: dict[str, str], seat_labels: dict[str, str]
) -> str:
    esc = html.escape
    rows: list[str] = []
    phase = None
    for event in events:
        if event.phase != phase:
            phase = event.phase
            rows.append(f"<h2>{esc(phase)}</h2>")
        who = names.get(event.speaker, event.speaker)
        cls = "public" if event.audience.kind == "all" else "private"
        scope = (
            ""
            if event.audience.kind == "all"
            else f"<span class=scope>{esc(event.audience.describe())}</span> "
        )
        speaker = f"<b>{esc(who)}:</b> " if who else ""
        rows.append(f'<p class="{cls} {esc(event.kind)}">{scope}{speaker}{esc(event.text)}</p>')
    seats = "".join(
        f"<li>{esc(names.get(s, s))} ({esc(s)}): {esc(label)}</li>"
        for s, label in seat_labels.items()
    )
    return (
        "<!doctype html><html><head><meta charset=utf-8>"
        f"<title>{esc(title)}</title><style>"
        "body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;line-height:1.45}"
        ".private{color:#555;background:#f4f0ff}.scope{font-size:.8em;color:#80c}"
        ".death,.elimination{color:#a00;font-weight:600}.narration{font-style:italic}"
        f"</style></head><body><h1>{esc(title)}</h1><ul>{seats}</ul>{''.join(rows)}</body></html>\n"
    )
