"""Fixtures the browser tests share: one live server and one Chromium per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import LiveServer, chromium_or_skip, launch


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """A web app on its own SQLite file, named after the test module."""
    chromium_or_skip()
    name = request.module.__name__.rsplit(".", 1)[-1]
    path = tmp_path_factory.mktemp("web") / f"{name}.sqlite"
    with LiveServer(f"sqlite:///{path}") as live:
        yield live


@pytest.fixture(scope="module")
def browser(server: LiveServer) -> Iterator[Any]:
    """Chromium, started after (and so stopped before) the module's server."""
    with launch(chromium_or_skip()) as b:
        yield b
