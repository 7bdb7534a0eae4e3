"""Live status while models think: who is being asked what, for how long, with retries.

The runner is not touched: model seats are wrapped, where the CLI builds them, in a
seat that reports when it is asked and when it answers, and their attempt sink is
teed so retries and fallbacks show as they happen. The status lines are drawn by a
transient Rich ``Live`` only on a terminal; piped or redirected output gets nothing
from here. While a person types, the status steps aside.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.game import Game, Result, SeatInfo
from parlour.core.view import AnyView
from parlour.seats.base import Seat, answered_by
from parlour.seats.llm import Attempt, AttemptSink


@dataclass
class _Asked:
    who: str
    what: str
    model: str
    started: float = field(default_factory=time.monotonic)
    retries: int = 0
    spinner: Spinner = field(default_factory=lambda: Spinner("dots", style="cyan"))

    def line(self) -> RenderableType:
        elapsed = time.monotonic() - self.started
        text = Text.assemble(
            (self.who, "bold"),
            f" is thinking: {self.what}",
            (f" · {self.model}" if self.model else "", "dim"),
            f" · {elapsed:.0f}s",
        )
        if self.retries:
            text.append(f" · retry {self.retries}", style="yellow")
        self.spinner.update(text=text)
        return self.spinner


class LiveStatus:
    """The status lines, and which seats' latest answers came from a fallback policy."""

    def __init__(self, console: Console, *, enabled: bool | None = None) -> None:
        self.console = console
        self.enabled = console.is_terminal if enabled is None else enabled
        self.asking: dict[str, _Asked] = {}
        #: seats whose latest answer the fallback policy wrote (for "(fallback)" marks),
        #: kept by ``marks``, a runner observer
        self.fell_back: set[str] = set()
        #: decisions a model seat answered with the game's policy after spending its
        #: retries (the runner then stores the model as the author; the call log says)
        self.model_fell_back: set[str] = set()
        self.marks = FallbackMarks(self.fell_back, self.model_fell_back)
        self._live: Live | None = None
        self._paused = 0
        self._lock = threading.Lock()

    def __rich__(self) -> RenderableType:
        return Group(*(asked.line() for asked in list(self.asking.values())))

    # -- what seats report -----------------------------------------------------------

    def asked(self, key: str, who: str, what: str, model: str = "") -> None:
        self.asking[key] = _Asked(who, what, model)
        self._show()

    def answered(self, key: str) -> None:
        self.asking.pop(key, None)
        if not self.asking:
            self._hide()

    def retried(self, key: str) -> None:
        if key in self.asking:
            self.asking[key].retries += 1

    # -- drawing ---------------------------------------------------------------------

    def _show(self) -> None:
        with self._lock:
            if not self.enabled or self._paused or self._live is not None:
                return
            self._live = Live(self, console=self.console, transient=True, refresh_per_second=8)
            self._live.start()

    def _hide(self) -> None:
        with self._lock:
            if self._live is not None:
                self._live.stop()
                self._live = None

    def stop(self) -> None:
        self.asking.clear()
        self._hide()

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Step aside (a person is typing an answer); come back if anyone still thinks."""
        self._paused += 1
        self._hide()
        try:
            yield
        finally:
            self._paused -= 1
            if self.asking:
                self._show()

    def pausing(self, read: Callable[[str], str]) -> Callable[[str], str]:
        """An ``input``-like function that pauses the status while it waits."""

        def ask(prompt: str) -> str:
            with self.paused():
                return read(prompt)

        return ask


class FallbackMarks:
    """A runner observer keeping which seats' latest applied answer a fallback policy
    wrote: the rule ``parlour show`` applies to the stored actions (``by == "fallback"``,
    or a model call that ended in the fallback), so the live transcript marks the same
    lines, whatever plays the seat (a model, ``chaos(...):scripted``, a person)."""

    def __init__(self, fell_back: set[str], model_fell_back: set[str]) -> None:
        self.fell_back = fell_back
        self.model_fell_back = model_fell_back

    def on_answer(self, game: Game, decision: Decision, by: str) -> None:
        if by == "fallback" or decision.id in self.model_fell_back:
            self.fell_back.add(decision.seat)
        else:
            self.fell_back.discard(decision.seat)

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        """Nothing: the marks change with answers, before their events are printed."""

    def on_finish(self, game: Game, result: Result) -> None:
        """Nothing to add at the end."""


class _TeeSink:
    """Passes every attempt on to the seat's own sink, and tells the status about it."""

    def __init__(self, inner: AttemptSink | None, status: LiveStatus) -> None:
        self.inner = inner
        self.status = status

    def record(self, attempt: Attempt) -> None:
        if self.inner is not None:
            self.inner.record(attempt)
        key = f"{attempt.seat}/{attempt.decision_id}"
        if attempt.outcome in ("invalid", "error"):
            self.status.retried(key)
        elif attempt.outcome == "fallback":
            self.status.model_fell_back.add(attempt.decision_id)


class StatusSeat:
    """Answers exactly as the seat it wraps, reporting to the status while it thinks."""

    def __init__(self, inner: Seat, info: SeatInfo, status: LiveStatus) -> None:
        self.inner = inner
        self.info = info
        self.status = status

    @property
    def label(self) -> str:
        return self.inner.label

    def answered_by(self, decision_id: str) -> str:
        return answered_by(self.inner, decision_id)

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        key = f"{self.info.id}/{decision.id}"
        what = decision.purpose.replace("_", " ") + (f" ({view.phase})" if view.phase else "")
        self.status.asked(key, self.info.name, what, self.inner.label)
        try:
            return await self.inner.decide(view, decision)
        finally:
            self.status.answered(key)


def watch_seats(seats: dict[str, Seat], infos: Sequence[SeatInfo], status: LiveStatus) -> None:
    """Make every model seat of a built game report to ``status`` (in place). Wrapped
    after the session is built, so resumed replay streams are positioned on the real seats."""
    for info in infos:
        seat = seats[info.id]
        if not hasattr(seat, "backend"):  # scripted, random and human seats think fast
            continue
        seat.sink = _TeeSink(getattr(seat, "sink", None), status)  # type: ignore[attr-defined]
        seats[info.id] = StatusSeat(seat, info, status)
