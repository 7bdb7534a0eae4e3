"""A person's line at a real terminal, with what the game prints meanwhile put above it.

While a person types, the game goes on printing: other seats talk, events arrive, a new
question replaces one that timed out. With ``input()`` those lines landed on the person's
input line, mixed with the half-typed text. Here prompt_toolkit edits the line, and while
it is open whatever is written to stdout or stderr is printed above the prompt, which is
then drawn again below it with what was typed so far. What is submitted is the line as
typed. Only for a person at a terminal (``terminal_lines``); pipes and tests keep
``input()`` on a thread (``HumanSeat``'s default reader), unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:  # prompt_toolkit is imported when a person first types (~0.25 s)
    from prompt_toolkit import PromptSession

Pause = Callable[[], AbstractContextManager[None]]


def terminal_lines(pause: Pause = contextlib.nullcontext) -> PromptLines | None:
    """A reader for a person typing at this terminal, or None when stdin or stdout is not
    a terminal (a pipe, a test, a file) or the terminal cannot move its cursor."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return None
    return PromptLines(pause)


class PromptLines:
    """Reads lines for ``HumanSeat`` (a ``LineReader``) on the running event loop."""

    def __init__(self, pause: Pause = contextlib.nullcontext) -> None:
        #: steps the live status aside while the person types
        self._pause = pause
        self._prompt = ""
        self._session: PromptSession[str] | None = None

    def read(self, prompt: str) -> asyncio.Future[str]:
        self._prompt = prompt
        return asyncio.ensure_future(self._read())

    def reprompt(self, prompt: str) -> None:
        """The line still open answers a new question: its prompt changes, the text stays."""
        self._prompt = prompt
        if self._session is not None and self._session.app.is_running:
            self._session.app.invalidate()

    def _new_session(self) -> PromptSession[str]:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.input import create_input
        from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
        from prompt_toolkit.layout.processors import TabsProcessor
        from prompt_toolkit.output import create_output
        from prompt_toolkit.output.vt100 import Vt100_Output

        keys = KeyBindings()

        @keys.add("tab")
        def _tab(event: KeyPressEvent) -> None:
            # Tab would ask for completions (there are none) and be lost: keep it, as
            # input() did, so the line sent is the line typed.
            event.current_buffer.insert_text("\t")

        output = create_output(sys.stdout)
        if isinstance(output, Vt100_Output):
            # No cursor position requests: a terminal (or a test's pty) that never answers
            # one would get a warning line, and nothing here needs space kept below.
            output.enable_cpr = False
        return PromptSession(
            input=create_input(sys.stdin),
            output=output,
            reserve_space_for_menu=0,
            enable_suspend=True,  # Ctrl-Z suspends, as it did at input()
            key_bindings=keys,
            input_processors=[TabsProcessor()],  # a tab shows as spaces, not ^I
        )

    async def _read(self) -> str:
        with self._pause():
            if self._session is None:
                self._session = self._new_session()  # before stdout is swapped below
            above = Above(asyncio.get_running_loop())
            with above.swapped():
                while True:
                    try:
                        # handle_sigint off: a SIGINT from outside stays the runner's.
                        line = await self._session.prompt_async(
                            lambda: self._prompt, handle_sigint=False
                        )
                        break
                    except KeyboardInterrupt:
                        # prompt_toolkit reads Ctrl-C as a key; make it the SIGINT it is
                        # everywhere else (the game is saved and the process ends).
                        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
                            continue  # ignored here as at input(): keep reading
                        signal.raise_signal(signal.SIGINT)
                        # The handler cancelled the game; this read ends with the loop.
                        await asyncio.get_running_loop().create_future()
                # Lines that arrived before Enter are printed before what follows it.
                await above.drained()
        return line


class Above:
    """Stands in for stdout and stderr while a prompt is open: text written (on any
    thread) is printed above the prompt, in the order written, in whole lines."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.get_ident()  # made on the loop's thread
        self._pending: list[tuple[TextIO, str]] = []
        self._drain: asyncio.Future[None] | None = None
        self._scheduled = False
        self._open = False

    @contextlib.contextmanager
    def swapped(self) -> Iterator[None]:
        out, err = sys.stdout, sys.stderr
        sys.stdout = cast(TextIO, _Stream(self, out))
        sys.stderr = cast(TextIO, _Stream(self, err))
        self._open = True
        try:
            yield
        finally:
            sys.stdout, sys.stderr = out, err
            self._open = False
            pending, self._pending = self._pending, []
            self._write_out(pending)  # the prompt is gone: straight out

    def write(self, real: TextIO, text: str) -> None:
        if threading.get_ident() != self._thread:
            self._loop.call_soon_threadsafe(self.write, real, text)
            return
        if not self._open:  # came from another thread after the prompt closed
            self._write_out([(real, text)])
            return
        self._pending.append((real, text))
        if not self._scheduled and "\n" in text:
            self._scheduled = True
            self._drain = asyncio.ensure_future(self._write_above())

    async def _write_above(self) -> None:
        from prompt_toolkit.application import in_terminal

        # Erases the prompt, runs the body in the terminal, then draws the prompt again.
        async with in_terminal():
            self._scheduled = False
            self._write_out(self._whole_lines())

    async def drained(self) -> None:
        while self._drain is not None and not self._drain.done():
            await self._drain

    def _whole_lines(self) -> list[tuple[TextIO, str]]:
        """Takes what is pending up to its last newline; the rest waits for its end (the
        prompt is drawn at the cursor: half a line above it would share its row)."""
        pending, self._pending = self._pending, []
        while pending and "\n" not in pending[-1][1]:
            self._pending.insert(0, pending.pop())
        if pending:
            real, text = pending.pop()
            head, tail = text.rsplit("\n", 1)
            pending.append((real, head + "\n"))
            if tail:
                self._pending.insert(0, (real, tail))
        return pending

    @staticmethod
    def _write_out(pending: list[tuple[TextIO, str]]) -> None:
        written: list[TextIO] = []
        for real, text in pending:
            real.write(text)
            if real not in written:
                written.append(real)
        for real in written:
            real.flush()


class _Stream:
    """One of stdout or stderr seen through ``Above``; asks the real stream the rest."""

    def __init__(self, above: Above, real: TextIO) -> None:
        self._above = above
        self._real = real

    def write(self, text: str) -> int:
        if text:
            self._above.write(self._real, text)
        return len(text)

    def flush(self) -> None:
        """Nothing: whole lines go out above the prompt as soon as they are written."""

    def isatty(self) -> bool:
        return self._real.isatty()

    def fileno(self) -> int:
        return self._real.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)
