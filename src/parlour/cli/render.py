"""Rendering events for people: the live terminal observer and plain transcripts."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from parlour.core.events import Event, spectator_events
from parlour.core.game import Game, Result

_STYLE = {
    "speech": "",
    "narration": "italic",
    "vote": "cyan",
    "death": "bold red",
    "elimination": "bold red",
    "phase": "bold magenta",
    "result": "bold green",
}


def event_line(event: Event, names: dict[str, str]) -> str:
    who = names.get(event.speaker, event.speaker)
    private = "" if event.is_public else f"[{event.audience.describe()}] "
    if who:
        return f"{private}{who}: {event.text}"
    return f"{private}{event.text}"


class TerminalObserver:
    """Streams what a spectator may see (public events, or everything with ``reveal``)."""

    def __init__(self, console: Console, *, reveal: bool = False, quiet: bool = False) -> None:
        self.console = console
        self.reveal = reveal
        self.quiet = quiet

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        if self.quiet:
            return
        names = {s.id: s.name for s in game.seats()}
        for event in spectator_events(events, self.reveal):
            style = _STYLE.get(event.kind, "" if event.is_public else "dim")
            self.console.print(event_line(event, names), style=style, markup=False, highlight=False)

    def on_finish(self, game: Game, result: Result) -> None:
        names = {s.id: s.name for s in game.seats()}
        winners = ", ".join(names.get(w, w) for w in result.winners) or "nobody"
        self.console.print(f"\nGame over: {result.summary}", style="bold green", highlight=False)
        self.console.print(f"Winners: {winners}", highlight=False)


class SeatObserver:
    """What one seat sees, live: a human player's screen (and theirs as a spectator after
    they are out, since they keep their view)."""

    def __init__(self, console: Console, seat: str) -> None:
        self.console = console
        self.seat = seat
        self.shown = -1

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        if not events:
            return
        names = {s.id: s.name for s in game.seats()}
        for event in game.view(self.seat).events:
            if event.seq <= self.shown:
                continue
            self.shown = event.seq
            style = _STYLE.get(event.kind, "" if event.is_public else "dim")
            self.console.print(event_line(event, names), style=style, markup=False, highlight=False)

    def on_finish(self, game: Game, result: Result) -> None:
        TerminalObserver(self.console).on_finish(game, result)
