"""Stopping a process a test started: ask it to stop, give it time, then kill it."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any


def stop(
    proc: subprocess.Popen[Any],
    *,
    sig: int = signal.SIGTERM,
    grace: float = 30,
    group: bool = False,
) -> None:
    """Send ``sig`` to ``proc`` (to its whole process group with ``group``: it must have
    been started with ``start_new_session=True``), wait up to ``grace`` seconds for it to
    exit, else kill it (or its group) and reap it."""

    def send(s: int) -> None:
        if group:
            os.killpg(proc.pid, s)
        else:
            proc.send_signal(s)

    send(sig)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        proc.wait()
