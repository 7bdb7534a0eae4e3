"""Running ``python -m parlour ...`` as a real child process, its output captured."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path


def run_parlour(
    *args: str,
    db: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 300,
    input: str | None = None,
    check: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``python -m parlour ARGS``, stdout and stderr captured as text.

    The child gets this process's environment with ``COLUMNS=200`` (so a table row or a
    one-line error is not wrapped), ``PARLOUR_DB`` set to ``db`` or else unset (so no test
    ever reaches the developer's own database), and ``env`` on top of both.
    """
    full = {k: v for k, v in os.environ.items() if k != "PARLOUR_DB"}
    full["COLUMNS"] = "200"
    if db is not None:
        full["PARLOUR_DB"] = str(db)
    full.update(env or {})
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
