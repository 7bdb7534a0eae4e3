"""Readable transcripts of stored games: public, as one seat saw it, or fully revealed.

A transcript opens with its cast (name, who played it, the role when it is known) and
the result, then lists what happened by phase, with names everywhere. Private lines
say whom they were for, engine notes are labelled as such, lines a fallback policy
wrote for a model seat are marked, and reasons given with votes can be shown.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field, replace
from typing import Literal

from parlour.core.events import Audience, Event
from parlour.core.view import facts_dict
from parlour.render.annotate import Annotated, Entry, choice_text, reason_of
from parlour.runtime.store import GameRow

Format = Literal["text", "markdown", "html"]
Mode = Literal["public", "seat", "reveal"]

FALLBACK = "(fallback)"


@dataclass(frozen=True)
class SeatRow:
    name: str
    played_by: str
    role: str = ""


@dataclass(frozen=True)
class Header:
    title: str
    seats: tuple[SeatRow, ...]
    result: str = ""
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class Line:
    phase: str
    kind: str
    text: str
    speaker: str = ""
    scope: str = ""  # "" for public lines; else whom it was for, or "engine note"
    fallback: bool = False
    reason: str = ""
    seq: int = -1  # the event's sequence number (-1: a private choice with no event)


@dataclass(frozen=True)
class Transcript:
    header: Header
    lines: tuple[Line, ...]
    #: event seq → an inline SVG drawn after that line (Diplomacy boards, HTML only)
    pictures: dict[int, str] = field(default_factory=dict)


def scope_label(audience: Audience, names: dict[str, str]) -> str:
    """Whom a line was for, in words: "" (everyone), "Kenji", "wolves", "engine note"."""
    if audience.kind == "all":
        return ""
    if audience.kind == "seats":
        return ", ".join(names.get(s, s) for s in audience.seats)
    if audience.kind == "group":
        return audience.group
    return "engine note"


def build(
    log: Annotated,
    header: Header,
    *,
    mode: Mode,
    seat: str = "",
    reasons: bool = False,
    visible: set[int] | None = None,
) -> Transcript:
    """The lines a reader may see: everything (``reveal``), what ``seat`` saw, or the
    public record. A seat also sees its own private choices. ``visible``: the event
    numbers the reader may see, when the store already answered that (stored audiences)."""
    game = log.game
    names = {s.id: s.name for s in game.seats()}
    if visible is None and mode == "seat":
        visible = {e.seq for e in game.view(seat).events}
    elif visible is None and mode == "public":
        visible = {e.seq for e in game.spectator_view(False).events}
    lines: list[Line] = []
    for entry in log.entries:
        if entry.event is not None and entry.event.kind == "vote_reason":
            continue  # the voter's own copy of its reason: shown once, as the vote's "why"
        line = _line(entry, names, reasons)
        if line is None:
            continue
        if mode == "seat" and line.reason and (entry.answer is None or entry.answer.seat != seat):
            line = replace(line, reason="")  # a ballot's reason is its voter's alone
        if entry.event is None:
            answer = entry.answer
            assert answer is not None
            if mode == "public" or (mode == "seat" and answer.seat != seat):
                continue
        elif visible is not None and entry.event.seq not in visible:
            continue
        lines.append(line)
    return Transcript(header, tuple(lines))


def clock_stamp(event: Event) -> str:
    """``[87:05] `` for events of games with a clock (``data["clock"]``: time left)."""
    clock = event.data.get("clock")
    return f"[{clock}] " if isinstance(clock, str) and clock else ""


def reply_note(event: Event, names: dict[str, str]) -> str:
    """`` → Bram ("Has anyone heard…")`` after the speaker of a message that answers
    another (``data``: ``reply_to`` the answered event's seq, ``reply_to_seat`` its
    speaker, ``quote`` its first words), else ""."""
    seat = event.data.get("reply_to_seat")
    if not isinstance(seat, str) or not seat or "reply_to" not in event.data:
        return ""
    quoted = event.data.get("quote")
    said = f' ("{quoted}")' if isinstance(quoted, str) and quoted else ""
    return f" → {names.get(seat, seat)}{said}"


def _line(entry: Entry, names: dict[str, str], reasons: bool) -> Line | None:
    event, answer = entry.event, entry.answer
    if event is None:
        assert answer is not None
        who = names.get(answer.seat, answer.seat)
        return Line(
            phase=entry.phase,
            kind="choice",
            text=f"{who} — {choice_text(answer)}",
            scope=who,
            fallback=answer.fallback,
            reason=reason_of(answer) if reasons else "",
        )
    return Line(
        phase=event.phase,
        kind=event.kind,
        text=clock_stamp(event) + event.text,  # games with a clock: time left
        speaker=names.get(event.speaker, event.speaker) + reply_note(event, names),
        scope=scope_label(event.audience, names),
        fallback=entry.fallback,
        reason=reason_of(answer, event) if reasons and event.kind == "vote" else "",
        seq=event.seq,
    )


def render_transcript(doc: Transcript, fmt: Format) -> str:
    if fmt == "html":
        return _html(doc)
    md = fmt == "markdown"
    head = doc.header
    lines: list[str] = [f"# {head.title}" if md else head.title, ""]
    lines.append("## Seats" if md else "Seats:")
    for row in head.seats:
        role = f", {row.role}" if row.role else ""
        lines.append(f"- {row.name}{role}: {row.played_by}")
    if head.result:
        lines += ["", f"**Result:** {head.result}" if md else f"Result: {head.result}"]
        if head.winners:
            lines.append(f"Winners: {', '.join(head.winners)}")
    phase = None
    for line in doc.lines:
        if line.phase != phase:
            phase = line.phase
            lines += ["", f"## {phase}" if md else f"--- {phase} ---", ""]
        lines.append(_plain(line, md))
        if line.reason:
            lines.append(f"  - *why: {line.reason}*" if md else f"      why: {line.reason}")
    return "\n".join(lines).strip() + "\n"


def _plain(line: Line, md: bool) -> str:
    scope = f"[{line.scope}] " if line.scope else ""
    mark = f" {FALLBACK}" if line.fallback else ""
    if md:
        body = f"**{line.speaker}:** {line.text}" if line.speaker else f"*{line.text}*"
        return f"- {scope}{body}{mark}"
    return f"{scope}{line.speaker + ': ' if line.speaker else ''}{line.text}{mark}"


_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;line-height:1.45;"
    "padding:0 1rem}"
    "table.seats{border-collapse:collapse;margin:.5rem 0 1rem}"
    ".seats td,.seats th{border-bottom:1px solid #ddd;padding:.2rem .8rem;text-align:left}"
    ".result{background:#eef8ee;border-left:4px solid #3a3;padding:.5rem .8rem}"
    ".private{color:#444;background:#f4f0ff}.scope{font-size:.8em;color:#80c;margin-right:.3em}"
    ".engine{color:#666;font-size:.9em}.engine .scope{color:#888}"
    ".death,.elimination{color:#a00;font-weight:600}.narration{font-style:italic}"
    ".fallback{color:#999;font-size:.8em;margin-left:.4em}"
    ".why{display:block;color:#666;font-size:.85em;margin-left:1.5em}"
    "p{white-space:pre-line}figure{margin:1rem 0}figure svg{max-width:100%;height:auto}"
)


def _html(doc: Transcript) -> str:
    esc = html.escape
    head = doc.header
    roles = any(r.role for r in head.seats)  # no role column for games without roles

    def cells(*values: str) -> str:
        return "".join(f"<td>{esc(v)}</td>" for v in values)

    seat_rows = "".join(
        f"<tr>{cells(r.name, r.played_by, *([r.role] if roles else []))}</tr>" for r in head.seats
    )
    parts = [
        "<!doctype html><html><head><meta charset=utf-8>",
        f"<title>{esc(head.title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(head.title)}</h1>",
        "<table class=seats><tr><th>seat</th><th>played by</th>"
        f"{'<th>role</th>' if roles else ''}</tr>",
        f"{seat_rows}</table>",
    ]
    if head.result:
        winners = f"<br>Winners: {esc(', '.join(head.winners))}" if head.winners else ""
        parts.append(f"<p class=result><b>Result:</b> {esc(head.result)}{winners}</p>")
    phase = None
    for line in doc.lines:
        if line.phase != phase:
            phase = line.phase
            parts.append(f"<h2>{esc(phase)}</h2>")
        parts.append(_html_line(line))
        if line.seq in doc.pictures:
            parts.append(f"<figure>{doc.pictures[line.seq]}</figure>")
    if -1 in doc.pictures:  # the final position
        parts.append(f"<figure>{doc.pictures[-1]}</figure>")
    parts.append("</body></html>\n")
    return "".join(parts)


def _html_line(line: Line) -> str:
    esc = html.escape
    engine = line.scope == "engine note"
    cls = "engine" if engine else "private" if line.scope else "public"
    scope = f"<span class=scope>[{esc(line.scope)}]</span>" if line.scope else ""
    speaker = f"<b>{esc(line.speaker)}:</b> " if line.speaker else ""
    mark = f"<span class=fallback>{FALLBACK}</span>" if line.fallback else ""
    why = f"<span class=why>why: {esc(line.reason)}</span>" if line.reason else ""
    return f'<p class="{cls} {esc(line.kind)}">{scope}{speaker}{esc(line.text)}{mark}{why}</p>'


def stored_header(
    title: str, log: Annotated, row: GameRow, names: dict[str, str], *, reveal: bool, seat: str = ""
) -> Header:
    """A stored game's heading: ``title``, its seats (``seat_rows``), and the summary and
    winners (by name) of its stored result."""
    result = row.result or {}
    return Header(
        title,
        seat_rows(log, row.seats, reveal=reveal, seat=seat),
        str(result.get("summary", "")),
        tuple(names.get(w, w) for w in result.get("winners", [])),
    )


def seat_rows(
    log: Annotated, played_by: dict[str, str], *, reveal: bool, seat: str = ""
) -> tuple[SeatRow, ...]:
    """Each seat with who played it and its role when the reader may know it: every role
    when revealed; otherwise the roles made public (and the reader's own, as a seat)."""
    game = log.game
    public = facts_dict(game.spectator_view(False).public)
    known = {
        str(p.get("name")): str(p["role"])
        for p in public.get("players", [])
        if isinstance(p, dict) and p.get("role")
    }
    if reveal:
        known.update(
            {
                str(k): str(v)
                for k, v in facts_dict(game.spectator_view(True).private).get("roles", {}).items()
            }
        )
    elif seat:
        mine = facts_dict(game.view(seat).private).get("role")
        if mine:
            known[game.view(seat).seat_name] = str(mine)
    return tuple(
        SeatRow(s.name, played_by.get(s.id, ""), known.get(s.name, "")) for s in game.seats()
    )
