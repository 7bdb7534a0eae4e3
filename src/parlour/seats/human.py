"""A human at the terminal: sees only this seat's view, answers by number or text.

Input is validated against the decision and re-asked on bad input, so a typo never
reaches the rules. Structured decisions whose schema is a simple form (enums, strings,
lists of those) are asked field by field with numbered options (see ``human_forms``);
other schemas are typed as JSON. Closing the input (Ctrl-D) stops the session; so does
one Ctrl-C at a prompt (the line is read on a daemon thread, see ``read_in_background``).
How a line is read is a ``LineReader``: ``input()`` on that thread by default; the CLI
gives a person at a real terminal one that keeps other output off their input line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable
from typing import Protocol

from rich.console import Console

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.asks import Hints
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction
from parlour.core.events import Event
from parlour.core.view import AnyView
from parlour.seats.human_forms import Form, describe, is_form

InputFn = Callable[[str], str]


class InputClosed(KeyboardInterrupt):
    """The player closed the input (Ctrl-D). A KeyboardInterrupt on purpose: the runner
    turns any ``Exception`` of a seat into a fallback answer, which would play on for
    the player; this stops the session like Ctrl-C, and the saved game can be resumed."""


class LineReader(Protocol):
    """Reads the person's lines for ``HumanSeat``, one open line at a time."""

    def read(self, prompt: str) -> asyncio.Future[str]:
        """Show ``prompt`` and read a line, as a future of the running loop."""
        ...

    def reprompt(self, prompt: str) -> None:
        """The line still being read (its question went) now answers a new question."""
        ...


class ThreadLines:
    """``read(prompt)`` (``input`` by default) on a daemon thread of its own."""

    def __init__(self, read: InputFn, console: Console) -> None:
        self._read = read
        self._console = console

    def read(self, prompt: str) -> asyncio.Future[str]:
        return read_in_background(self._read, prompt)

    def reprompt(self, prompt: str) -> None:
        # The thread waits inside input(); the new prompt can only be printed after it.
        self._console.print(prompt, end="", markup=False, highlight=False)


#: typed lines remembered per seat until their event comes back (a game may drop some)
TYPED_KEPT = 4


class HumanSeat:
    def __init__(
        self,
        console: Console | None = None,
        input_fn: InputFn | None = None,
        render_event: Callable[[Event], str] | None = None,
        show_news: bool = True,
        reader: LineReader | None = None,
    ) -> None:
        self._console = console or Console()
        self._reader = reader or ThreadLines(input_fn or input, self._console)
        self._render = render_event or (
            lambda e: f"{e.speaker + ': ' if e.speaker else ''}{e.text}"
        )
        # Events printed so far, not a high-water mark: with several people at one
        # terminal (hot seat), a message to one of them that arrives while another is
        # asked is shown when its reader is asked next (and nothing twice).
        self._seen: set[int] = set()
        #: False when a live observer already shows this seat's events
        self._show_news = show_news
        # One terminal, one question at a time, even when decisions are concurrent.
        self._lock = asyncio.Lock()
        # A read still waiting for a line after its question was withdrawn or timed out:
        # the thread cannot be stopped, so the next question takes the line it reads (and
        # a person keeps what they had typed).
        self._reading: asyncio.Future[str] | None = None
        # Lines a person typed as free text, per seat, until the game's event that says
        # them comes back: the screen already shows them after the prompt (``echoes``).
        self._typed: dict[str, list[str]] = {}

    @property
    def label(self) -> str:
        return "human"

    def echoes(self, event: Event) -> bool:
        """Whether ``event`` only repeats a line its speaker just typed at this terminal
        (escape's "Player: read the note" right after "> read the note"): shown once."""
        typed = self._typed.get(event.speaker, [])
        text = event.text.strip()
        if text not in typed:
            return False
        typed.remove(text)
        return True

    def _print_news(self, view: AnyView) -> None:
        for event in view.events:
            if event.seq not in self._seen:
                if not self.echoes(event):
                    self._console.print(self._render(event), markup=False, highlight=False)
                self._seen.add(event.seq)

    def _say(self, line: str) -> None:
        self._console.print(line, markup=False, highlight=False)

    async def _ask(self, prompt: str) -> str:
        if self._reading is None:
            self._reading = self._reader.read(prompt)
        else:
            self._reader.reprompt(prompt)
        reading = self._reading
        try:
            # Shielded: cancelling the question (deadline, withdrawal) leaves the read on.
            return await asyncio.shield(reading)
        except EOFError as err:
            raise InputClosed from err
        finally:
            if reading.done():
                self._reading = None

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        async with self._lock:
            if self._show_news:
                self._print_news(view)
            while True:
                self._console.print()
                self._console.print(f"[bold]{view.seat_name}[/] — {decision.prompt}")
                summary = Hints.of(decision).summary
                if summary:
                    self._say(summary)
                if decision.kind is DecisionKind.STRUCTURED and is_form(decision.json_schema):
                    action = await self._fill_form(decision)
                    if action is None:
                        continue
                    try:
                        return decision.check(action)
                    except IllegalAction as err:
                        self._console.print(f"[red]{err}[/] — try again", highlight=False)
                        continue
                if decision.options:
                    for n, opt in enumerate(decision.options, 1):
                        self._console.print(f"  {n:>2}. {opt.label}", markup=False)
                raw = await self._ask(_hint(decision))
                try:
                    action = parse_human_answer(decision, raw)
                    checked = decision.check(action)
                    if isinstance(checked, Text) and checked.text.strip():
                        typed = self._typed.setdefault(decision.seat, [])
                        typed[:] = [*typed[-(TYPED_KEPT - 1) :], checked.text.strip()]
                    return checked
                except IllegalAction as err:
                    self._console.print(f"[red]{err}[/] — try again", highlight=False)
                except ValueError as err:
                    self._console.print(f"[red]{err}[/] — try again", highlight=False)

    async def _fill_form(self, decision: Decision) -> Action | None:
        """Field by field, then a confirmation; None when the player wants to start over."""
        assert decision.json_schema is not None
        value = await Form(self._ask, self._say, Hints.of(decision)).fill(decision.json_schema)
        self._say("")
        for line in describe(value):
            self._say(f"  {line}")
        answer = (await self._ask("Submit? [Y/n]> ")).strip().lower()
        if answer not in ("", "y", "yes"):
            return None
        return Structured(value=value)


