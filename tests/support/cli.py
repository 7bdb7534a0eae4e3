"""Running ``python -m parlour ...`` as a real child process, its output captured."""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path


def run_parlour(
    *args: str,
    db: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 300,
    input: str | None = None,
    check: bool = False,
    here: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``python -m parlour ARGS``, stdout and stderr captured as text.

    The child gets this process's environment with ``COLUMNS=200`` (so a table row or a
    one-line error is not wrapped), ``PARLOUR_DB`` set to ``db`` or else unset (so no test
    ever reaches the developer's own database), and ``env`` on top of both. ``here``: run
    the command in this process instead (``run_parlour_here``).
    """
    wanted = _child_env(db, env)
    if here:
        return _run_here(args, wanted, cwd, input, check)
    full = dict(os.environ)
    _set_env(full, wanted)
    return subprocess.run(
        [sys.executable, "-m", "parlour", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full,
        cwd=cwd,
        input=input,
        check=check,
    )


def _child_env(db: Path | str | None, env: Mapping[str, str] | None) -> dict[str, str | None]:
    """What a parlour command under test gets on top of this process's environment (None:
    unset): ``COLUMNS=200``, ``PARLOUR_DB`` = ``db`` or unset, then ``env``."""
    wanted: dict[str, str | None] = {"COLUMNS": "200", "PARLOUR_DB": None}
    if db is not None:
        wanted["PARLOUR_DB"] = str(db)
    wanted.update(env or {})
    return wanted


def _set_env(environ: MutableMapping[str, str], wanted: Mapping[str, str | None]) -> None:
    """Set ``wanted`` in ``environ``; a None value unsets its key."""
    for key, value in wanted.items():
        if value is None:
            environ.pop(key, None)
        else:
            environ[key] = value


def run_silent(
    args: list[str],
    out_path: Path,
    err_path: Path,
    stop: Callable[[], bool] | None = None,
    timeout: float = 240,
) -> subprocess.Popen[bytes]:
    """``python -m parlour ARGS`` with a person at the terminal who never types: stdin
    stays open and silent (this process holds the pipe's write end), so the prompt's reader
    never gets a line nor an end of input. Output goes to ``out_path`` / ``err_path``.
    ``stop`` (polled every 0.1 s) kills the child once it says so; else the child runs to
    its end or ``timeout``. Returns the finished process (``returncode`` is negative when
    it was killed)."""
    read_end, write_end = os.pipe()
    try:
        with out_path.open("w") as out, err_path.open("w") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "parlour", *args],
                stdin=read_end,
                stdout=out,
                stderr=err,
                env={**os.environ, "COLUMNS": "200"},
            )
            os.close(read_end)
            try:
                deadline = time.monotonic() + timeout
                while proc.poll() is None and time.monotonic() < deadline:
                    if stop is not None and stop():
                        proc.kill()
                        break
                    time.sleep(0.1)
                proc.wait(timeout=30)
            finally:
                proc.kill()
    finally:
        os.close(write_end)
    return proc


class _Captured(io.StringIO):
    """Standard output or error as a pipe looks to the program: text, not a terminal."""

    def isatty(self) -> bool:
        return False


#: ``parlour ARGS`` in this process, through the same ``main()`` as ``python -m parlour``,
#: with what ``run_parlour`` gives a child: ``COLUMNS=200``, ``PARLOUR_DB`` set to ``db``
#: or else unset, ``env`` on top; stdin is ``input`` (or empty), the working folder
#: ``cwd``, and stdout/stderr are captured as text. Same result type and exit codes,
#: without the ~1.5 CPU-s of starting Python and importing parlour again: for tests of
#: what a command does, not of the process (signals, kills and terminals keep
#: ``run_parlour``). Not for a command that asks a person (``play``, a human seat): when a
#: prompt's reader thread is still waiting, ``main()`` ends with ``os._exit``. ``timeout``
#: does nothing here: nothing in this process can stop a stuck command.
run_parlour_here = functools.partial(run_parlour, here=True)


def _run_here(
    args: tuple[str, ...],
    wanted: Mapping[str, str | None],
    cwd: Path | None,
    input: str | None,
    check: bool,
) -> subprocess.CompletedProcess[str]:
    """``run_parlour(..., here=True)``: ``main()`` under ``wanted`` environment changes."""
    import parlour.cli.app

    saved = {key: os.environ.get(key) for key in wanted}
    out, err = _Captured(), _Captured()
    argv, stdin, folder = sys.argv, sys.stdin, os.getcwd()
    code: int = 0
    try:
        _set_env(os.environ, wanted)
        sys.argv = ["parlour", *args]
        sys.stdin = io.StringIO(input or "")
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                # The command line decides which games' commands and flags the app mounts
                # (app.GAMES, read from sys.argv on import): build it again for this one.
                importlib.reload(parlour.cli.app).main()
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
                if not isinstance(done.code, int | None):
                    err.write(f"{done.code}\n")
            except Exception:  # a child would print the traceback and exit 1
                err.write(traceback.format_exc())
                code = 1
    finally:
        sys.argv, sys.stdin = argv, stdin
        os.chdir(folder)
        _set_env(os.environ, saved)
    done = subprocess.CompletedProcess(["parlour", *args], code, out.getvalue(), err.getvalue())
    if check:
        done.check_returncode()
    return done
