"""Shared fixtures: real SQLite files in a temporary folder, the CLI as a real subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.runtime.store import Store, db_url

CliRunner = Callable[..., subprocess.CompletedProcess[str]]


def pytest_configure(config: pytest.Config) -> None:
    # A test run a shell started in the background (`cmd &`) inherits SIGINT ignored, and
    # so would every program it spawns: the pseudo-terminal tests press Ctrl-C and expect
    # the game to pause, and a child ignoring it plays on to the end instead.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def store(db_path: Path) -> Store:
    return Store(db_url(str(db_path)))


@pytest.fixture
def cli(db_path: Path) -> CliRunner:
    """Run ``python -m parlour ...`` against the test database; returns the finished process."""

    def run(
        *args: str, timeout: float = 300, input: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PARLOUR_DB": str(db_path), "COLUMNS": "200"}
        return subprocess.run(
            [sys.executable, "-m", "parlour", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            input=input,
            check=False,
        )

    return run