INPUT_THREAD = "parlour-input"


def read_in_background(read: InputFn, prompt: str) -> asyncio.Future[str]:
    """``read(prompt)`` on a daemon thread of its own, its line as a future of the loop.

    Not ``asyncio.to_thread``: the default executor's threads are joined when the loop
    closes and again when the interpreter exits, and a thread blocked in ``input()``
    never ends until Enter, so Ctrl-C at a prompt hung the process (the first press
    waited for a line, the second hung at exit, the third died in ``threading``). A
    daemon thread is simply dropped at exit; the game is saved by then."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, err: BaseException | None) -> None:
        if future.done():  # nobody waits any more (the session stopped)
            return
        if err is not None:
            future.set_exception(err)
        else:
            assert line is not None
            future.set_result(line)

    def work() -> None:
        line: str | None = None
        err: BaseException | None = None
        try:
            line = read(prompt)
        except Exception as caught:  # EOFError (Ctrl-D) above all; the asker re-raises it
            err = caught
        # A closed loop (the session ended) raises: the line has no one to go to.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, line, err)

    threading.Thread(target=work, name=INPUT_THREAD, daemon=True).start()
    return future


def reading_input() -> bool:
    """True while a ``read_in_background`` thread still waits for a line (its decision
    was answered by a timeout or the game ended): the process must then end without the
    interpreter's shutdown, which would block on stdin's lock."""
    return any(t.name == INPUT_THREAD and t.is_alive() for t in threading.enumerate())


def _hint(decision: Decision) -> str:
    if decision.kind is DecisionKind.CHOOSE_ONE:
        return "number> "
    if decision.kind is DecisionKind.CHOOSE_MANY:
        return f"numbers, comma-separated ({decision.min_choices}-{decision.max_choices})> "
    if decision.kind is DecisionKind.FREE_TEXT:
        return "(empty = say nothing)> " if decision.allow_empty else "> "
    return "JSON object> "


def parse_human_answer(decision: Decision, raw: str) -> Action:
    """Turn what a person typed into an action (numbers or ids for choices)."""
    text = raw.strip()
    if decision.kind is DecisionKind.CHOOSE_ONE:
        return Choice(option=_option_for(decision, text))
    if decision.kind is DecisionKind.CHOOSE_MANY:
        parts = [p.strip() for p in text.split(",") if p.strip()]
        return Choices(options=tuple(_option_for(decision, p) for p in parts))
    if decision.kind is DecisionKind.FREE_TEXT:
        return Text(text=text)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not valid JSON: {err.msg}") from err
    if not isinstance(value, dict):
        raise ValueError("expected a JSON object")
    return Structured(value=value)


def _option_for(decision: Decision, token: str) -> str:
    if token.isdigit():
        n = int(token)
        if 1 <= n <= len(decision.options):
            return decision.options[n - 1].id
        raise ValueError(f"pick a number from 1 to {len(decision.options)}")
    for opt in decision.options:
        if token.lower() in (opt.id.lower(), opt.label.lower()):
            return opt.id
    # "/help", "?" or a stray word: say what this prompt takes, not only what it refused.
    raise ValueError(
        f"'{token}' is not one of the options: type the number of one listed above "
        f"(1 to {len(decision.options)}) or its name"
    )
