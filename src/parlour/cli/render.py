"""Rendering events for people: the live terminal observer and plain transcripts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from rich.console import Console
from rich.text import Text

from parlour.core.events import Event, spectator_events
from parlour.core.game import Game, Result
from parlour.render.annotate import event_actor

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
    """One event for people: whom it was for (by name; engine notes say so), who said it."""
    from parlour.render.transcript import clock_stamp, reply_note, scope_label

    who = names.get(event.speaker, event.speaker)
    if who:
        who += reply_note(event, names)  # a message answering another says which
    scope = scope_label(event.audience, names)
    private = f"{clock_stamp(event)}[{scope}] " if scope else clock_stamp(event)
    if who:
        return f"{private}{who}: {event.text}"
    return f"{private}{event.text}"


def print_event(
    console: Console, event: Event, names: dict[str, str], fallbacks: AbstractSet[str]
) -> None:
    style = _STYLE.get(event.kind, "dim" if event.audience.kind != "all" else "")
    line = Text(event_line(event, names), style=style)
    if event_actor(event) in fallbacks:
        # The seat's model did not write these words: its fallback policy did.
        line.append(" (fallback)", style="dim")
    console.print(line, highlight=False)


class TerminalObserver:
    """Streams what a spectator may see (public events, or everything with ``reveal``)."""

    def __init__(
        self,
        console: Console,
        *,
        reveal: bool = False,
        quiet: bool = False,
        fallbacks: AbstractSet[str] = frozenset(),
    ) -> None:
        self.console = console
        self.reveal = reveal
        self.quiet = quiet
        #: seats whose latest answer a fallback policy wrote (kept by the live status)
        self.fallbacks = fallbacks

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        if self.quiet:
            return
        names = {s.id: s.name for s in game.seats()}
        for event in spectator_events(events, self.reveal):
            print_event(self.console, event, names, self.fallbacks)

    def on_finish(self, game: Game, result: Result) -> None:
        names = {s.id: s.name for s in game.seats()}
        winners = ", ".join(names.get(w, w) for w in result.winners) or "nobody"
        self.console.print(f"\nGame over: {result.summary}", style="bold green", highlight=False)
        self.console.print(f"Winners: {winners}", highlight=False)


class SeatObserver:
    """What one seat sees, live: a human player's screen (and theirs as a spectator after
    they are out, since they keep their view)."""

    def __init__(
        self,
        console: Console,
        seat: str,
        *,
        fallbacks: AbstractSet[str] = frozenset(),
        echoes: Callable[[Event], bool] | None = None,
    ) -> None:
        self.console = console
        self.seat = seat
        self.shown = -1
        self.fallbacks = fallbacks
        #: whether an event only repeats what the person just typed (HumanSeat.echoes)
        self.echoes = echoes

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        if not events:
            return
        names = {s.id: s.name for s in game.seats()}
        for event in game.view(self.seat).events:
            if event.seq <= self.shown:
                continue
            self.shown = event.seq
            if self.echoes is not None and self.echoes(event):
                continue  # already on the screen, after the prompt it was typed at
            print_event(self.console, event, names, self.fallbacks)

    def on_finish(self, game: Game, result: Result) -> None:
        TerminalObserver(self.console).on_finish(game, result)
