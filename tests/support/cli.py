"""Running ``python -m parlour ...`` as a real child process, its output captured."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
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
